/**
 * Section 9 of `npm run bench`: package distribution moved by scans and by carrier ingest.
 *
 * Scans: SCANS_PACKAGES packages are received at a warehouse (each scan starts its package's process), then each is
 * loaded: POST /api/v1/distribution/scans, SCANS_IN_FLIGHT in flight, each a workflow update of a running process
 * plus its read model write. Baseline, same run, after it: the same number of bare client signals (no handler, no
 * write) to the same running processes, at the same concurrency.
 *
 * Batches: SCANS_PACKAGES new packages received through POST /api/v1/distribution/scan-batches, MAX_BATCH_SCANS scans a
 * request and one request at a time (a hub's intake sending its batches in turn), each scan starting its package's
 * process; scans per second. Baseline: as many bare signals to running processes at the batch's in-flight count
 * (BATCH_SCANS_IN_FLIGHT), so the ratio compares like concurrency with like.
 *
 * Ingest: a carrier's EPCIS document of 500 `receiving` ObjectEvents at the warehouse's SGLN, one per package,
 * which receives 500 packages (500 processes started), against the native OTEP document of the same events for 500
 * other packages; the median time per document of alternating rounds.
 */
import type { Client } from '@temporalio/client';
import type { Em } from '../src/platform/db/orm.ts';
import { distributionWorkflowId } from '../src/modules/distribution/contract.ts';
import { BATCH_SCANS_IN_FLIGHT, MAX_BATCH_SCANS } from '../src/modules/distribution/operations/scanBatches.ts';
import { makeBusiness, makeOrder, makeProvider } from '../test/helpers/factories.ts';
import { load, postKeepAlive, type LoadRun } from './load.ts';
import { cpuPerCall, cpuTimes, type CpuTimes } from './cpu.ts';

export const SCANS_PACKAGES = Number(process.env.BENCH_SCANS ?? 1000);
export const SCANS_IN_FLIGHT = 8;
const INGEST_EVENTS = 500;
const INGEST_ROUNDS = Number(process.env.BENCH_DISTRIBUTION_ROUNDS ?? 2);
const WARM_UP = 50;

/** A run with the CPU each scan (or signal) cost each part of the stack, and the wall time it took. */
export type MeasuredRun = LoadRun & { cpu: CpuTimes; wallMs: number };

async function measured(count: number, run: () => Promise<LoadRun>): Promise<MeasuredRun> {
  const before = cpuTimes();
  const started = performance.now();
  const result = await run();
  return { ...result, wallMs: performance.now() - started, cpu: cpuPerCall(before, cpuTimes(), count) };
}

export interface DistributionRun {
  received: MeasuredRun;
  loaded: MeasuredRun;
  signals: MeasuredRun;
  /** Received scans sent in batches: latencies per batch, perSecond in scans. */
  batched: MeasuredRun;
  /** Bare signals at the batch's in-flight count. */
  batchSignals: MeasuredRun;
  batchSize: number;
  batchInFlight: number;
  epcisMs: number[];
  nativeMs: number[];
}

