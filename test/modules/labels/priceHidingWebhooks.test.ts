/**
 * Price hiding in the webhooks of label orders, delivered to real receivers (docs/labels.md, "Price hiding" and
 * "Webhooks"; docs/webhooks.md, "What a receiver is sent"): a customer account its business hides label_service from
 * has an override receiving order.created, order.status_change and tracking.event. Its label order, refused once,
 * bought again, handed over and followed by its tracking process to delivery (a compressed day of 0.25 s), reaches
 * that override with no price field at any depth and `price_hidden: true` on every event, tracking events included;
 * the merchant's receiver gets the same events with the price.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { labelTrackingWorkflowId } from '../../../src/modules/labels/contract.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';
import { handOver, JOURNEY_KEYS, labelWorld, priceFieldsIn, rateBody, type LabelWorld } from './world.ts';

const SECRET = 'label-price-hiding-secret-0123456789';
const URL_FIELDS = ['order_create_webhook_url', 'order_status_change_webhook_url', 'tracking_event_webhook_url'];

describe('labels: price hiding in delivered webhooks', () => {
  let app: TestApp;
  let w: LabelWorld;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    app = await startApp({ SANDBOX_TRACKING_DAY_SECONDS: '0.25' });
    w = await labelWorld(app);
    receiver = await startReceiver();
    const hide = await app.http.put(
      `/v1/client/customers/${w.users.customer.id}/hidden-price-families`,
      { families: ['label_service'] },
      { token: w.admin },
    );
    assert.equal(hide.status, 200, JSON.stringify(hide.body));
    for (const [who, extra] of [
      ['merchant', {}],
      ['customer', { customer_id: w.users.customer.id }],
    ] as const) {
      const urls = Object.fromEntries(URL_FIELDS.map((f) => [f, `${receiver.url}/${who}`]));
      const put = await app.http.put(
        '/v1/webhook-settings',
        { webhook_sign_secret: SECRET, ...urls, ...extra },
        { token: w.admin },
      );
      assert.equal(put.status, 200, JSON.stringify(put.body));
    }
  });
  after(async () => {
    await app.running.close();
    await receiver.close();
  });

  /** The payloads one receiver got about an order, of one event type: one per event (a retry's copy left out). */
  const delivered = (who: 'merchant' | 'customer', orderId: number, event: string) => {
    const byId = new Map<string, any>();
    for (const r of receiver.received.filter((x) => x.url === `/${who}`)) {
      const p = JSON.parse(r.body);
      if (p.event === event && p.data?.order?.id === orderId && !byId.has(p.event_id)) byId.set(p.event_id, p);
    }
    return [...byId.values()];
  };

  test("a hidden label order's every webhook, tracking events included, reaches the customer without a price", async () => {
    const rated = await app.http.post('/v1/labelservice/rate', rateBody(`SBX-REFUSE-ONCE-WH-${Date.now()}`), {
      token: w.customer,
    });
    assert.equal(rated.status, 200, JSON.stringify(rated.body));
    const rate = rated.body.rates.find((r: any) => r.service === 'swift_express');
    const refused = await app.http.post(
      '/v1/labelservice/submitOrder',
      { rate_id: rate.rate_id },
      { token: w.customer },
    );
    assert.equal(refused.status, 424, JSON.stringify(refused.body));
    const orderId: number = refused.body.order_id;
    const bought = await app.http.post(`/v1/uniorder/${orderId}/purchase-label`, {}, { token: w.customer });
    assert.equal(bought.status, 200, JSON.stringify(bought.body));

    // Handed over: the label's tracking process polls the sandbox carrier to the end of its journey.
    await handOver(app, w, orderId);
    const outcome = await app.running.temporal.workflow.getHandle(labelTrackingWorkflowId(orderId)).result();
    assert.equal(outcome, 'journey_ended');

    // Six carrier events (picked up to delivered), each one tracking.event, to both receivers.
    const [customerTracking, merchantTracking] = await waitFor(async () => {
      const c = delivered('customer', orderId, 'tracking.event');
      const m = delivered('merchant', orderId, 'tracking.event');
      return c.length >= 6 && m.length >= 6 && ([c, m] as const);
    }, 30_000);
    assert.equal(customerTracking.length, 6);
    assert.deepEqual(
      merchantTracking.map((p) => p.data.tracking_event.id).sort((x, y) => x - y),
      customerTracking.map((p) => p.data.tracking_event.id).sort((x, y) => x - y),
      'the same six events',
    );
    assert.deepEqual(
      merchantTracking
        .sort((x, y) => x.data.tracking_event.id - y.data.tracking_event.id)
        .map((p) => p.data.tracking_event.key),
      JOURNEY_KEYS,
    );

    // Every status change: to 60 (refused), back to 1, then the carrier's moves to delivered (3).
    const [customerCreated, customerChanges] = await waitFor(async () => {
      const created = delivered('customer', orderId, 'order.created');
      const changes = delivered('customer', orderId, 'order.status_change');
      return created.length === 1 && changes.some((p) => p.data.after_status === 3) && ([created, changes] as const);
    }, 30_000);
    const afters = customerChanges.map((p) => p.data.after_status);
    for (const status of [60, 1, 3]) assert.ok(afters.includes(status), JSON.stringify(afters));
    const refusal = customerChanges.find((p) => p.data.after_status === 60);
    assert.equal(refusal.data.operation_type, 6011);
    assert.match(refusal.data.operation_description, /ADDRESS_UNSERVICEABLE/);

    for (const payload of [...customerCreated, ...customerChanges, ...customerTracking]) {
      const what = `${payload.event} ${payload.event_id}`;
      assert.deepEqual(priceFieldsIn(payload), [], what);
      assert.equal(payload.data.price_hidden, true, what);
    }
    // The customer's tracking events still name its parcel; nothing but the price is left out.
    assert.ok(customerTracking.every((p) => p.data.tracking_event.package_number === bought.body.tracking_number));

    // The merchant's receiver gets the same order with its price.
    const staff = await app.http.post('/v1/labelservice/getShippingDetail', { order_id: orderId }, { token: w.admin });
    assert.equal(staff.status, 200, JSON.stringify(staff.body));
    const [merchantCreated] = delivered('merchant', orderId, 'order.created');
    assert.ok(Number(merchantCreated.data.shipping_price) > 0, JSON.stringify(merchantCreated.data));
    assert.equal(Number(merchantCreated.data.shipping_price), Number(staff.body.shipping_price));
    assert.equal(merchantCreated.data.price_hidden, undefined);
    assert.ok(merchantTracking.every((p) => p.data.price_hidden === undefined));
  });
});
