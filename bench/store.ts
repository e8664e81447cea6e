/**
 * Section 1 of `npm run bench`: the device-order store over HTTP, STORE_IN_FLIGHT in flight, against two baselines
 * measured in the same run, in alternating rounds (the median of each figure over the rounds):
 *  - the empty start: client.workflow.start of a workflow with no arguments on a queue no worker polls;
 *  - the same start: the store's own workflow.start (workflow, arguments, search attributes, the worker's queue,
 *    whose worker runs its first task), for ids no row has: what Temporal itself costs a store, without HTTP,
 *    validation and rows.
 * Beside each, the CPU each call cost this process, PostgreSQL and the Temporal server (bench/cpu.ts).
 */
import type { Client } from '@temporalio/client';
import {
  DEVICE_ORDER_QUEUE,
  DEVICE_ORDER_WORKFLOW,
  deviceOrderSearchAttributes,
} from '../src/modules/device-orders/contract.ts';
import { doorTimings } from '../src/modules/device-orders/domain.ts';
import type { Config } from '../src/platform/config.ts';
import { NO_DUPLICATES } from '../src/platform/temporal/startOptions.ts';
import { cpuPerCall, cpuTimes, type CpuTimes } from './cpu.ts';
import { load, postKeepAlive, type LoadRun } from './load.ts';

export const STORE_IN_FLIGHT = 8;
export const STORE_ROUNDS = 3;
export const STORE_CALLS = 500;
const WARM_UP = 50;
/** Compartments a run of this section fills, warm-up included. */
export const STORE_GRIDS = WARM_UP + STORE_ROUNDS * STORE_CALLS;

export interface StoreTarget {
  appUrl: string;
  headers: Record<string, string>;
  temporal: Client;
  config: Config;
  businessId: number;
  deviceCode: string;
  /** Free compartments of the device, each used once. */
  grids: string[];
}

export interface Measured {
  runs: LoadRun[];
  cpu: CpuTimes[];
}
export interface StoreRun {
  store: Measured;
  emptyStart: Measured;
  sameStart: Measured;
}

export async function storeBench(t: StoreTarget): Promise<StoreRun> {
  const far = new Date(Date.now() + 24 * 3600_000).toISOString();
  let grid = 0;
  // Sent as the webhook baselines send (node's http client, kept alive): fetch's own work in this process would
  // count against the store.
  const store = async () => {
    const body = JSON.stringify({
      kind: 'delivery',
      device_id: t.deviceCode,
      grid_code: t.grids[grid++],
      reference_number: 'B',
      due_at: far,
    });
    const status = await postKeepAlive(`${t.appUrl}/api/v1/device-orders`, t.headers, body);
    if (status !== 201) throw new Error(`store answered ${status}`);
  };
  let started = 0;
  const emptyStart = async () => {
    await t.temporal.workflow.start('benchEmptyWorkflow', {
      workflowId: `bench-empty-${started++}-${Date.now()}`,
      taskQueue: 'bench-no-worker',
      args: [],
    });
  };
  const sameStart = async () => {
    const id = 1_000_000_000 + started++;
    await t.temporal.workflow.start(DEVICE_ORDER_WORKFLOW, {
      workflowId: `bench-same-${id}-${Date.now()}`,
      taskQueue: DEVICE_ORDER_QUEUE,
      ...NO_DUPLICATES,
      args: [{ id, businessId: t.businessId, dueAt: far, ...doorTimings(t.config.lockerTimerScale) }],
      typedSearchAttributes: deviceOrderSearchAttributes(t.businessId, t.deviceCode, null),
    });
  };
  await load(WARM_UP, STORE_IN_FLIGHT, store);
  await load(WARM_UP, STORE_IN_FLIGHT, sameStart);
  const out: StoreRun = {
    store: { runs: [], cpu: [] },
    emptyStart: { runs: [], cpu: [] },
    sameStart: { runs: [], cpu: [] },
  };
  for (let round = 0; round < STORE_ROUNDS; round++) {
    for (const [m, task] of [
      [out.store, store],
      [out.emptyStart, emptyStart],
      [out.sameStart, sameStart],
    ] as const) {
      const before = cpuTimes();
      m.runs.push(await load(STORE_CALLS, STORE_IN_FLIGHT, task));
      m.cpu.push(cpuPerCall(before, cpuTimes(), STORE_CALLS));
    }
  }
  return out;
}
