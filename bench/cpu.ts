/**
 * CPU time used by each part of the bench's stack, read from /proc (Linux): this process (the API and the load, with
 * their native threads), the worker process (workflows, activities, the outbox relay), PostgreSQL's processes (the postmaster counts the backends that ended) and
 * the Temporal server. On a machine where the four share few cores, a figure at a fixed number in flight is
 * bounded by the CPU each call costs them together, which this shows. Empty where /proc is not there.
 */
import fs from 'node:fs';

export type CpuPart = 'service' | 'worker' | 'postgres' | 'temporal';
/** The bench's worker processes (`npm run worker`), counted apart from this one. */
export const workerPids = new Set<number>();
export type CpuTimes = Partial<Record<CpuPart, number>>;

/** Linux counts process CPU time in ticks of 1/100 s on every architecture Node runs on. */
const MS_PER_TICK = 10;

function partOf(pid: number, command: string): CpuPart | null {
  if (pid === process.pid) return 'service';
  if (workerPids.has(pid)) return 'worker';
  if (command === 'postgres') return 'postgres';
  if (command.startsWith('temporal')) return 'temporal';
  return null;
}

/** CPU ms used so far by each part. */
export function cpuTimes(): CpuTimes {
  const times: CpuTimes = {};
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return times;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const part = partOf(Number(pid), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
    if (!part) continue;
    // Fields after the command: state is [0]; utime, stime, cutime, cstime are [11] to [14].
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const ticks = f[11]! + f[12]! + (part === 'postgres' ? f[13]! + f[14]! : 0);
    times[part] = (times[part] ?? 0) + ticks * MS_PER_TICK;
  }
  return times;
}

/** CPU ms per call of each part between two readings. */
export function cpuPerCall(before: CpuTimes, after: CpuTimes, calls: number): CpuTimes {
  const out: CpuTimes = {};
  for (const part of Object.keys(after) as CpuPart[]) out[part] = ((after[part] ?? 0) - (before[part] ?? 0)) / calls;
  return out;
}
