// The migration from a device's list of grid codes to compartment rows, on a database of its own migrated up to the
// step before it: devices keep their codes in order, open device orders keep holding their compartment, and a
// code only a device order names still gets its compartment.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Orm } from '../../../src/platform/db/orm.ts';
import { databaseMigratedTo } from '../../helpers/migrationDb.ts';

let orm: Orm;
let drop: () => Promise<void>;
before(async () => {
  ({ orm, drop } = await databaseMigratedTo('Migration20261124040000WebhookAudience', 'compartments'));
});
after(() => drop());

test('grid codes become numbered compartments; open device orders hold theirs, ended ones hold none', async () => {
  const em = orm.em.fork();
  const [business] = await em.execute<{ id: number }[]>(
    "insert into business (code, name, timezone) values ('MIG', 'Migration', 'UTC') returning id",
  );
  const [device] = await em.execute<{ id: number }[]>(
    `insert into device (business_id, code, name, grid_codes) values (?, 'MIG-LOCKER', 'Locker', '["A01", "A02", "B01", "7"]') returning id`,
    [business!.id],
  );
  const order = async (grid: string, status: string) =>
    (
      await em.execute<{ id: number }[]>(
        `insert into device_order (business_id, kind, status, next_actor, device_id, grid_code, reference_number, due_at, pickup_code_hash)
     values (?, 'delivery', ?, 'recipient', ?, ?, 'R', now(), 'h') returning id`,
        [business!.id, status, device!.id, grid],
      )
    )[0]!.id;
  const stored = await order('A02', 'stored');
  const overdue = await order('B01', 'overdue');
  const collected = await order('A01', 'collected');
  const unlisted = await order('Z09', 'stored');

  await orm.migrator.up();

  const compartments = await em.execute(
    'select grid_code, compartment_number, pickup_locker_number, shelf_code, size from compartment where device_id = ? order by compartment_number',
    [device!.id],
  );
  assert.deepEqual(compartments, [
    { grid_code: 'A01', compartment_number: 1, pickup_locker_number: 1, shelf_code: 'A', size: 'M' },
    { grid_code: 'A02', compartment_number: 2, pickup_locker_number: 2, shelf_code: 'A', size: 'M' },
    { grid_code: 'B01', compartment_number: 3, pickup_locker_number: 3, shelf_code: 'B', size: 'M' },
    { grid_code: '7', compartment_number: 4, pickup_locker_number: 4, shelf_code: 'A', size: 'M' },
    { grid_code: 'Z09', compartment_number: 5, pickup_locker_number: 5, shelf_code: 'Z', size: 'M' },
  ]);
  const held = await em.execute<{ device_order_id: number; grid_code: string }[]>(
    'select p.device_order_id, c.grid_code from compartment_parcel p join compartment c on c.id = p.compartment_id order by p.device_order_id',
  );
  assert.deepEqual(held, [
    { device_order_id: stored, grid_code: 'A02' },
    { device_order_id: overdue, grid_code: 'B01' },
    { device_order_id: unlisted, grid_code: 'Z09' },
  ]);
  const linked = await em.execute<{ n: number }[]>(
    'select count(*)::int as n from device_order o join compartment c on c.id = o.compartment_id and c.grid_code = o.grid_code where o.id in (?)',
    [[stored, overdue, collected, unlisted]],
  );
  assert.equal(linked[0]!.n, 4, 'every device order names its compartment');
  await assert.rejects(
    em.execute(
      'insert into compartment_parcel (compartment_id, device_order_id) select compartment_id, ? from device_order where id = ?',
      [collected, stored],
    ),
    /compartment_parcel_pkey/,
    'a second parcel in a held compartment is refused by the database',
  );
});
