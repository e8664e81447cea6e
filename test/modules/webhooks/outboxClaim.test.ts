// The relay's claim (claim_outbox), against the real PostgreSQL: two relays never claim one event, a claim
// whose relay went silent is ended by the server, so its events go to another relay, and an event nobody can
// receive is published by the claim. No relay runs here: the test holds the claims itself.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { ENTITIES } from '../../../src/modules/index.ts';
import { createOrm, type Orm } from '../../../src/platform/db/orm.ts';
import { claimOutbox, extendClaimIdleLimit } from '../../../src/modules/webhooks/repo/deliveries.ts';
import { makeBusiness } from '../../helpers/factories.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('outbox claim', () => {
  let orm: Orm;
  let ids: number[];
  const clients: pg.Client[] = [];

  /** A connection of its own, as each relay batch has; a server-ended session is expected, not a failure. */
  async function connection(): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
    c.on('error', () => undefined);
    await c.connect();
    clients.push(c);
    return c;
  }

  /** Claims as the relay does (in a transaction left open) and answers which of this test's events it got, in order. */
  async function claim(c: pg.Client, idleLimit: string): Promise<number[]> {
    await c.query('begin');
    const { rows } = await c.query<{ id: string }>('select id from claim_outbox(10000, $1)', [idleLimit]);
    return rows.map((r) => Number(r.id)).filter((id) => ids.includes(id));
  }

  before(async () => {
    orm = await createOrm(process.env.DATABASE_URL!, ENTITIES);
    const em = orm.em.fork();
    const { business } = await makeBusiness(em);
    // Not a device order's reference: other files look device order events up by reference.
    const rows = await em.execute<{ id: string }[]>(
      `insert into outbox_event (business_id, event_id, event_type, reference_type, reference_id, payload)
       select ?, 'CLAIM-' || ? || '-' || n, 'device_order.stored', 'claim_test', ? || '-' || n, '{}' from generate_series(1, 3) n returning id`,
      [business.id, business.id, business.id],
    );
    ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  });
  after(async () => {
    for (const c of clients) await c.end().catch(() => undefined);
    // Published, so that no later relay sends these hand-made events.
    await orm.em.fork().execute('update outbox_event set published_at = now() where id in (?)', [ids]);
    await orm.close();
  });

  test(
    'a second claim skips what the first holds; the first gets the events in id order',
    { timeout: 30_000 },
    async () => {
      const first = await connection();
      const second = await connection();
      assert.deepEqual(await claim(first, '60s'), ids);
      assert.deepEqual(await claim(second, '60s'), []);
      await first.query('rollback');
      assert.deepEqual(await claim(second, '60s'), ids, "released with the first claim's transaction");
      await second.query('rollback');
    },
  );

  test(
    'a claim left idle past its limit is ended by the server, and its events can be claimed again',
    { timeout: 30_000 },
    async () => {
      const silent = await connection();
      assert.deepEqual(await claim(silent, '1s'), ids);
      const other = await connection();
      assert.deepEqual(await claim(other, '60s'), []);
      await other.query('rollback');
      // Claimable again once the server has ended the silent session (after 1 s idle).
      await waitFor(
        async () => {
          const got = await claim(other, '60s');
          await other.query('rollback');
          return got.length === ids.length;
        },
        15_000,
        200,
      );
      await assert.rejects(silent.query('select 1'), 'the server ended the idle session');
    },
  );

  test(
    "the relay's claim sets its idle limit for its own transaction only, and a large fan-out extends it",
    { timeout: 30_000 },
    async () => {
      const shown = async (em: ReturnType<Orm['em']['fork']>) =>
        (
          await em.execute<{ idle_in_transaction_session_timeout: string }[]>(
            'show idle_in_transaction_session_timeout',
          )
        )[0]!.idle_in_transaction_session_timeout;
      const rollback = new Error('rollback');
      await assert.rejects(
        orm.em.fork().transactional(async (tx) => {
          await claimOutbox(tx, 1);
          assert.equal(await shown(tx), '1min');
          await extendClaimIdleLimit(tx, 92.5);
          assert.equal(await shown(tx), '93s');
          throw rollback;
        }),
        rollback,
      );
      assert.equal(await shown(orm.em.fork()), '0', 'the session default again after the transaction');
    },
  );

  test(
    'an event nobody can receive is published by the claim itself; one whose business has settings is handed out',
    { timeout: 30_000 },
    async () => {
      const em = orm.em.fork();
      const [silent, subscribed, provided] = [await makeBusiness(em), await makeBusiness(em), await makeBusiness(em)];
      await em.execute("insert into webhook_settings (business_id, urls) values (?, '{}')", [subscribed.business.id]);
      await em.execute(
        "insert into webhook_endpoint (business_id, kind, url, secret, key_id) values (?, 'partner_locker', 'https://example.com/hook', 'x', 'k')",
        [provided.business.id],
      );
      const event = async (businessId: number, providerId: number | null) =>
        Number(
          (
            await em.execute<{ id: string }[]>(
              `insert into outbox_event (business_id, provider_id, event_id, event_type, reference_type, reference_id, payload)
       values (?, ?, 'REACH-' || gen_random_uuid(), 'device_order.stored', 'claim_test', 'reach', '{}') returning id`,
              [businessId, providerId],
            )
          )[0]!.id,
        );
      const nobody = await event(silent.business.id, null);
      const tenant = await event(subscribed.business.id, null);
      const partner = await event(silent.business.id, provided.business.id);
      const mine = [nobody, tenant, partner];

      const claimed = await orm.em.fork().transactional(async (tx) => claimOutbox(tx, 10_000));
      assert.deepEqual(
        claimed.events
          .map((e) => e.id)
          .filter((id) => mine.includes(id))
          .sort((a, b) => a - b),
        [tenant, partner],
      );
      assert.ok(claimed.claimed >= claimed.events.length + 1, 'the published one is counted as claimed');
      const published = await em.execute<{ id: string }[]>(
        'select id from outbox_event where id in (?) and published_at is not null',
        [mine],
      );
      assert.deepEqual(
        published.map((r) => Number(r.id)),
        [nobody],
      );
      await em.execute('update outbox_event set published_at = now() where id in (?)', [mine]);
      await em.execute('delete from webhook_endpoint where business_id = ?', [provided.business.id]);
      await em.execute('delete from webhook_settings where business_id = ?', [subscribed.business.id]);
    },
  );
});