async function post(url: string, token: string, body: unknown, expected = 200): Promise<void> {
  const status = await postKeepAlive(
    url,
    { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    JSON.stringify(body),
  );
  if (status !== expected) throw new Error(`${url} answered ${status}`);
}

export async function distributionBench(
  appUrl: string,
  em: Em,
  temporal: Client,
  login: (email: string) => Promise<string>,
): Promise<DistributionRun> {
  const b = await makeBusiness(em);
  const carrier = await makeProvider(em, 'delivery_provider');
  const staff = await login(b.users.employee.email);
  const admin = await login(b.users.admin.email);
  const sgln = `urn:epc:id:sgln:0614141.${String(Date.now() % 100_000).padStart(5, '0')}.0`;
  await post(`${appUrl}/api/v1/places`, admin, { kind: 'warehouse', code: 'WH', name: 'Bench hub', sgln }, 201);
  const carrierToken = await login(carrier.user.email);
  const keyAnswer = await fetch(`${appUrl}/api/v1/otep/credentials`, {
    method: 'POST',
    headers: { authorization: `Bearer ${carrierToken}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const key = ((await keyAnswer.json()) as { credential: { secret: string } }).credential.secret;
  const packages = async (count: number) => {
    const numbers: string[] = [];
    for (let i = 0; i < count; i++)
      numbers.push(
        (await makeOrder(em, b.business.id, { carrierProviderId: carrier.business.id, selfDelivery: false }))
          .trackingNumber,
      );
    return numbers;
  };

  // Scans: received (starts each process), then loaded (a running process), then bare signals to the same processes.
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 6, minute)).toISOString();
  const scan = (number: string, action: string, minute: number) =>
    post(`${appUrl}/api/v1/distribution/scans`, staff, {
      package_number: number,
      action,
      location: 'WH',
      scanned_at: at(minute),
    });
  const warm = await packages(WARM_UP);
  await load(WARM_UP, SCANS_IN_FLIGHT, (i) => scan(warm[i]!, 'received', 0));
  const scanned = await packages(SCANS_PACKAGES);
  const received = await measured(SCANS_PACKAGES, () =>
    load(SCANS_PACKAGES, SCANS_IN_FLIGHT, (i) => scan(scanned[i]!, 'received', 0)),
  );
  const loaded = await measured(SCANS_PACKAGES, () =>
    load(SCANS_PACKAGES, SCANS_IN_FLIGHT, (i) => scan(scanned[i]!, 'loaded', 1)),
  );
  const signals = await measured(SCANS_PACKAGES, () =>
    load(SCANS_PACKAGES, SCANS_IN_FLIGHT, (i) =>
      temporal.workflow.getHandle(distributionWorkflowId(scanned[i]!)).signal('benchPing'),
    ),
  );

  // Batches: new packages received MAX_BATCH_SCANS a request, one request at a time (fetch: a batch may take longer
  // than postKeepAlive's 3 s limit on a slow machine), then bare signals at the batch's in-flight count.
  const fresh = await packages(SCANS_PACKAGES);
  const batches = Math.ceil(SCANS_PACKAGES / MAX_BATCH_SCANS);
  const sendBatch = async (i: number) => {
    const scans = fresh.slice(i * MAX_BATCH_SCANS, (i + 1) * MAX_BATCH_SCANS);
    const res = await fetch(`${appUrl}/api/v1/distribution/scan-batches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${staff}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        scans: scans.map((n) => ({ package_number: n, action: 'received', location: 'WH', scanned_at: at(0) })),
      }),
    });
    const answer = (await res.json()) as { scans?: { scan: { outcome: string } }[] };
    if (res.status !== 200 || answer.scans?.filter((a) => a.scan.outcome === 'applied').length !== scans.length)
      throw new Error(`scan-batches answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
  };
  const batchRun = await measured(SCANS_PACKAGES, () => load(batches, 1, sendBatch));
  const batched = { ...batchRun, perSecond: (batchRun.perSecond * SCANS_PACKAGES) / batches };
  const batchSignals = await measured(SCANS_PACKAGES, () =>
    load(SCANS_PACKAGES, BATCH_SCANS_IN_FLIGHT, (i) =>
      temporal.workflow.getHandle(distributionWorkflowId(fresh[i]!)).signal('benchPing'),
    ),
  );

  // A document of 500 takes longer than postKeepAlive's 3 s limit.
  const ingest = async (path: string, body: unknown) => {
    const t = performance.now();
    const res = await fetch(`${appUrl}/api/v1/otep/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as { accepted: number };
    if (res.status !== 200 || answer.accepted !== INGEST_EVENTS)
      throw new Error(`${path} answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
    return performance.now() - t;
  };

  // Ingest: the same receiving events as one EPCIS document and as one native document, alternating.
  const epcisMs: number[] = [];
  const nativeMs: number[] = [];
  for (let round = 0; round < INGEST_ROUNDS; round++) {
    const [viaEpcis, viaOtep] = [await packages(INGEST_EVENTS), await packages(INGEST_EVENTS)];
    const epcis = {
      '@context': ['https://ref.gs1.org/standards/epcis/epcis-context.jsonld'],
      type: 'EPCISDocument',
      schemaVersion: '2.0',
      creationDate: at(2),
      epcisBody: {
        eventList: viaEpcis.map((n) => ({
          type: 'ObjectEvent',
          eventTime: at(2),
          eventTimeZoneOffset: '+00:00',
          action: 'OBSERVE',
          epcList: [`urn:otep:tracking:${n}`],
          bizStep: 'receiving',
          disposition: 'in_progress',
          readPoint: { id: sgln },
        })),
      },
    };
    const native = {
      events: viaOtep.map((n) => ({
        subject: n,
        occurred_at: at(2),
        status_code: 'otep:core:received_at_facility',
        otep_version: '1.0.0',
        location: { gln: sgln },
      })),
    };
    epcisMs.push(await ingest('ingest/epcis', epcis));
    nativeMs.push(await ingest('ingest', native));
  }
  // Every package of the last round was received: the figure is of documents that moved their packages.
  const moved = await em.execute<{ n: number }[]>(
    "select count(*)::int as n from package_distribution where business_id = ? and status = 'created'",
    [b.business.id],
  );
  if (moved[0]!.n < WARM_UP + SCANS_PACKAGES + 2 * INGEST_ROUNDS * INGEST_EVENTS)
    throw new Error(`only ${moved[0]!.n} packages were received`);
  return {
    received,
    loaded,
    signals,
    batched,
    batchSignals,
    batchSize: MAX_BATCH_SCANS,
    batchInFlight: BATCH_SCANS_IN_FLIGHT,
    epcisMs,
    nativeMs,
  };
}
