/**
 * Section 15 of `npm run bench`: carrier labels (docs/labels.md).
 * - purchases per second: `POST /v1/labelservice/submitOrder` at rates made beforehand (one rate per purchase, the
 *   sandbox carrier, LABELS_IN_FLIGHT in flight), from the first POST to the last answer, against the same sandbox
 *   adapter's `purchase` called directly in this process for as many shipments with fresh keys, at the same
 *   concurrency: what the order, the pending label, the two transactions, the documents and the tracking process
 *   cost over the carrier call itself.
 * - PDF render time per label (one parcel, 4x6 in with its Code 128), p50 and p95 of LABELS_RENDERS renders, against
 *   the same page rendered without its barcode (pdfkit alone).
 * - an async uniorder job of JOB_ITEMS label creations (POST /v1/uniorder/batch-async at rates made beforehand, one
 *   carrier), from the POST to the last item's result read back (GET /v1/uniorder/jobs/{id} polled every 100 ms),
 *   against the same number of purchases made in a bare loop calling the adapter directly with the job's concurrency
 *   per carrier (UNIORDER_CARRIER_CONCURRENCY): what the job's workflow, activities, orders and rows cost over the
 *   carrier calls themselves.
 */
import PDFDocument from 'pdfkit';
import type { Config } from '../src/platform/config.ts';
import type { Em } from '../src/platform/db/orm.ts';
import { createLogger } from '../src/platform/logger.ts';
import { adapterFor } from '../src/modules/labels/carriers/registry.ts';
import { insertAccount, openAccount } from '../src/modules/labels/repo/accounts.ts';
import { renderLabelPdf } from '../src/modules/labels/render/labelPdf.ts';
import type { LabelContent } from '../src/modules/labels/render/content.ts';
import { UNIORDER_CARRIER_CONCURRENCY } from '../src/modules/uniorder/domain.ts';
import { makeBusiness } from '../test/helpers/factories.ts';
import { load, type LoadRun } from './load.ts';

export const LABEL_PURCHASES = Number(process.env.BENCH_LABEL_PURCHASES ?? 300);
export const LABELS_IN_FLIGHT = 8;
export const LABEL_RENDERS = 200;
export const JOB_ITEMS = Number(process.env.BENCH_JOB_ITEMS ?? 500);
const JOB_POLL_MS = 100;

const SHIPPER = {
  name: 'Bench Depot',
  phone: '+33100000000',
  address: { line1: '1 rue A', city: 'Paris', postal_code: '75001', country: 'FR' },
};
const RECIPIENT = {
  name: 'Ana Martin',
  address: { line1: '9 Av B', city: 'Lyon', postal_code: '69002', country: 'FR' },
};

export interface LabelsRun {
  api: LoadRun;
  adapter: LoadRun;
  renderMs: number[];
  bareRenderMs: number[];
  /** Seconds from the job's POST to its last result, and for the same purchases in a bare loop. */
  jobSeconds: number;
  bareJobSeconds: number;
}

