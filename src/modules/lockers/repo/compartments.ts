import type { Em } from '../../../platform/db/orm.ts';
import { executeBound } from '../../../platform/db/orm.ts';
import type { CompartmentSpec, DoorState } from '../domain.ts';

export interface NewDevice {
  businessId: number;
  code: string;
  name: string;
  deviceType?: string;
  sandbox?: boolean;
  compartments: readonly CompartmentSpec[];
}

export interface DeviceRow {
  id: number;
  businessId: number;
  code: string;
  name: string;
  deviceType: string;
}

/** A device with its compartments. */
export async function insertDevice(em: Em, d: NewDevice): Promise<DeviceRow> {
  const [row] = await em.execute<{ id: number; device_type: string }[]>(
    "insert into device (business_id, code, name, device_type, sandbox) values (?, ?, ?, coalesce(?, 'locker'), ?) returning id, device_type",
    [d.businessId, d.code, d.name, d.deviceType ?? null, d.sandbox ?? false],
  );
  await insertCompartments(em, row!.id, d.compartments);
  return { id: row!.id, businessId: d.businessId, code: d.code, name: d.name, deviceType: row!.device_type };
}

/** Adds compartments to a device in one statement. */
export async function insertCompartments(em: Em, deviceId: number, specs: readonly CompartmentSpec[]): Promise<void> {
  if (specs.length === 0) return;
  await executeBound(
    em,
    `insert into compartment (device_id, grid_code, compartment_number, pickup_locker_number, shelf_code, size)
     select $1, grid_code, compartment_number, pickup_locker_number, shelf_code, size
     from jsonb_to_recordset($2::jsonb) as c(grid_code text, compartment_number int, pickup_locker_number int, shelf_code text, size text)`,
    [
      deviceId,
      JSON.stringify(
        specs.map((s) => ({
          grid_code: s.gridCode,
          compartment_number: s.compartmentNumber,
          pickup_locker_number: s.pickupLockerNumber,
          shelf_code: s.shelfCode,
          size: s.size,
        })),
      ),
    ],
  );
}

/** Who holds a compartment: one parcel of one process at a time (a device order, or a parcel of a partner delivery). */
export type Occupant = { deviceOrderId: number } | { lockerParcelId: number };

const columnOf = (o: Occupant) =>
  'deviceOrderId' in o
    ? { column: 'device_order_id', id: o.deviceOrderId }
    : { column: 'locker_parcel_id', id: o.lockerParcelId };

/**
 * Puts a parcel in a compartment. The compartment's primary key in `compartment_parcel` makes the database the
 * arbiter: a second occupant, whichever process it belongs to, fails with a unique violation, which the caller
 * answers as the compartment being taken.
 */
export async function occupyCompartment(em: Em, compartmentId: number, occupant: Occupant): Promise<void> {
  const { column, id } = columnOf(occupant);
  await em.execute(`insert into compartment_parcel (compartment_id, ${column}) values (?, ?)`, [compartmentId, id]);
}

/**
 * Puts a parcel in a compartment unless one is there already (false then): for a caller that can pick another
 * compartment. An occupant being written by a concurrent transaction is waited for.
 */
export async function tryOccupyCompartment(em: Em, compartmentId: number, occupant: Occupant): Promise<boolean> {
  const { column, id } = columnOf(occupant);
  const rows = await em.execute(
    `insert into compartment_parcel (compartment_id, ${column}) values (?, ?) on conflict (compartment_id) do nothing returning compartment_id`,
    [compartmentId, id],
  );
  return rows.length > 0;
}

/** Frees whatever compartment the occupant holds (nothing when it holds none). */
export async function releaseCompartment(em: Em, occupant: Occupant): Promise<void> {
  const { column, id } = columnOf(occupant);
  await em.execute(`delete from compartment_parcel where ${column} = ?`, [id]);
}

export interface DoorReportOutcome {
  /** False when the compartment already holds a newer report: this one changed nothing. */
  applied: boolean;
  /** Who holds the compartment now, if anyone. */
  occupant: Occupant | null;
  compartmentId: number;
}

/**
 * Keeps what the locker reports of a door, unless the compartment holds a report the locker dated later (reports
 * can arrive out of order); null when the device has no such door.
 */
export async function recordDoorReport(
  em: Em,
  deviceId: number,
  compartmentNumber: number,
  state: DoorState,
  at: Date,
): Promise<DoorReportOutcome | null> {
  const [row] = await em.execute<
    { id: number; applied: boolean; device_order_id: number | null; locker_parcel_id: number | null }[]
  >(
    `with c as (select id from compartment where device_id = ? and compartment_number = ?),
       u as (update compartment set door_state = ?, door_reported_at = ?
             where id = (select id from c) and (door_reported_at is null or door_reported_at <= ?) returning id)
     select c.id, exists (select 1 from u) as applied, p.device_order_id, p.locker_parcel_id
     from c left join compartment_parcel p on p.compartment_id = c.id`,
    [deviceId, compartmentNumber, state, at, at],
  );
  if (!row) return null;
  const occupant =
    row.device_order_id !== null
      ? { deviceOrderId: row.device_order_id }
      : row.locker_parcel_id !== null
        ? { lockerParcelId: row.locker_parcel_id }
        : null;
  return { applied: row.applied, occupant, compartmentId: row.id };
}
