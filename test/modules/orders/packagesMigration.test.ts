// The packages migration on a database of its own migrated up to the step before it: every order that exists
// gets its first package, numbered with its tracking number.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Orm } from '../../../src/platform/db/orm.ts';
import { databaseMigratedTo } from '../../helpers/migrationDb.ts';

let orm: Orm;
let drop: () => Promise<void>;
before(async () => {
  ({ orm, drop } = await databaseMigratedTo('Migration20261124120000DeviceOrderExceptions', 'packages'));
});
after(() => drop());

test('every existing order gets one package carrying its tracking number', async () => {
  const em = orm.em.fork();
  const [business] = await em.execute<{ id: number }[]>(
    "insert into business (code, name, timezone) values ('MIG', 'Migration', 'UTC') returning id",
  );
  const orderIds: number[] = [];
  for (const tracking of ['TMSAAAAAAAAAAAA', 'TMSBBBBBBBBBBBB']) {
    const [row] = await em.execute<{ id: number }[]>(
      `insert into delivery_order (business_id, type, order_ref, tracking_number, status_id, scheduled_date, recipient, self_delivery)
       values (?, 'D', ?, ?, 1, '2026-12-01', '{"name": "R", "address": {"line1": "1", "city": "C", "postal_code": "1", "country": "FR"}}', true) returning id`,
      [business!.id, tracking, tracking],
    );
    orderIds.push(row!.id);
  }

  await orm.migrator.up();

  const packages = await em.execute(
    'select order_id, business_id, position, package_number, weight_grams from order_package order by order_id',
  );
  assert.deepEqual(packages, [
    {
      order_id: orderIds[0],
      business_id: business!.id,
      position: 1,
      package_number: 'TMSAAAAAAAAAAAA',
      weight_grams: null,
    },
    {
      order_id: orderIds[1],
      business_id: business!.id,
      position: 1,
      package_number: 'TMSBBBBBBBBBBBB',
      weight_grams: null,
    },
  ]);
});
