/**
 * A label's tracking process with the sandbox carriers (docs/labels.md, "Tracking of sandbox labels"), a compressed
 * day lasting 1 s: after the hand-over the carrier's events reach the timeline through tracking's ingest and move the
 * order 33, 43 and 3 (4 for SBX-DELIVERY-FAILS); public tracking and the OTEP reads find the parcel by its carrier
 * number; a void ends the process; a label never handed over ends it after 30 compressed days; and the sweep
 * finishes an interrupted purchase once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  journeyQuery,
  LABEL_PURCHASE_SWEEP_WORKFLOW,
  LABEL_QUEUE,
  LABEL_RATE_PRUNE_WORKFLOW,
  labelTrackingWorkflowId,
  type LabelTrackingOutcome,
} from '../../../src/modules/labels/contract.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { replayAndMaybeRecord } from '../../helpers/histories.ts';
import { keepEvents } from '../../helpers/factories.ts';
import { waitFor } from '../../helpers/wait.ts';
import { handOver, JOURNEY_KEYS, labelWorld, rateBody, type LabelWorld } from './world.ts';

describe('labels: tracking of sandbox labels', () => {
  let app: TestApp;
  let w: LabelWorld;
  /** A label bought first and never handed over: its process should end by itself after 30 s. */
  let unused: number;

  before(async () => {
    // A compressed day of 0.25 s: a journey of 2 days takes half a second, the 30 days' wait for a hand-over 7.5 s.
    app = await startApp({ LABEL_CARRIER_TIMEOUT_MS: '500', SANDBOX_TRACKING_DAY_SECONDS: '0.25' });
    w = await labelWorld(app);
    await keepEvents(app.em(), w.business.id);
    unused = (await buy('TRK-UNUSED')).orderId;
  });
  after(() => app.running.close());

  /** Buys a one-parcel Swift Express label (2 transit days in zone 2) and answers the order and carrier number. */
  async function buy(reference: string) {
    const rated = await app.http.post('/v1/labelservice/rate', rateBody(reference), { token: w.admin });
    assert.equal(rated.status, 200, JSON.stringify(rated.body));
    const rate = rated.body.rates.find((r: { service: string }) => r.service === 'swift_express');
    const res = await app.http.post('/v1/labelservice/submitOrder', { rate_id: rate.rate_id }, { token: w.admin });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return {
      orderId: res.body.order_id as number,
      trackingNumber: res.body.tracking_number as string,
      carrierNumber: res.body.label.carrier_tracking_numbers[0] as string,
    };
  }
  const processOf = (orderId: number) => app.running.temporal.workflow.getHandle(labelTrackingWorkflowId(orderId));
  /** The process's state once it answers queries (its first workflow task done). */
  const journeyState = (orderId: number) =>
    processOf(orderId)
      .query(journeyQuery)
      .then((j) => j.state)
      .catch(() => null);
  const statusesOf = async (orderId: number) =>
    (
      await app
        .em()
        .execute<{ after_status: number }[]>(
          'select after_status from order_status_change where order_id = ? order by id',
          [orderId],
        )
    ).map((r) => r.after_status);
  const statusOf = async (orderId: number) =>
    (
      await app.em().execute<{ status_id: number }[]>('select status_id from delivery_order where id = ?', [orderId])
    )[0]!.status_id;

  test('a handed-over label moves its order 33, 43 and ends 3; public tracking and EPCIS by the carrier number', async () => {
    const { orderId, trackingNumber, carrierNumber } = await buy('TRK-1');
    const handle = processOf(orderId);
    await waitFor(async () => (await journeyState(orderId)) === 'waiting_hand_over');
    await handOver(app, w, orderId);
    assert.equal(await handle.result(), 'journey_ended' satisfies LabelTrackingOutcome);
    const statuses = await statusesOf(orderId);
    const moves = statuses.filter((s) => [33, 43, 3].includes(s));
    assert.deepEqual([...new Set(moves)], [33, 43, 3], JSON.stringify(statuses));
    assert.equal(await statusOf(orderId), 3);
    const journey = await handle.query(journeyQuery);
    assert.equal(journey.state, 'ended');
    assert.equal(journey.lastEventId, `sbx-${carrierNumber}-6`);

    // Each carrier event went out as tracking.event, once, in the family label_service.
    const sent = await app
      .em()
      .execute<{ key: string; family: string }[]>(
        "select payload->'data'->'tracking_event'->>'key' as key, family from outbox_event where event_type = 'tracking.event' and reference_id = ? order by id",
        [String(orderId)],
      );
    assert.deepEqual(
      sent.map((e) => e.key),
      JOURNEY_KEYS,
    );
    assert.ok(sent.every((e) => e.family === 'label_service'));

    const byCarrier = await app.http.get(`/v1/tracking/${carrierNumber}`);
    assert.equal(byCarrier.status, 200, JSON.stringify(byCarrier.body));
    assert.equal(byCarrier.body.tracking_number, carrierNumber);
    assert.equal(byCarrier.body.delivered, true);
    assert.equal(byCarrier.body.status.code, 'otep:core:delivered');
    assert.deepEqual(
      byCarrier.body.packages.map((p: { tracking_number: string }) => p.tracking_number),
      [trackingNumber],
    );
    const statusCodes = byCarrier.body.events.map((e: { status: string }) => e.status);
    for (const code of ['otep:core:picked_up', 'otep:core:received_at_facility', 'otep:core:departed_facility'])
      assert.ok(statusCodes.includes(code), JSON.stringify(statusCodes));

    const ours = await app.http.get(`/v1/otep/trackings/${trackingNumber}`);
    assert.equal(ours.status, 200);
    const carrierIds = ours.body.events
      .filter((e: { source: string }) => e.source === 'carrier')
      .map((e: { id: string }) => e.id);
    assert.deepEqual(
      carrierIds,
      [1, 2, 3, 4, 5, 6].map((step) => `sbx-${carrierNumber}-${step}`),
    );

    const epcis = await app.http.get(`/v1/otep/trackings/${carrierNumber}?format=epcis`);
    assert.equal(epcis.status, 200, JSON.stringify(epcis.body));
    const eventList = epcis.body.epcisBody.eventList as { epcList?: string[] }[];
    assert.ok(eventList.length >= 6, JSON.stringify(eventList));
    assert.ok(JSON.stringify(eventList).includes(carrierNumber));
    // A number nobody has stays unknown.
    assert.equal((await app.http.get('/v1/tracking/SWF00000000000')).status, 404);
    await replayAndMaybeRecord(app, handle.workflowId, 'label-tracking-delivered.json');
  });

  test('SBX-DELIVERY-FAILS ends the journey with a failed delivery: the order ends 4', async () => {
    const { orderId } = await buy('SBX-DELIVERY-FAILS-1');
    await handOver(app, w, orderId);
    assert.equal(await processOf(orderId).result(), 'journey_ended');
    assert.equal(await statusOf(orderId), 4);
    const statuses = await statusesOf(orderId);
    assert.ok(statuses.includes(33) && statuses.includes(43) && !statuses.includes(3), JSON.stringify(statuses));
  });

  test("a hand-over whose signal was lost is read from the label's state: the journey still happens", async () => {
    const { orderId } = await buy('TRK-LOST-SIGNAL');
    await waitFor(async () => (await journeyState(orderId)) === 'waiting_hand_over');
    // Submitted as submitShippingInformation writes it, but no signal reaches the process (Temporal was unreachable).
    await app
      .em()
      .execute("update label_order set state = 'submitted', submitted_at = now() where order_id = ?", [orderId]);
    assert.equal(await processOf(orderId).result(), 'journey_ended');
    assert.equal(await statusOf(orderId), 3);
  });

  test("a voided label's process ends", async () => {
    const { orderId } = await buy('TRK-VOID');
    const handle = processOf(orderId);
    await waitFor(async () => (await journeyState(orderId)) === 'waiting_hand_over');
    const res = await app.http.post('/v1/labelservice/cancelShippingLabel', { order_id: orderId }, { token: w.admin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(await handle.result(), 'voided');
    assert.equal(await statusOf(orderId), 5);
  });

  test('the sweep finishes a purchase left pending, once, and starts its tracking', async () => {
    // A purchase that timed out (nothing bought), then put back to pending as a process killed mid-way leaves it.
    const rated = await app.http.post('/v1/labelservice/rate', rateBody('SBX-TIMEOUT-SWEEP'), { token: w.admin });
    const rate = rated.body.rates.find((r: { service: string }) => r.service === 'swift_express');
    const res = await app.http.post('/v1/labelservice/submitOrder', { rate_id: rate.rate_id }, { token: w.admin });
    assert.equal(res.status, 424, JSON.stringify(res.body));
    const orderId: number = res.body.order_id;
    assert.equal(await statusOf(orderId), 60);
    await app.em().execute(
      `update label_order set state = 'pending', pending_since = now() - interval '3 minutes',
         shipment = jsonb_set(shipment, '{reference}', '"SWEEP-1"') where order_id = ?`,
      [orderId],
    );
    const sweep = async (n: number) => {
      const workflowId = `label-sweep-test-${orderId}-${n}`;
      await app.running.temporal.workflow.execute(LABEL_PURCHASE_SWEEP_WORKFLOW, {
        workflowId,
        taskQueue: LABEL_QUEUE,
        args: [],
      });
      return workflowId;
    };
    const [first] = await Promise.all([sweep(1), sweep(2)]);
    await sweep(3);
    const [label] = await app
      .em()
      .execute<{ state: string; tracking_started_at: Date | null; carrier_tracking_numbers: string[] }[]>(
        'select state, tracking_started_at, carrier_tracking_numbers from label_order where order_id = ?',
        [orderId],
      );
    assert.equal(label!.state, 'purchased');
    assert.ok(label!.tracking_started_at);
    assert.equal(label!.carrier_tracking_numbers.length, 1);
    const shipments = await app
      .em()
      .execute<{ state: string }[]>('select state from sandbox_shipment where idempotency_key = ? and account_id = ?', [
        `lo-${orderId}.1`,
        w.accounts[0]!.id,
      ]);
    assert.deepEqual(
      shipments.map((s) => s.state),
      ['created'],
    );
    assert.equal(await statusOf(orderId), 1);
    assert.equal((await statusesOf(orderId)).filter((s) => s === 1).length, 2, 'back to 1 once');
    await waitFor(async () => (await journeyState(orderId)) === 'waiting_hand_over');
    await replayAndMaybeRecord(app, first, 'label-purchase-sweep.json');
  });

  test('the prune deletes the rates unused and expired for over a day, and only those', async () => {
    const rated = await app.http.post('/v1/labelservice/rate', rateBody('PRUNE-1'), { token: w.admin });
    const [old, fresh] = rated.body.rates.map((r: { rate_id: string }) => r.rate_id);
    await app.em().execute("update label_rate set expires_at = now() - interval '25 hours' where id = ?", [old]);
    const workflowId = `label-rate-prune-test-${Date.now()}`;
    const pruned = await app.running.temporal.workflow.execute(LABEL_RATE_PRUNE_WORKFLOW, {
      workflowId,
      taskQueue: LABEL_QUEUE,
      args: [],
    });
    assert.ok(pruned >= 1);
    const left = await app.em().execute<{ id: string }[]>('select id from label_rate where id in (?, ?)', [old, fresh]);
    assert.deepEqual(
      left.map((r) => r.id),
      [fresh],
    );
    await replayAndMaybeRecord(app, workflowId, 'label-rate-prune.json');
  });

  test('a label never handed over ends its process after 30 compressed days; handed over later, it is followed', async () => {
    assert.equal(await processOf(unused).result(), 'not_handed_over');
    await replayAndMaybeRecord(app, labelTrackingWorkflowId(unused), 'label-tracking-not-handed-over.json');
    // The evening's end of day takes a label bought in the morning: its process starts again with the hand-over.
    await handOver(app, w, unused);
    assert.equal(await processOf(unused).result(), 'journey_ended');
    assert.equal(await statusOf(unused), 3);
  });
});
