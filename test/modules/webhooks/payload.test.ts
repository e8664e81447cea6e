import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { eventDefinition } from '../../helpers/events.ts';
import { verifyWebhook } from '../../../src/modules/webhooks/verify.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';

const SECRET = 'shape-secret-0123456789abcdef';

describe('the payload transform on the delivery path', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    app = await startApp({ WEBHOOK_RETRY_SCALE: '0.001' });
    receiver = await startReceiver(() => 200);
  });
  after(async () => {
    await receiver.close();
    await app.running.close();
  });

  test('a customer account with hidden prices gets a carrier-held status change masked; the merchant gets it as written', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const customerId = b.users.customer.id;
    await app.em().execute("update app_user set hidden_price_families = '{local_delivery}' where id = ?", [customerId]);
    await app.http.put(
      '/v1/webhook-settings',
      { webhook_sign_secret: SECRET, order_status_change_webhook_url: `${receiver.url}/merchant` },
      { token: admin },
    );
    await app.http.put(
      '/v1/webhook-settings',
      {
        customer_id: customerId,
        webhook_sign_secret: SECRET,
        order_status_change_webhook_url: `${receiver.url}/customer`,
      },
      { token: admin },
    );

    // A producer of a later issue writes its event like this: payload, family and carrier in one outbox row.
    const eventId = `OSC-${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const payload = {
      event_id: eventId,
      event: 'order.status_change',
      business_id: b.business.id,
      occurred_at: new Date().toISOString(),
      data: {
        order: {
          id: 7,
          order_ref: 'R-7',
          tracking_number: 'TMSX7',
          type: 'D',
          status_id: 43,
          status: 'CARRIER_ON_THE_WAY',
        },
        before_status: 33,
        after_status: 43,
        operation_type: 6008,
        operation_description: 'Scanned at carrier hub Leipzig',
        ip_address: '10.1.2.3',
        shipping_price: 12.5,
        currency: 'EUR',
        price_details: { base: 10, third_party_cost_plus: 2.5 },
      },
    };
    await app.em().execute(
      `insert into outbox_event (business_id, customer_id, event_id, event_type, reference_type, reference_id, payload, family, carrier_held)
       values (?, ?, ?, 'order.status_change', 'order', '7', ?::jsonb, 'local_delivery', true)`,
      [b.business.id, customerId, eventId, JSON.stringify(payload)],
    );

    const got = await waitFor(async () => {
      const mine = receiver.received.filter((r) => r.body.includes(eventId));
      return mine.length === 2 && mine;
    });
    for (const r of got)
      assert.deepEqual(
        verifyWebhook({ sender: 'tenant', headers: r.headers, rawBody: r.body, secret: SECRET }),
        { valid: true },
        'each shape is signed as sent',
      );
    const merchant = got.find(
      (r) => r.headers['x-webhook-event-id'] && JSON.parse(r.body).data.shipping_price !== undefined,
    )!;
    assert.deepEqual(JSON.parse(merchant.body), payload, 'the merchant gets the event exactly as written');
    const customer = JSON.parse(got.find((r) => r !== merchant)!.body);
    assert.deepEqual(customer.data, {
      order: { id: 7, order_ref: 'R-7', tracking_number: 'TMSX7', type: 'D', status_id: 2, status: 'ON_THE_WAY' },
      before_status: 29,
      after_status: 2,
      operation_type: 6002,
      operation_description: '',
      ip_address: '',
      price_hidden: true,
    });
    assert.equal(customer.event_id, eventId);
    const schema = new Ajv({ strict: false }).compile(eventDefinition('order.status_change')!.payload);
    assert.ok(schema(customer), `the masked payload still matches the catalog: ${JSON.stringify(schema.errors)}`);
  });
});
