// The relay writes a batch's deliveries after their first attempts. When that write fails, the events stay
// unpublished and are claimed again; these prove the relay is then careful (it commits the deliveries before
// sending), so a write that keeps failing cannot make it send the same events to their receivers on every
// claim. The failures are real: a trigger in PostgreSQL refuses this test's rows until the test drops it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifyWebhook } from '../../../src/modules/webhooks/verify.ts';
import type { Received } from '../../helpers/receiver.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { tenantWithReceiver } from '../../helpers/webhookTenant.ts';
import { waitFor } from '../../helpers/wait.ts';

const SECRET = 'write-failure-secret-0123';

describe('relay: a delivery write that keeps failing', () => {
  let app: TestApp;
  // The relay sweeps every second here (5 s by default): each claim below comes with a sweep.
  before(async () => {
    app = await startApp({ WEBHOOK_RETRY_SCALE: '0.001', RELAY_SWEEP_MS: '1000', WEBHOOK_LEASE_MARGIN_SEC: '5' });
  });
  after(async () => {
    await dropRefusal();
    await app.running.close();
  });

  /** Refuses inserts into `table` when `condition` holds; nextval is not undone by the rollback, so it counts them. */
  async function refuse(table: string, condition: string): Promise<() => Promise<number>> {
    await app.em().execute(`
      create sequence refused_writes;
      create function refuse_test_rows() returns trigger language plpgsql as $$
      begin
        if ${condition} then
          perform nextval('refused_writes');
          raise exception 'writes refused by the test';
        end if;
        return new;
      end $$;
      create trigger refuse_test_rows before insert on ${table} for each row execute function refuse_test_rows()`);
    return async () =>
      Number(
        (
          await app
            .em()
            .execute<{ n: string }[]>('select case when is_called then last_value else 0 end as n from refused_writes')
        )[0]!.n,
      );
  }
  async function dropRefusal(): Promise<void> {
    await app
      .em()
      .execute(
        'drop trigger if exists refuse_test_rows on webhook_delivery; drop trigger if exists refuse_test_rows on webhook_attempt; drop function if exists refuse_test_rows(); drop sequence if exists refused_writes',
      );
  }
  async function deliveryOf(eventId: string) {
    const [row] = await app
      .em()
      .execute<{ status: string; attempts: number; delivery_key: string }[]>(
        'select status, attempts, delivery_key from webhook_delivery where event_id = ?',
        [eventId],
      );
    return row;
  }
  function assertSignedCopies(received: Received[], key: string): void {
    for (const r of received) {
      assert.deepEqual(verifyWebhook({ sender: 'tenant', secret: SECRET, headers: r.headers, rawBody: r.body }), {
        valid: true,
      });
      assert.equal(r.headers['x-webhook-event-id'], key, 'every copy carries the delivery key');
    }
  }

  test(
    'delivery insert refused: one copy, then nothing until the insert succeeds, then once more under the same key',
    { timeout: 90_000 },
    async () => {
      const tenant = await tenantWithReceiver(app, () => 200, SECRET);
      try {
        const refused = await refuse('webhook_delivery', `new.business_id = ${tenant.businessId}`);
        const { eventId } = await tenant.store();
        // The first write fails after the first attempt; the sweep claims the event again (every second), carefully.
        await waitFor(async () => (await refused()) >= 3, 60_000, 200);
        assert.equal(tenant.receiver.received.length, 1, 'only the first attempt reached the receiver');

        await dropRefusal();
        const delivered = await waitFor(
          async () => {
            const d = await deliveryOf(eventId);
            return d?.status === 'delivered' && d;
          },
          30_000,
          200,
        );
        assert.equal(delivered.attempts, 1);
        assert.equal(tenant.receiver.received.length, 2, 'sent once more, after its delivery was written');
        assertSignedCopies(tenant.receiver.received, delivered.delivery_key);
      } finally {
        await dropRefusal();
        await tenant.receiver.close();
      }
    },
  );

  test(
    'attempt log refused: the careful batch publishes first, so the event is not sent again on each claim',
    { timeout: 150_000 },
    async () => {
      const tenant = await tenantWithReceiver(app, () => 200, SECRET);
      try {
        const refused = await refuse(
          'webhook_attempt',
          `(select business_id from webhook_delivery where id = new.delivery_id) = ${tenant.businessId}`,
        );
        const { eventId } = await tenant.store();
        // The first write fails after the first attempt; the careful batch commits the delivery, sends, and its
        // attempt record fails too: two copies, the delivery pending and its event published.
        await waitFor(async () => (await refused()) >= 2, 60_000, 200);
        assert.equal((await deliveryOf(eventId))?.status, 'pending');
        // Two more sweeps while still refused: nothing claims the event again.
        await new Promise((r) => setTimeout(r, 2_500));
        assert.equal(tenant.receiver.received.length, 2);

        await dropRefusal();
        // Once its lease ends, the sweep hands the delivery to a retry workflow, which delivers it.
        const delivered = await waitFor(
          async () => {
            const d = await deliveryOf(eventId);
            return d?.status === 'delivered' && d;
          },
          90_000,
          500,
        );
        assert.equal(tenant.receiver.received.length, 3);
        assertSignedCopies(tenant.receiver.received, delivered.delivery_key);
      } finally {
        await dropRefusal();
        await tenant.receiver.close();
      }
    },
  );
});
