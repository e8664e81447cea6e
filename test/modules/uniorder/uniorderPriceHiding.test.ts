/**
 * Price hiding on uniorder's order answers and job reads (docs/uniorder.md: the order view's `price_hidden`; "The job
 * read": prices hidden by the reader's account at read time). A customer account whose business hides the label
 * service family from it gets its label orders from create, read, batch and purchase-label, and its jobs' items,
 * without a price field at any depth and with `price_hidden: true`, rate ids and service names kept; staff reading
 * the same orders and jobs see the prices. The business has no local price model, so every rate is a label rate and
 * no price may show anywhere in these answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { uniorderJobWorkflowId } from '../../../src/modules/uniorder/contract.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { labelWorld, priceFieldsIn, RECIPIENT, SHIPPER, type LabelWorld } from '../labels/world.ts';

const rateBody = (reference: string) => ({
  type: 'D',
  shipper: SHIPPER,
  recipient: RECIPIENT,
  parcels: [{ weight_grams: 1200, length_mm: 300, width_mm: 200, height_mm: 100 }],
  reference,
  quote_labels: true,
});

describe('uniorder: prices hidden from a customer account', () => {
  let app: TestApp;
  let w: LabelWorld;

  before(async () => {
    app = await startApp({ SANDBOX_TRACKING_DAY_SECONDS: '1' });
    w = await labelWorld(app);
    await hideLabels(true);
  });
  after(() => app.running.close());

  async function hideLabels(hidden: boolean) {
    const res = await app.http.put(
      `/v1/client/customers/${w.users.customer.id}/hidden-price-families`,
      { families: hidden ? ['label_service'] : [] },
      { token: w.admin },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  /** The customer's label rates of a shipment, hidden: each with its rate_id and service name. */
  async function customerRates(reference: string) {
    const res = await app.http.post('/v1/uniorder/rate', rateBody(reference), { token: w.customer });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(priceFieldsIn(res.body), []);
    assert.equal(res.body.price_hidden, true);
    return res.body.rates as any[];
  }
  const swiftOf = (rates: any[]) => rates.find((r) => r.carrier === 'sandbox_swift' && r.service === 'swift_express');
  /** A label order view as the customer gets it: no price anywhere, price_hidden, the rate and service kept. */
  function assertHiddenView(view: any, rate: any, what: string) {
    assert.deepEqual(priceFieldsIn(view), [], what);
    assert.equal(view.price_hidden, true, what);
    assert.equal(view.kind, 'label', what);
    assert.equal(view.rate_id, rate.rate_id, what);
    assert.deepEqual(
      [view.label.carrier, view.label.service, view.label.service_name, view.label.carrier_name],
      [rate.carrier, rate.service, rate.service_name, rate.carrier_name],
      what,
    );
  }
  const jobDone = (jobId: string) =>
    app.running.temporal.workflow.getHandle(uniorderJobWorkflowId(jobId)).result() as Promise<{
      total: number;
      succeeded: number;
      failed: number;
    }>;

  test('create, read, replay and purchase-label answer the order view without any price; staff see it', async () => {
    const rates = await customerRates('UPH-1');
    assert.ok(rates.length > 0 && rates.every((r) => r.kind === 'label' && r.price_hidden === true && r.rate_id));
    const swift = swiftOf(rates);
    assert.equal(swift.service_name, 'Express');

    const created = await app.http.post(
      '/v1/uniorder',
      { rate_id: swift.rate_id, idempotency_key: 'uph-1' },
      { token: w.customer },
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assertHiddenView(created.body, swift, 'create');
    assert.equal(created.body.label.state, 'purchased');
    const orderId = created.body.order_id;

    const read = await app.http.get(`/v1/uniorder/${orderId}`, { token: w.customer });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assertHiddenView(read.body, swift, 'read');
    assert.deepEqual(read.body, created.body);
    const replay = await app.http.post(
      '/v1/uniorder',
      { rate_id: swift.rate_id, idempotency_key: 'uph-1' },
      { token: w.customer },
    );
    assert.equal(replay.status, 201, JSON.stringify(replay.body));
    assertHiddenView(replay.body, swift, 'replay');

    // The order has its price: its staff read it (what the customer's answers leave out is really there).
    const staff = await app.http.get(`/v1/uniorder/${orderId}`, { token: w.employee });
    assert.equal(staff.status, 200, JSON.stringify(staff.body));
    assert.equal(staff.body.price_hidden, undefined);
    assert.equal(staff.body.currency, 'EUR');
    assert.ok(Number(staff.body.shipping_price) > 0, JSON.stringify(staff.body));
    assert.ok(staff.body.price_details.length > 0);
    assert.ok(priceFieldsIn(staff.body).includes('shipping_price'));

    // Refused once, then bought again by the customer: neither answer shows a price.
    const once = swiftOf(await customerRates(`SBX-REFUSE-ONCE-UPH-${Date.now()}`));
    const refused = await app.http.post('/v1/uniorder', { rate_id: once.rate_id }, { token: w.customer });
    assert.equal(refused.status, 424, JSON.stringify(refused.body));
    assert.deepEqual(priceFieldsIn(refused.body), []);
    const failed = await app.http.get(`/v1/uniorder/${refused.body.order_id}`, { token: w.customer });
    assertHiddenView(failed.body, once, 'failed order');
    assert.equal(failed.body.label.state, 'failed');
    const bought = await app.http.post(
      `/v1/uniorder/${refused.body.order_id}/purchase-label`,
      {},
      { token: w.customer },
    );
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    assertHiddenView(bought.body, once, 'purchase-label');
    assert.equal(bought.body.label.state, 'purchased');
  });

  test('a batch of creations answers each order view without any price', async () => {
    const [a, b] = [swiftOf(await customerRates('UPH-B-0')), swiftOf(await customerRates('UPH-B-1'))];
    const res = await app.http.post(
      '/v1/uniorder/batch',
      { items: [{ rate_id: a.rate_id }, { rate_id: b.rate_id }] },
      { token: w.customer },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.succeeded, res.body.failed], [2, 0], JSON.stringify(res.body));
    assert.deepEqual(priceFieldsIn(res.body), []);
    assertHiddenView(res.body.results[0].order, a, 'batch item 0');
    assertHiddenView(res.body.results[1].order, b, 'batch item 1');
  });

  test("a create job's read: each item's order view without any price for the customer; staff see the prices", async () => {
    const rates = [swiftOf(await customerRates('UPH-J-0')), swiftOf(await customerRates('UPH-J-1'))];
    const refusedRate = swiftOf(await customerRates(`SBX-REFUSE-UPH-J-${Date.now()}`));
    const res = await app.http.post(
      '/v1/uniorder/batch-async',
      { items: [...rates, refusedRate].map((r) => ({ rate_id: r.rate_id })) },
      { token: w.customer },
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.deepEqual(await jobDone(res.body.job_id), { total: 3, succeeded: 2, failed: 1 });

    const read = await app.http.get(`/v1/uniorder/jobs/${res.body.job_id}`, { token: w.customer });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.deepEqual(priceFieldsIn(read.body), []);
    const [first, second, refused] = read.body.items;
    assertHiddenView(first.result, rates[0], 'job item 0');
    assertHiddenView(second.result, rates[1], 'job item 1');
    assert.equal(refused.status, 'failed');
    assert.equal(refused.result.code, 'LABEL_PURCHASE_FAILED');
    assert.equal(typeof refused.result.order_id, 'number');

    const staff = await app.http.get(`/v1/uniorder/jobs/${res.body.job_id}`, { token: w.admin });
    assert.equal(staff.status, 200, JSON.stringify(staff.body));
    for (const item of staff.body.items.slice(0, 2)) {
      assert.equal(item.result.price_hidden, undefined);
      assert.ok(Number(item.result.shipping_price) > 0, JSON.stringify(item.result));
    }
  });

  test('a rate job stored with prices is read without them once label prices are hidden: rate ids and names kept', async () => {
    await hideLabels(false);
    let jobId: string;
    try {
      const res = await app.http.post(
        '/v1/uniorder/rate/batch-async',
        { items: [rateBody('UPH-R-0'), rateBody('UPH-R-1')] },
        { token: w.customer },
      );
      assert.equal(res.status, 202, JSON.stringify(res.body));
      jobId = res.body.job_id;
      assert.deepEqual(await jobDone(jobId), { total: 2, succeeded: 2, failed: 0 });
      const shown = await app.http.get(`/v1/uniorder/jobs/${jobId}`, { token: w.customer });
      assert.equal(shown.status, 200, JSON.stringify(shown.body));
      assert.ok(shown.body.items.every((i: any) => i.result.rates.every((r: any) => r.total_charge)));
    } finally {
      await hideLabels(true);
    }
    // What the job stored has the prices its creator saw then.
    const stored = await app
      .em()
      .execute<{ result: unknown }[]>('select result from uniorder_job_item where job_id = ? order by item_index', [
        jobId,
      ]);
    assert.ok(priceFieldsIn(stored).length > 0);

    const read = await app.http.get(`/v1/uniorder/jobs/${jobId}`, { token: w.customer });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.deepEqual(priceFieldsIn(read.body), []);
    const storedRates = stored.map((s) => (s.result as { rates: any[] }).rates);
    read.body.items.forEach((item: any, i: number) => {
      assert.equal(item.status, 'done');
      assert.equal(item.result.price_hidden, true);
      assert.equal(item.result.rates.length, 4);
      assert.deepEqual(
        item.result.rates.map((r: any) => [r.rate_id, r.carrier, r.service, r.service_name, r.price_hidden]),
        storedRates[i]!.map((r) => [r.rate_id, r.carrier, r.service, r.service_name, true]),
      );
      for (const r of item.result.rates) assert.ok(r.transit_days > 0 && r.estimated_delivery, JSON.stringify(r));
    });
  });
});