export async function labelsBench(
  appUrl: string,
  em: Em,
  config: Config,
  login: (email: string) => Promise<string>,
): Promise<LabelsRun> {
  const b = await makeBusiness(em);
  const account = (await insertAccount(em, b.business.id, {
    carrier: 'sandbox_swift',
    name: 'bench',
    account_number: `BENCH-${b.tag}`,
    credentials: { api_key: 'sbx_bench' },
    currency: 'EUR',
    default_shipper: null,
  }))!;
  const token = await login(b.users.admin.email);
  const call = async <T>(method: string, path: string, body: unknown, expected: number): Promise<T> => {
    const res = await fetch(`${appUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status !== expected) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  };
  const post = (path: string, body: unknown, expected: number) =>
    call<{ rates: { rate_id: string; service: string }[] }>('POST', path, body, expected);
  const shipment = (i: number) => ({
    shipper: SHIPPER,
    recipient: RECIPIENT,
    parcels: [{ weight_grams: 1000 + i }],
    reference: `BENCH-${i}`,
    carriers: ['sandbox_swift'],
    services: ['swift_express'],
  });
  const rateIds: string[] = [];
  for (let i = 0; i < LABEL_PURCHASES; i++)
    rateIds.push((await post('/labelservice/rate', shipment(i), 200)).rates[0]!.rate_id);
  const api = await load(LABEL_PURCHASES, LABELS_IN_FLIGHT, async (i) => {
    await post('/labelservice/submitOrder', { rate_id: rateIds[i] }, 201);
  });

  const adapter = adapterFor('sandbox_swift', { em, config, log: createLogger('silent') });
  const opened = openAccount(account);
  const today = new Date().toISOString().slice(0, 10);
  const direct = await load(LABEL_PURCHASES, LABELS_IN_FLIGHT, async (i) => {
    const s = shipment(i);
    await adapter.purchase(
      { account: opened, signal: new AbortController().signal, log: createLogger('silent') },
      {
        shipment: {
          shipper: { ...SHIPPER, address: { ...SHIPPER.address } },
          recipient: RECIPIENT,
          parcels: s.parcels,
          ship_date: today,
          reference: s.reference,
        },
        service: 'swift_express',
        formats: ['PDF', 'ZPL'],
        idempotency_key: `bench-direct-${b.tag}-${i}`,
      },
    );
  });

  const label = (i: number): LabelContent => ({
    trackingNumber: `SWF${String(1_000_000_000 + i)}7`,
    carrierName: 'Swift Sandbox Express',
    serviceName: 'Express',
    from: { name: SHIPPER.name, lines: [SHIPPER.address.line1], city: 'Paris', postalCode: '75001', country: 'FR' },
    to: { name: RECIPIENT.name, lines: [RECIPIENT.address.line1], city: 'Lyon', postalCode: '69002', country: 'FR' },
    weightGrams: 1200,
    reference: `BENCH-${i}`,
    createdAt: `${today}T00:00:00Z`,
  });
  const renderMs: number[] = [];
  const bareRenderMs: number[] = [];
  for (let i = 0; i < LABEL_RENDERS; i++) {
    let t = performance.now();
    await renderLabelPdf(label(i));
    renderMs.push(performance.now() - t);
    t = performance.now();
    await barePage(label(i));
    bareRenderMs.push(performance.now() - t);
  }
  // The job: JOB_ITEMS rates first (not timed), then the job from its POST to its last result.
  const jobRates: string[] = [];
  for (let i = 0; i < JOB_ITEMS; i++)
    jobRates.push((await post('/labelservice/rate', shipment(LABEL_PURCHASES + i), 200)).rates[0]!.rate_id);
  const started = performance.now();
  const job = await call<{ job_id: string }>(
    'POST',
    '/uniorder/batch-async',
    { items: jobRates.map((rate_id) => ({ rate_id })) },
    202,
  );
  for (;;) {
    const read = await call<{ status: string; succeeded: number; failed: number }>(
      'GET',
      `/uniorder/jobs/${job.job_id}?per_page=1`,
      undefined,
      200,
    );
    if (read.status === 'done') {
      if (read.succeeded !== JOB_ITEMS) throw new Error(`the job ended with ${read.failed} failed items`);
      break;
    }
    await new Promise((r) => setTimeout(r, JOB_POLL_MS));
  }
  const jobSeconds = (performance.now() - started) / 1000;
  const bare = await load(JOB_ITEMS, UNIORDER_CARRIER_CONCURRENCY, async (i) => {
    const s = shipment(LABEL_PURCHASES + i);
    await adapter.purchase(
      { account: opened, signal: new AbortController().signal, log: createLogger('silent') },
      {
        shipment: {
          shipper: SHIPPER,
          recipient: RECIPIENT,
          parcels: s.parcels,
          ship_date: today,
          reference: s.reference,
        },
        service: 'swift_express',
        formats: ['PDF', 'ZPL'],
        idempotency_key: `bench-bare-job-${b.tag}-${i}`,
      },
    );
  });
  return { api, adapter: direct, renderMs, bareRenderMs, jobSeconds, bareJobSeconds: JOB_ITEMS / bare.perSecond };
}

/** The label's text on a 4x6 page with pdfkit alone: no barcode, no fitting. */
function barePage(l: LabelContent): Promise<Buffer> {
  const doc = new PDFDocument({ size: [288, 432], margin: 0 });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.font('Helvetica-Bold').fontSize(18).text(l.carrierName, 12, 12);
  doc.font('Helvetica').fontSize(11).text(l.serviceName).text(l.from.name).text(l.to.name).text(l.reference);
  doc.fontSize(12).text(l.trackingNumber, 12, 400);
  doc.end();
  return done;
}
