/**
 * Handing labels to the carriers (docs/labels.md, "submitShippingInformation", "endofday", "Schedule"): submitting
 * with a result per order and no second carrier call, the end of day's manifest per carrier account (a PDF listing
 * the parcels, its barcode decoding to the carrier's manifest id), labels manifested and no longer voidable, a
 * carrier that fails keeping its labels open, two racing ends of day putting no label on two manifests, and the
 * schedule as a Temporal schedule whose run manifests what is open (its history replays).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { ScheduleNotFoundError } from '@temporalio/client';
import { journeyQuery, labelEndOfDayId, labelTrackingWorkflowId } from '../../../src/modules/labels/contract.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { replayAndMaybeRecord } from '../../helpers/histories.ts';
import { makeOrder } from '../../helpers/factories.ts';
import { waitFor } from '../../helpers/wait.ts';
import { labelWorld, rateBody, type LabelWorld } from './world.ts';

const exec = promisify(execFile);

describe('labels: submit, end of day and its schedule', () => {
  let app: TestApp;
  let w: LabelWorld;
  let other: LabelWorld;
  let dir = '';

  before(async () => {
    app = await startApp({ SANDBOX_TRACKING_DAY_SECONDS: '1' });
    w = await labelWorld(app);
    other = await labelWorld(app);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tms-handover-'));
  });
  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
    await app.running.close();
  });

  /** Buys a label of `carrier` for the shipment of `reference` as the world's admin; answers the purchase. */
  async function buy(world: LabelWorld, carrier: 'sandbox_swift' | 'sandbox_parcel', reference: string) {
    const rated = await app.http.post('/v1/labelservice/rate', rateBody(reference, { carriers: [carrier] }), {
      token: world.admin,
    });
    assert.equal(rated.status, 200, JSON.stringify(rated.body));
    const res = await app.http.post(
      '/v1/labelservice/submitOrder',
      { rate_id: rated.body.rates[0].rate_id },
      { token: world.admin },
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { order_id: number; tracking_number: string; label: { carrier_tracking_numbers: string[] } };
  }
  const submit = (world: LabelWorld, body: object) =>
    app.http.post('/v1/labelservice/submitShippingInformation', body, { token: world.admin });
  const endOfDay = (world: LabelWorld, body: object = {}, token = world.admin) =>
    app.http.post('/v1/labelservice/endofday', body, { token });
  const labelOf = async (world: LabelWorld, orderId: number) => {
    const res = await app.http.post(
      '/v1/labelservice/getShippingDetail',
      { order_id: orderId },
      { token: world.admin },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.label;
  };
  /** Sets the API key of the world's account of `carrier`: `sbx_bad_key` fails every call of it (AUTH_FAILED). */
  async function setKey(world: LabelWorld, carrier: string, apiKey: string) {
    const account = world.accounts.find((a) => a.carrier === carrier)!;
    const res = await app.http.put(
      `/v1/labelservice/carrier-accounts/${account.id}`,
      { credentials: { api_key: apiKey } },
      { token: world.admin },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  let a: Awaited<ReturnType<typeof buy>>;
  let b: Awaited<ReturnType<typeof buy>>;

  test('submitting two labels answers per order; a second submit calls no carrier', async () => {
    a = await buy(w, 'sandbox_swift', 'HO-A');
    b = await buy(w, 'sandbox_swift', 'HO-B');
    const res = await submit(w, { order_ids: [b.order_id, a.order_id] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.results, [
      { order_id: b.order_id, result: true, state: 'submitted' },
      { order_id: a.order_id, result: true, state: 'submitted' },
    ]);
    const label = await labelOf(w, a.order_id);
    assert.equal(label.state, 'submitted');
    assert.ok(label.submitted_at);
    // The tracking process heard of the hand-over.
    const journey = app.running.temporal.workflow.getHandle(labelTrackingWorkflowId(a.order_id));
    await waitFor(async () => (await journey.query(journeyQuery).catch(() => null))?.handedOverAt);

    // With the account's key refused, any carrier call fails: submitting again still answers true.
    await setKey(w, 'sandbox_swift', 'sbx_bad_key');
    try {
      const again = await submit(w, { tracking_numbers: [a.label.carrier_tracking_numbers[0], b.tracking_number] });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.deepEqual(again.body.results, [
        { order_id: a.order_id, result: true, state: 'submitted' },
        { order_id: b.order_id, result: true, state: 'submitted' },
      ]);
      // A purchased label of that account now meets the carrier's refusal, and stays purchased.
      const c = await buyWithKey(w, 'HO-C');
      const refused = await submit(w, { order_ids: [c] });
      assert.equal(refused.body.results[0].result, false, JSON.stringify(refused.body));
      assert.equal(refused.body.results[0].code, 'CARRIER_ERROR');
      assert.equal(refused.body.results[0].carrier_error.code, 'AUTH_FAILED');
      assert.match(refused.body.results[0].message, /AUTH_FAILED/);
      assert.equal((await labelOf(w, c)).state, 'purchased');
    } finally {
      await setKey(w, 'sandbox_swift', `sbx_${w.tag}`);
    }
  });

  /** Buys a Swift label while the account's key is refused: the key is set back for the purchase only. */
  async function buyWithKey(world: LabelWorld, reference: string): Promise<number> {
    await setKey(world, 'sandbox_swift', `sbx_${world.tag}`);
    const bought = await buy(world, 'sandbox_swift', reference);
    await setKey(world, 'sandbox_swift', 'sbx_bad_key');
    return bought.order_id;
  }

  test('a submit names each order once, of the business; a local order or a voided label is answered so', async () => {
    const local = await makeOrder(app.em(), w.business.id);
    const foreign = await makeOrder(app.em(), other.business.id);
    const unknown = await submit(w, { order_ids: [a.order_id, foreign.id, 2_000_000_000] });
    assert.equal(unknown.status, 422, JSON.stringify(unknown.body));
    assert.deepEqual(unknown.body.errors.map((e: { field: string }) => e.field).sort(), ['order_ids.1', 'order_ids.2']);
    const byNumber = await submit(w, { tracking_numbers: ['NO-SUCH-NUMBER'] });
    assert.equal(byNumber.status, 422);
    assert.equal(byNumber.body.errors[0].field, 'tracking_numbers.0');
    for (const body of [{}, { order_ids: [a.order_id], tracking_numbers: [a.tracking_number] }])
      assert.equal((await submit(w, body)).status, 422, JSON.stringify(body));
    assert.equal((await submit(w, { order_ids: [a.order_id, a.order_id] })).status, 422);
    assert.equal((await submit(w, { order_ids: [a.order_id] })).status, 200);

    const voided = await buy(w, 'sandbox_parcel', 'HO-VOID');
    const cancel = await app.http.post(
      '/v1/labelservice/cancelShippingLabel',
      { order_id: voided.order_id },
      { token: w.admin },
    );
    assert.equal(cancel.status, 200, JSON.stringify(cancel.body));
    const res = await submit(w, { order_ids: [local.id, voided.order_id] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.results.map((r: { order_id: number; code: string }) => [r.order_id, r.code]),
      [
        [local.id, 'NOT_A_LABEL_ORDER'],
        [voided.order_id, 'LABEL_VOIDED'],
      ],
    );
    assert.ok(res.body.results.every((r: { message: string }) => r.message.length > 0));
    const customer = await app.http.post(
      '/v1/labelservice/submitShippingInformation',
      { order_ids: [a.order_id] },
      { token: w.customer },
    );
    assert.equal(customer.status, 403);
  });

  let swiftManifest: any;

  test('the end of day puts the open labels on one manifest per carrier account, as a PDF', async () => {
    const parcel = await buy(w, 'sandbox_parcel', 'HO-P');
    const res = await endOfDay(w);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.carrier_errors, []);
    const byCarrier = Object.fromEntries(res.body.manifests.map((m: any) => [m.carrier, m]));
    assert.deepEqual(Object.keys(byCarrier).sort(), ['sandbox_parcel', 'sandbox_swift']);
    swiftManifest = byCarrier.sandbox_swift;
    // Swift: the two submitted labels and the one the carrier refused to submit (still open).
    assert.ok([a.order_id, b.order_id].every((id) => swiftManifest.order_ids.includes(id)));
    assert.equal(swiftManifest.order_ids.length, 3);
    assert.deepEqual(byCarrier.sandbox_parcel.order_ids, [parcel.order_id]);
    assert.equal(swiftManifest.media_type, 'application/pdf');
    assert.equal(swiftManifest.carrier_account_id, w.accounts[0]!.id);
    assert.match(swiftManifest.carrier_manifest_id, /^SWFM-\d{8}-\d+$/);

    const pdf = path.join(dir, 'manifest.pdf');
    await fs.writeFile(pdf, Buffer.from(swiftManifest.document_base64, 'base64'));
    assert.match((await exec('pdfinfo', [pdf])).stdout, /^Pages:\s+1$/m);
    const text = (await exec('pdftotext', ['-layout', pdf, '-'])).stdout;
    for (const n of [...a.label.carrier_tracking_numbers, ...b.label.carrier_tracking_numbers])
      assert.ok(text.includes(n), `${n} is not on the manifest`);
    assert.ok(text.includes(w.business.name));
    await exec('pdftoppm', ['-r', '203', '-png', pdf, path.join(dir, 'manifest')]);
    const png = (await fs.readdir(dir)).find((f) => f.startsWith('manifest') && f.endsWith('.png'))!;
    const decoded = await exec('zbarimg', ['--raw', '-q', path.join(dir, png)]);
    assert.equal(decoded.stdout.trim(), swiftManifest.carrier_manifest_id);

    for (const id of [a.order_id, parcel.order_id]) {
      const label = await labelOf(w, id);
      assert.equal(label.state, 'manifested');
      assert.equal(
        label.manifest_id,
        id === a.order_id ? swiftManifest.manifest_id : byCarrier.sandbox_parcel.manifest_id,
      );
    }
    // The parcel's label was not submitted: its tracking starts with the manifest.
    const journey = app.running.temporal.workflow.getHandle(labelTrackingWorkflowId(parcel.order_id));
    await waitFor(async () => (await journey.query(journeyQuery).catch(() => null))?.handedOverAt);
  });

  test('a manifested label is handed over: not voidable, submitted again as it is; nothing open gives no manifest', async () => {
    const voided = await app.http.post(
      '/v1/labelservice/cancelShippingLabel',
      { order_id: a.order_id },
      { token: w.admin },
    );
    assert.equal(voided.status, 409, JSON.stringify(voided.body));
    assert.equal(voided.body.code, 'LABEL_NOT_VOIDABLE');
    const again = await submit(w, { order_ids: [a.order_id] });
    assert.deepEqual(again.body.results, [{ order_id: a.order_id, result: true, state: 'manifested' }]);
    const none = await endOfDay(w, {}, w.employee);
    assert.equal(none.status, 200, JSON.stringify(none.body));
    assert.deepEqual(none.body, { result: true, manifests: [], carrier_errors: [] });
  });

  test('a manifest is read again with its document by its business only', async () => {
    const res = await app.http.get(`/v1/labelservice/manifests/${swiftManifest.manifest_id}`, { token: w.employee });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.manifest, swiftManifest);
    const gql = await app.http.graphql(
      `query { labelManifest(id: ${swiftManifest.manifest_id}) { manifest { carrier_manifest_id order_ids } } }`,
      {},
      { token: w.admin },
    );
    assert.deepEqual(gql.body.data?.labelManifest?.manifest, {
      carrier_manifest_id: swiftManifest.carrier_manifest_id,
      order_ids: swiftManifest.order_ids,
    });
    const foreign = await app.http.get(`/v1/labelservice/manifests/${swiftManifest.manifest_id}`, {
      token: other.admin,
    });
    assert.equal(foreign.status, 404);
    assert.equal((await app.http.get('/v1/labelservice/manifests/2000000000', { token: w.admin })).status, 404);
  });

  test('a carrier that fails keeps its labels open, listed in carrier_errors; a carrier filter manifests only its own', async () => {
    const swift = await buy(other, 'sandbox_swift', 'HO-F1');
    const parcel = await buy(other, 'sandbox_parcel', 'HO-F2');
    await setKey(other, 'sandbox_parcel', 'sbx_bad_key');
    try {
      const res = await endOfDay(other);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.manifests.map((m: any) => [m.carrier, m.order_ids]),
        [['sandbox_swift', [swift.order_id]]],
      );
      assert.equal(res.body.carrier_errors.length, 1);
      assert.equal(res.body.carrier_errors[0].carrier, 'sandbox_parcel');
      assert.equal(res.body.carrier_errors[0].code, 'AUTH_FAILED');
      assert.deepEqual(res.body.carrier_errors[0].order_ids, [parcel.order_id]);
      assert.equal((await labelOf(other, parcel.order_id)).state, 'purchased');
    } finally {
      await setKey(other, 'sandbox_parcel', `sbx_${other.tag}`);
    }
    const swiftOnly = await buy(other, 'sandbox_swift', 'HO-F3');
    const filtered = await endOfDay(other, { carriers: ['sandbox_parcel'] });
    assert.deepEqual(
      filtered.body.manifests.map((m: any) => [m.carrier, m.order_ids]),
      [['sandbox_parcel', [parcel.order_id]]],
    );
    assert.equal((await labelOf(other, swiftOnly.order_id)).state, 'purchased');
    const past = await endOfDay(other, { ship_date: '2020-01-01' });
    assert.equal(past.status, 422);
    assert.equal(past.body.errors[0].field, 'ship_date');
  });

  test('two ends of day at once put no label on two manifests', async () => {
    const labels = [await buy(other, 'sandbox_swift', 'HO-R1'), await buy(other, 'sandbox_parcel', 'HO-R2')];
    const [one, two] = await Promise.all([endOfDay(other), endOfDay(other)]);
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.equal(two.status, 200, JSON.stringify(two.body));
    const manifests = [...one.body.manifests, ...two.body.manifests];
    const onManifests = manifests.flatMap((m: any) => m.order_ids).sort((x: number, y: number) => x - y);
    // The Swift label left open by the filtered run above goes too; each label once.
    assert.equal(new Set(onManifests).size, onManifests.length);
    for (const l of labels) assert.ok(onManifests.includes(l.order_id));
    assert.equal(manifests.length, 2);
    const rows = await app
      .em()
      .execute<{ n: number }[]>(
        'select count(*)::int as n from label_manifest where business_id = ? and ? = any(order_ids)',
        [other.business.id, labels[0]!.order_id],
      );
    assert.equal(rows[0]!.n, 1);
  });

  test('the schedule is a Temporal schedule at the time and weekdays in the business’s timezone; off removes it', async () => {
    await app.em().execute("update business set timezone = 'Europe/Paris' where id = ?", [w.business.id]);
    const url = '/v1/labelservice/endofday/schedule';
    const first = await app.http.get(url, { token: w.admin });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.enabled, false);
    assert.equal(first.body.next_run_at, null);
    assert.equal((await app.http.get(url, { token: w.employee })).status, 403);
    const incomplete = await app.http.put(url, { enabled: true }, { token: w.admin });
    assert.equal(incomplete.status, 422);
    assert.deepEqual(incomplete.body.errors.map((e: { field: string }) => e.field).sort(), ['time', 'weekdays']);
    assert.equal(
      (await app.http.put(url, { enabled: true, time: '24:00', weekdays: [1] }, { token: w.admin })).status,
      422,
    );
    assert.equal(
      (await app.http.put(url, { enabled: true, time: '18:30', weekdays: [1, 1] }, { token: w.admin })).status,
      422,
    );

    for (const round of [1, 2]) {
      const set = await app.http.put(url, { enabled: true, time: '18:30', weekdays: [5, 1, 3] }, { token: w.admin });
      assert.equal(set.status, 200, `round ${round}: ${JSON.stringify(set.body)}`);
      assert.deepEqual(
        { ...set.body, next_run_at: typeof set.body.next_run_at },
        {
          result: true,
          enabled: true,
          time: '18:30',
          weekdays: [1, 3, 5],
          timezone: 'Europe/Paris',
          schedule_id: labelEndOfDayId(w.business.id),
          next_run_at: 'string',
        },
      );
    }
    const handle = app.running.temporal.schedule.getHandle(labelEndOfDayId(w.business.id));
    const d = await handle.describe();
    assert.equal(d.spec.timezone, 'Europe/Paris');
    assert.equal(d.spec.calendars?.length, 1);
    const calendar = d.spec.calendars![0]!;
    assert.deepEqual(calendar.hour, [{ start: 18, end: 18, step: 1 }]);
    assert.deepEqual(calendar.minute, [{ start: 30, end: 30, step: 1 }]);
    assert.deepEqual(
      calendar.dayOfWeek.map((r) => r.start),
      ['MONDAY', 'WEDNESDAY', 'FRIDAY'],
    );
    assert.equal(d.policies.overlap, 'SKIP');
    assert.equal(d.policies.catchupWindow, 3_600_000);
    assert.equal(d.action.type, 'startWorkflow');
    assert.equal(d.action.workflowType, 'labelEndOfDay');
    assert.deepEqual(d.action.args, [{ businessId: w.business.id }]);
    // The next run is on a Monday, Wednesday or Friday at 18:30 in Paris.
    const next = new Date(d.info.nextActionTimes[0]!);
    const paris = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Paris',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
    }).format(next);
    assert.match(paris, /^(Mon|Wed|Fri) 18:30$/);

    const read = await app.http.get(url, { token: w.admin });
    assert.deepEqual(read.body.weekdays, [1, 3, 5]);
    assert.equal(read.body.enabled, true);

    const off = await app.http.put(url, { enabled: false }, { token: w.admin });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.deepEqual(
      [off.body.enabled, off.body.time, off.body.weekdays, off.body.next_run_at],
      [false, '18:30', [1, 3, 5], null],
    );
    await assert.rejects(handle.describe(), ScheduleNotFoundError);
    assert.equal((await app.http.put(url, { enabled: false }, { token: w.admin })).status, 200);
  });

  test('a run of the schedule manifests the open labels as the business; its history replays', async () => {
    const open = await buy(w, 'sandbox_parcel', 'HO-S');
    const url = '/v1/labelservice/endofday/schedule';
    const on = await app.http.put(url, { enabled: true }, { token: w.admin });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    const schedule = app.running.temporal.schedule.getHandle(labelEndOfDayId(w.business.id));
    await schedule.trigger();
    const action = await waitFor(async () => (await schedule.describe()).info.recentActions[0]?.action);
    const run = app.running.temporal.workflow.getHandle(
      action.workflow.workflowId,
      action.workflow.firstExecutionRunId,
    );
    const result = (await run.result()) as { manifestIds: number[]; failures: string[] };
    assert.equal(result.manifestIds.length, 1);
    assert.deepEqual(result.failures, []);
    const label = await labelOf(w, open.order_id);
    assert.equal(label.state, 'manifested');
    assert.equal(label.manifest_id, result.manifestIds[0]);
    const manifest = await app.http.get(`/v1/labelservice/manifests/${result.manifestIds[0]}`, { token: w.admin });
    assert.deepEqual(manifest.body.manifest.order_ids, [open.order_id]);
    await app.http.put(url, { enabled: false }, { token: w.admin });
    await replayAndMaybeRecord(
      app,
      action.workflow.workflowId,
      'label-end-of-day.json',
      action.workflow.firstExecutionRunId,
    );
  });
});
