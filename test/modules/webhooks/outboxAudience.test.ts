// Events nobody can receive are not written to the outbox (insertOutboxEvents and webhook_audience), against the
// real PostgreSQL: who counts as a receiver, and the ordering with a receiver being added at the same moment.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { ENTITIES } from '../../../src/modules/index.ts';
import { insertProviderEndpoint } from '../../../src/modules/webhooks/repo/endpoints.ts';
import { upsertWebhookSettings } from '../../../src/modules/webhooks/repo/settings.ts';
import { loadConfig } from '../../../src/platform/config.ts';
import { createOrm, type Em, type Orm } from '../../../src/platform/db/orm.ts';
import { insertOutboxEvents, type NewOutboxEvent } from '../../../src/platform/db/outbox.ts';
import { installSecretKeys } from '../../../src/platform/secretBox.ts';
import { makeBusiness, makeProvider } from '../../helpers/factories.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('outbox audience', () => {
  let orm: Orm;
  const em = () => orm.em.fork();

  /** One event of `businessId` (naming `providerId`), under a reference no other file looks up. */
  const event = (businessId: number, providerId: number | null = null): NewOutboxEvent => {
    const id = randomUUID();
    return {
      businessId,
      providerId,
      eventId: `AUD-${id}`,
      eventType: 'device_order.stored',
      referenceType: 'audience_test',
      referenceId: id,
      payload: {},
    };
  };
  const written = async (e: NewOutboxEvent) =>
    (
      await em().execute<{ n: number }[]>('select count(*)::int as n from outbox_event where event_id = ?', [e.eventId])
    )[0]!.n === 1;
  const write = async (e: NewOutboxEvent) => {
    await insertOutboxEvents(em(), [e]);
    return written(e);
  };

  before(async () => {
    orm = await createOrm(process.env.DATABASE_URL!, ENTITIES);
    // The suite's key, so the endpoint secret written here opens like every other.
    installSecretKeys(loadConfig().secretsKeys);
  });
  after(async () => {
    // Published, so that no relay of a later file sends these hand-made events.
    await em().execute(
      "update outbox_event set published_at = now() where reference_type = 'audience_test' and published_at is null",
    );
    await orm.close();
  });

  test('written only when the business has settings or the business or provider a live endpoint', async () => {
    const { business } = await makeBusiness(em());
    const provider = await makeProvider(em(), 'locker_provider');
    assert.equal(await write(event(business.id)), false, 'nobody receives it');
    assert.equal(await write(event(business.id, provider.business.id)), false);

    await insertProviderEndpoint(em(), provider.business.id, 'partner_locker', {
      url: 'https://partner.example/hooks',
      secret: 'whsec-audience',
      keyId: 'k1',
    });
    assert.equal(await write(event(business.id, provider.business.id)), true, "the provider's endpoint receives it");
    assert.equal(await write(event(business.id)), false, 'the provider is not named');

    await upsertWebhookSettings(em(), business.id, null, {});
    assert.equal(await write(event(business.id)), true, 'the business has settings');
  });

  test('a batch keeps the events someone receives and drops the others', async () => {
    const listening = await makeBusiness(em());
    const silent = await makeBusiness(em());
    await upsertWebhookSettings(em(), listening.business.id, null, {});
    const events = [
      event(silent.business.id),
      event(listening.business.id),
      event(silent.business.id),
      event(listening.business.id),
    ];
    await insertOutboxEvents(em(), events);
    assert.deepEqual(await Promise.all(events.map(written)), [false, true, false, true]);
  });

  /** Resolves when a session of this database waits for a lock while running a statement that contains `text`. */
  const waitingOn = (text: string) =>
    waitFor(
      async () =>
        (
          await em().execute<{ n: number }[]>(
            "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like ?",
            [`%${text}%`],
          )
        )[0]!.n > 0,
    );
  /** Resolves when some session holds `owner`'s receiver lock in `mode`. */
  const lockHeld = (mode: 'ExclusiveLock' | 'ShareLock', owner: number) =>
    waitFor(
      async () =>
        (
          await em().execute<{ n: number }[]>(
            "select count(*)::int as n from pg_locks where locktype = 'advisory' and mode = ? and objid = ?",
            [mode, owner],
          )
        )[0]!.n > 0,
    );

  /** Runs `work` in a transaction left open, with its locks, until `release`. */
  function heldOpen(work: (tx: Em) => Promise<unknown>) {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const done = em().transactional(async (tx: Em) => {
      await work(tx);
      await held;
    });
    return { done, release };
  }

  test(
    'an event written while a receiver is being added waits for it and is then written',
    { timeout: 30_000 },
    async () => {
      const { business } = await makeBusiness(em());
      const adding = heldOpen((tx) => upsertWebhookSettings(tx, business.id, null, {}));
      const e = event(business.id);
      let writing: Promise<void> | undefined;
      try {
        await lockHeld('ExclusiveLock', business.id);
        writing = insertOutboxEvents(em(), [e]);
        await waitingOn('webhook_audience');
      } finally {
        adding.release();
      }
      await adding.done;
      await writing;
      assert.equal(await written(e), true, 'it saw the receiver committed while it waited');
    },
  );

  test(
    'a receiver added while an event transaction is open waits for that transaction',
    { timeout: 30_000 },
    async () => {
      const { business } = await makeBusiness(em());
      const e = event(business.id);
      const writing = heldOpen((tx) => insertOutboxEvents(tx, [e]));
      let adding: Promise<unknown> | undefined;
      try {
        await lockHeld('ShareLock', business.id);
        adding = upsertWebhookSettings(em(), business.id, null, {});
        await waitingOn('lock_webhook_receivers');
      } finally {
        writing.release();
      }
      await writing.done;
      await adding;
      assert.equal(await written(e), false, 'committed before the receiver existed');
      assert.equal(await write(event(business.id)), true);
    },
  );
});
