// The tracking-per-package migration on a database of its own migrated up to the step before it: every tracking
// event written for an order belongs to that order's first package afterwards, and keys are unique per package.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Orm } from '../../../src/platform/db/orm.ts';
import { databaseMigratedTo } from '../../helpers/migrationDb.ts';

let orm: Orm;
let drop: () => Promise<void>;
before(async () => {
  ({ orm, drop } = await databaseMigratedTo('Migration20261125100000PackageDistribution', 'tracking'));
});
after(() => drop());

test("existing tracking events belong to their order's first package", async () => {
  const em = orm.em.fork();
  const [business] = await em.execute<{ id: number }[]>(
    "insert into business (code, name, timezone) values ('MIG', 'Migration', 'UTC') returning id",
  );
  const [order] = await em.execute<{ id: number }[]>(
    `insert into delivery_order (business_id, type, order_ref, tracking_number, status_id, scheduled_date, recipient, self_delivery)
     values (?, 'D', 'R', 'TMSAAAAAAAAAAAA', 1, '2026-12-01', '{"name": "R", "address": {"line1": "1", "city": "C", "postal_code": "1", "country": "FR"}}', false) returning id`,
    [business!.id],
  );
  const [first] = await em.execute<{ id: number }[]>(
    "insert into order_package (order_id, business_id, position, package_number) values (?, ?, 1, 'TMSAAAAAAAAAAAA') returning id",
    [order!.id, business!.id],
  );
  const [second] = await em.execute<{ id: number }[]>(
    "insert into order_package (order_id, business_id, position, package_number) values (?, ?, 2, 'TMSBBBBBBBBBBBB') returning id",
    [order!.id, business!.id],
  );
  const insertEvent = (packageId: number | null) =>
    em.execute(
      `insert into tracking_event (order_id, ${packageId === null ? '' : 'package_id, '}business_id, event_key, status_code, phase, occurred_at, otep_version, content_hash)
     values (?, ${packageId === null ? '' : '?, '}?, 'e1', 'otep:core:picked_up', 'pickup', now(), '1.0.0', repeat('0', 64))`,
      packageId === null ? [order!.id, business!.id] : [order!.id, packageId, business!.id],
    );
  await insertEvent(null);

  await orm.migrator.up();

  assert.deepEqual(await em.execute('select package_id from tracking_event'), [{ package_id: first!.id }]);
  // The same carrier event id on the order's second package is another event.
  await insertEvent(second!.id);
  await assert.rejects(insertEvent(second!.id), /tracking_event_key/);
});
