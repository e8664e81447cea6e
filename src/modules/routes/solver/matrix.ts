/**
 * Travel between a build's places (docs/routes.md, Building routes): great-circle distances at the build's average
 * speed, or, with ROUTER_URL, road times and distances from OSRM's table service. A table larger than OSRM's default
 * limit (100 x 100) is asked in blocks. A router that fails (an error status, no answer in time, an answer that is
 * not a table, a private address not allowed) leaves the great-circle figures, with the reason; an abort rejects.
 * Like delivery-prices' road router, the call never follows a redirect and, unless ROUTER_ALLOW_PRIVATE is on, never
 * reaches a loopback, private or link-local address, by literal or after DNS (the webhooks' guardedLookup). While
 * the router is asked, `heartbeat` is called every second and after each block: a long matrix is not taken for a
 * dead worker.
 */
import { z } from 'zod';
import { greatCircleMeters, routerGet } from '../../delivery-prices/index.ts';
import type { LngLat } from './problem.ts';

export interface TravelMatrix {
  /** Whole seconds. */
  durations: number[][];
  /** Whole metres. */
  distances: number[][];
  source: 'great_circle' | 'osrm';
  /** Why the router's figures were not used, when it was asked and failed. */
  routerError?: string;
}

/** OSRM's default --max-table-size: sources x destinations of one request at most this squared. */
const BLOCK = 100;
const PARALLEL_REQUESTS = 4;
const DEFAULT_TIMEOUT_MS = 30_000;
const HEARTBEAT_MS = 1_000;
/** The most of one answer read: a 100 x 100 table of both annotations is well under. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

const Row = z.array(z.number().nonnegative().nullable());
const OsrmTable = z.object({ code: z.literal('Ok'), durations: z.array(Row), distances: z.array(Row) });

export async function travelMatrix(
  locations: readonly LngLat[],
  opts: {
    speedKmh: number;
    routerUrl?: string | null;
    /** ROUTER_ALLOW_PRIVATE: the router may be a loopback or private address. */
    allowPrivate?: boolean;
    timeoutMs?: number;
    signal?: AbortSignal;
    /** Called every second while the router is asked, and after each block (the activity's heartbeat). */
    heartbeat?: () => void;
  },
): Promise<TravelMatrix> {
  const metresPerSecond = opts.speedKmh / 3.6;
  const distances = locations.map(([lng, lat]) =>
    locations.map(([toLng, toLat]) => greatCircleMeters({ lat, lng }, { lat: toLat, lng: toLng })),
  );
  const durations = distances.map((row) => row.map((m) => Math.round(m / metresPerSecond)));
  if (!opts.routerUrl || locations.length < 2) return { durations, distances, source: 'great_circle' };
  const beat = opts.heartbeat ? setInterval(opts.heartbeat, HEARTBEAT_MS) : null;
  try {
    await osrmTable(opts.routerUrl.replace(/\/+$/, ''), locations, durations, distances, opts);
    return { durations, distances, source: 'osrm' };
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    // Blocks already written hold road figures: start again from great-circle throughout.
    const fallback = await travelMatrix(locations, { speedKmh: opts.speedKmh, signal: opts.signal });
    return { ...fallback, routerError: (err as Error).message };
  } finally {
    if (beat) clearInterval(beat);
  }
}

/** Writes the router's figures over the great-circle ones, block by block; a pair it cannot route keeps them. */
async function osrmTable(
  base: string,
  locations: readonly LngLat[],
  durations: number[][],
  distances: number[][],
  opts: { allowPrivate?: boolean; timeoutMs?: number; signal?: AbortSignal; heartbeat?: () => void },
): Promise<void> {
  const blocks: [number, number][] = [];
  for (let from = 0; from < locations.length; from += BLOCK)
    for (let to = 0; to < locations.length; to += BLOCK) blocks.push([from, to]);
  const next = async (): Promise<void> => {
    for (let block = blocks.shift(); block; block = blocks.shift()) {
      const [from, to] = block;
      const sources = locations.slice(from, from + BLOCK);
      const targets = locations.slice(to, to + BLOCK);
      const coords = [...sources, ...targets].map(([lng, lat]) => `${lng},${lat}`).join(';');
      const src = sources.map((_, i) => i).join(';');
      const dst = targets.map((_, i) => sources.length + i).join(';');
      const url = `${base}/table/v1/driving/${coords}?annotations=duration,distance&sources=${src}&destinations=${dst}`;
      const { status, text } = await routerGet(url, {
        allowPrivate: opts.allowPrivate ?? false,
        timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxBytes: MAX_ANSWER_BYTES,
        signal: opts.signal,
      });
      if (status !== 200) throw new Error(`HTTP ${status}`);
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        // judged below
      }
      const parsed = OsrmTable.safeParse(json);
      if (!parsed.success) throw new Error('the answer is not an OSRM table');
      const { durations: d, distances: m } = parsed.data;
      sources.forEach((_, i) =>
        targets.forEach((_, j) => {
          const seconds = d[i]?.[j];
          const metres = m[i]?.[j];
          if (seconds == null || metres == null) return;
          durations[from + i]![to + j] = Math.round(seconds);
          distances[from + i]![to + j] = Math.round(metres);
        }),
      );
      opts.heartbeat?.();
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_REQUESTS, blocks.length) }, next));
}
