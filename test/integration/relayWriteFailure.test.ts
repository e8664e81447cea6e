// The relay writes a batch's deliveries after their first attempts. When that write fails, the events stay
// unpublished and are claimed again; this proves the relay then writes before sending, so a write that keeps
// failing cannot make it send the same events to their receivers on every claim. The failure is real: a
// trigger in PostgreSQL refuses this test's deliveries until the test drops it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifyWebhook } from '../../src/webhooks/verify.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { tenantWithReceiver } from '../helpers/webhookTenant.ts';
import { waitFor } from '../helpers/wait.ts';

const SECRET = 'write-failure-secret-0123';

describe('relay: a delivery write that keeps failing', () => {
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => {
    await app.em().execute('drop trigger if exists refuse_test_deliveries on webhook_delivery; drop function if exists refuse_test_deliveries(); drop sequence if exists refused_delivery_writes');
    await app.running.close();
  });

  test('sends each event once, then nothing until the write succeeds, then once more under the same key', { timeout: 90_000 }, async () => {
    const tenant = await tenantWithReceiver(app, () => 200, SECRET);
    try {
      // nextval is not undone by the rollback, so the sequence counts the refused writes.
      await app.em().execute(`
        create sequence refused_delivery_writes;
        create function refuse_test_deliveries() returns trigger language plpgsql as $$
        begin
          perform nextval('refused_delivery_writes');
          raise exception 'delivery writes refused by the test';
        end $$;
        create trigger refuse_test_deliveries before insert on webhook_delivery for each row
          when (new.business_id = ${tenant.businessId}) execute function refuse_test_deliveries()`);
      const refused = async () => Number((await app.em().execute<{ n: string }[]>('select last_value as n from refused_delivery_writes'))[0]!.n);

      const { eventId } = await tenant.store();
      // The first write fails after the first attempt; the sweep claims the event again (every 5 s), carefully.
      await waitFor(async () => (await refused()) >= 3, 60_000, 200);
      assert.equal(tenant.receiver.received.length, 1, 'only the first attempt reached the receiver');

      await app.em().execute('drop trigger refuse_test_deliveries on webhook_delivery');
      const delivered = await waitFor(async () => {
        const [row] = await app.em().execute<{ status: string; attempts: number; delivery_key: string }[]>(
          'select status, attempts, delivery_key from webhook_delivery where event_id = ?', [eventId]);
        return row?.status === 'delivered' && row;
      }, 30_000, 200);
      assert.equal(delivered.attempts, 1);
      assert.equal(tenant.receiver.received.length, 2, 'sent once more, after its delivery was written');
      for (const r of tenant.receiver.received) {
        assert.deepEqual(verifyWebhook({ sender: 'tenant', secret: SECRET, headers: r.headers, rawBody: r.body }), { valid: true });
        assert.equal(r.headers['x-webhook-event-id'], delivered.delivery_key, 'both copies carry the delivery key');
      }
    } finally {
      await tenant.receiver.close();
    }
  });
});
