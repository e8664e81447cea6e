import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';
import { makeBusiness, PASSWORD } from './factories.ts';
import { startReceiver, type Behaviour } from './receiver.ts';

/**
 * A new business whose `device_order.stored` webhooks go to a fresh receiver; `store()` creates one device order.
 * Only `stored`: the receiver then sees one event per order, so "every copy has the same ids" means something.
 */
export async function tenantWithReceiver(app: TestApp, behaviour: Behaviour, secret: string) {
  const b = await makeBusiness(app.em());
  const admin = await app.login(b.users.admin.email, PASSWORD);
  const receiver = await startReceiver(behaviour);
  const put = await app.http.put(
    '/v1/webhook-settings',
    { webhook_sign_secret: secret, device_order_webhook_url: receiver.url, device_order_events: 'device_order.stored' },
    { token: admin },
  );
  assert.equal(put.status, 200);
  return {
    receiver,
    businessId: b.business.id,
    /** A token of the business's admin. */
    admin,
    deviceCode: b.device.code,
    /** Stores a device order; answers its id and the id of the event it wrote to the outbox. */
    async store(): Promise<{ deviceOrderId: number; eventId: string }> {
      const res = await app.http.post(
        '/v1/device-orders',
        {
          kind: 'delivery',
          device_id: b.device.code,
          grid_code: 'A01',
          reference_number: `R-${b.tag}`,
          due_at: new Date(Date.now() + 3600_000).toISOString(),
        },
        { token: admin },
      );
      assert.equal(res.status, 201);
      const deviceOrderId: number = res.body.device_order.id;
      const [row] = await app
        .em()
        .execute<{ event_id: string }[]>(
          "select event_id from outbox_event where reference_type = 'device_order' and reference_id = ? and event_type = 'device_order.stored'",
          [String(deviceOrderId)],
        );
      return { deviceOrderId, eventId: row!.event_id };
    },
  };
}
