/**
 * Carrier labels and uniorder (docs/labels.md, docs/uniorder.md), through the public API only:
 * - label-journey: the business's sandbox carriers are connected (connected here when they are not), a shipment is
 *   rated by both, the cheapest label is bought, downloaded and written to a PDF file whose path is printed with the
 *   carrier tracking number, then voided.
 * - uniorder-job: fifty shipments are rated in batches of 20, each one's cheapest label rate goes into one async job
 *   of 50 creations, and the job is followed to its end: every item reported, each with its order or its refusal.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ScenarioError } from '../api.ts';
import type { World } from '../world.ts';

const SHIPPER = {
  name: 'Scenario Depot',
  phone: '+33100000000',
  address: { line1: '1 rue de Rivoli', city: 'Paris', postal_code: '75001', country: 'FR' },
};
const SANDBOX_CARRIERS = ['sandbox_swift', 'sandbox_parcel'] as const;

const recipient = (w: World, i = 0) => ({
  name: `Ada ${w.run} ${i}`,
  email: w.recipient,
  address: { line1: `${9 + i} Avenue Foch`, city: 'Lyon', postal_code: '69006', country: 'FR' },
});

/** The business's sandbox carrier accounts, each connected first when it is not. */
async function sandboxAccounts(w: World, token: string): Promise<void> {
  const accounts = (await w.api.call('GET', '/v1/labelservice/carrier-accounts', { token })).body.carrier_accounts as {
    carrier: string;
    active: boolean;
  }[];
  for (const carrier of SANDBOX_CARRIERS) {
    if (accounts.some((a) => a.carrier === carrier && a.active)) continue;
    await w.api.call('POST', '/v1/labelservice/carrier-accounts', {
      token,
      expect: 201,
      body: {
        carrier,
        name: `${carrier} (scenario)`,
        account_number: `SCN-${w.run}`,
        credentials: { api_key: `sbx_${w.run.toLowerCase()}` },
        currency: 'EUR',
        default_shipper: SHIPPER,
      },
    });
    w.journal.step(`connected ${carrier}`);
  }
}

export async function labelJourney(w: World): Promise<void> {
  const admin = await w.token('admin');
  await sandboxAccounts(w, admin);
  const rated = await w.api.call('POST', '/v1/labelservice/rate', {
    token: admin,
    body: {
      shipper: SHIPPER,
      recipient: recipient(w),
      parcels: [{ weight_grams: 1800, length_mm: 300, width_mm: 200, height_mm: 150 }],
      reference: `SCN-${w.run}`,
    },
  });
  const rates = rated.body.rates as {
    rate_id: string;
    carrier: string;
    service: string;
    total_charge: string;
    transit_days: number;
  }[];
  if (rates.length === 0) throw new ScenarioError('no carrier rated the shipment');
  for (const r of rates)
    w.journal.step(`rate ${r.carrier}/${r.service}: ${r.total_charge} EUR, ${r.transit_days} business days`);
  const cheapest = rates[0]!;
  const bought = await w.api.call('POST', '/v1/labelservice/submitOrder', {
    token: admin,
    expect: 201,
    body: { rate_id: cheapest.rate_id, idempotency_key: `scn-${w.run}` },
  });
  const orderId = bought.body.order_id as number;
  const carrierNumber = (bought.body.label.carrier_tracking_numbers as string[])[0]!;
  w.journal.step(
    `bought ${cheapest.carrier}/${cheapest.service}: order ${orderId}, carrier tracking number ${carrierNumber}`,
  );
  const label = await w.api.call('POST', '/v1/shipping/getShippingLabel', {
    token: admin,
    body: { order_id: orderId, format: 'PDF' },
  });
  const file = path.join(os.tmpdir(), `tms-label-${carrierNumber}.pdf`);
  fs.writeFileSync(file, Buffer.from(label.body.label_base64 as string, 'base64'));
  w.journal.step(
    `label PDF (${label.body.pages} page, sha256 ${(label.body.sha256 as string).slice(0, 12)}…) written to ${file}`,
  );
  const voided = await w.api.call('POST', '/v1/labelservice/cancelShippingLabel', {
    token: admin,
    body: { order_id: orderId },
  });
  w.journal.step(`voided: order ${orderId} is ${voided.body.status}`);
}

const JOB_ITEMS = 50;
const BATCH = 20;

export async function uniorderJob(w: World): Promise<void> {
  const admin = await w.token('admin');
  await sandboxAccounts(w, admin);
  const shipments = Array.from({ length: JOB_ITEMS }, (_, i) => ({
    type: 'D',
    shipper: SHIPPER,
    recipient: recipient(w, i),
    parcels: [{ weight_grams: 500 + 100 * i }],
    reference: `SCN-${w.run}-${i}`,
    quote_labels: true,
  }));
  const rateIds: string[] = [];
  for (let from = 0; from < JOB_ITEMS; from += BATCH) {
    const res = await w.api.call('POST', '/v1/uniorder/rate/batch', {
      token: admin,
      body: { items: shipments.slice(from, from + BATCH) },
    });
    for (const item of res.body.results as {
      index: number;
      result: boolean;
      rates?: { rate_id: string; kind: string }[];
    }[]) {
      const label = item.rates?.find((r) => r.kind === 'label');
      if (!label) throw new ScenarioError(`shipment ${from + item.index} got no label rate`);
      rateIds.push(label.rate_id);
    }
  }
  w.journal.step(`${rateIds.length} shipments rated in batches of ${BATCH}`);
  const job = await w.api.call('POST', '/v1/uniorder/batch-async', {
    token: admin,
    expect: 202,
    body: { items: rateIds.map((rate_id, i) => ({ rate_id, idempotency_key: `scn-${w.run}-${i}` })) },
  });
  const jobId = job.body.job_id as string;
  w.journal.workflow(`uniorder-job-${jobId}`, `uniorder job ${jobId}`);
  w.journal.step(`job ${jobId} queued with ${job.body.total} items`);
  let seen = -1;
  const done = await w.until(`job ${jobId} done`, async () => {
    const read = (await w.api.call('GET', `/v1/uniorder/jobs/${jobId}?per_page=200`, { token: admin })).body;
    const finished = read.succeeded + read.failed;
    if (finished !== seen) {
      seen = finished;
      w.journal.step(`job ${read.status}: ${read.succeeded} bought, ${read.failed} failed, ${read.pending} pending`);
    }
    return read.status === 'done' ? read : null;
  });
  const items = done.items as { index: number; status: string }[];
  if (items.length !== JOB_ITEMS || items.some((i) => i.status === 'pending'))
    throw new ScenarioError(`the job ended with ${items.length} items, some not reported`);
  w.journal.step(`every item reported: ${done.succeeded} label orders, ${done.failed} refused`);
}
