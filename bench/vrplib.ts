/**
 * VRPLIB instances with time windows (CVRPTW, e.g. Solomon's) and their measures in the instance's own units: the
 * DIMACS distance (Euclidean truncated to one decimal; one unit of distance takes one unit of time), a plan's cost,
 * and whether a plan serves every customer once within its window and the capacity. Node 0 is the depot; customers
 * are 1..n, as in the `.sol` files.
 */
export interface VrpInstance {
  name: string;
  capacity: number;
  vehicles: number;
  coords: [x: number, y: number][];
  demand: number[];
  windows: [from: number, to: number][];
  service: number[];
}

export function readInstance(text: string): VrpInstance {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const header = (key: string) =>
    lines
      .find((l) => l.startsWith(key))
      ?.split(':')[1]
      ?.trim();
  const section = (name: string): number[][] => {
    const start = lines.indexOf(name);
    if (start < 0) return [];
    const rows: number[][] = [];
    for (const line of lines.slice(start + 1)) {
      if (!/^-?\d/.test(line) || line === '-1') break;
      rows.push(line.split(/\s+/).map(Number));
    }
    return rows;
  };
  const n = Number(header('DIMENSION'));
  const coords = section('NODE_COORD_SECTION').map((r) => [r[1]!, r[2]!] as [number, number]);
  const demand = section('DEMAND_SECTION').map((r) => r[1]!);
  const windows = section('TIME_WINDOW_SECTION').map((r) => [r[1]!, r[2]!] as [number, number]);
  const services = section('SERVICE_TIME_SECTION').map((r) => r[1]!);
  const flat = Number(header('SERVICE_TIME') ?? 0);
  const service = coords.map((_, i) => (i === 0 ? 0 : (services[i] ?? flat)));
  if (!n || coords.length !== n || demand.length !== n || windows.length !== n)
    throw new Error('not a VRPLIB instance with coordinates, demands and time windows');
  if (Number(section('DEPOT_SECTION')[0]?.[0] ?? 1) !== 1) throw new Error('the depot must be the first node');
  return {
    name: header('NAME') ?? 'instance',
    capacity: Number(header('CAPACITY')),
    vehicles: Number(header('VEHICLES') ?? n - 1),
    coords,
    demand,
    windows,
    service,
  };
}

/** The `Cost N` line of a `.sol` file. */
export function bestKnownCost(solution: string): number | null {
  const m = /^Cost\s+([\d.]+)/m.exec(solution);
  return m ? Number(m[1]) : null;
}

/** DIMACS: Euclidean truncated to one decimal, in tenths of a unit (exact integers). */
export function tenths(inst: VrpInstance, a: number, b: number): number {
  const [ax, ay] = inst.coords[a]!;
  const [bx, by] = inst.coords[b]!;
  return Math.floor(10 * Math.hypot(ax - bx, ay - by));
}

/** A plan's distance: depot to the first customer, between customers, the last back to the depot. */
export function planCost(inst: VrpInstance, routes: readonly (readonly number[])[]): number {
  let total = 0;
  for (const r of routes) {
    const path = [0, ...r, 0];
    for (let i = 1; i < path.length; i++) total += tenths(inst, path[i - 1]!, path[i]!);
  }
  return total / 10;
}

/**
 * What is wrong with a plan, in words (none: every customer once, each load within the capacity, each service
 * begun within its window, each vehicle back by the depot's closing), leaving the depot at its opening.
 */
export function planViolations(inst: VrpInstance, routes: readonly (readonly number[])[]): string[] {
  const wrong: string[] = [];
  const seen = new Map<number, number>();
  routes.forEach((r, v) => {
    let load = 0;
    let t = inst.windows[0]![0] * 10;
    let here = 0;
    for (const c of r) {
      seen.set(c, (seen.get(c) ?? 0) + 1);
      load += inst.demand[c]!;
      t = Math.max(t + tenths(inst, here, c), inst.windows[c]![0] * 10);
      if (t > inst.windows[c]![1] * 10)
        wrong.push(`route ${v + 1}: customer ${c} begins at ${t / 10}, after its window`);
      t += inst.service[c]! * 10;
      here = c;
    }
    if (t + tenths(inst, here, 0) > inst.windows[0]![1] * 10) wrong.push(`route ${v + 1}: back after the depot closes`);
    if (load > inst.capacity) wrong.push(`route ${v + 1}: load ${load} over the capacity ${inst.capacity}`);
  });
  for (let c = 1; c < inst.coords.length; c++)
    if (seen.get(c) !== 1) wrong.push(`customer ${c} served ${seen.get(c) ?? 0} times`);
  return wrong;
}
