import type { Em } from '../../../platform/db/orm.ts';
import { insertOutboxEvent } from '../../../platform/db/outbox.ts';
import { openSecret, purposeOf, sealSecret, type SealedColumn } from '../../../platform/secretBox.ts';
import { occupyCompartment, releaseCompartment } from '../../lockers/index.ts';
import {
  AWAITED_BY,
  EVENT_OF_ACTION,
  isTerminal,
  outcomeOf,
  statusesAllowing,
  type DeviceOrderAction,
  type DeviceOrderKind,
  type DeviceOrderStatus,
} from '../domain.ts';
import { presentDeviceOrder, type DeviceOrderRow, type DeviceOrderView } from '../views.ts';

const SELECT_VIEW = `select o.*, d.code as device_code, d.name as device_name, d.device_type
  from device_order o join device d on d.id = o.device_id`;

/** The outbox event of a ledger row: its id is DOE-<ledger id>, in the body too. */
async function publish(
  em: Em,
  ledgerId: number,
  view: DeviceOrderView,
  businessId: number,
  eventType: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const eventId = `DOE-${ledgerId}`;
  await insertOutboxEvent(em, {
    businessId,
    eventId,
    eventType,
    referenceType: 'device_order',
    referenceId: String(view.id),
    family: 'device_orders',
    payload: {
      event_id: eventId,
      event: eventType,
      business_id: businessId,
      occurred_at: new Date().toISOString(),
      data: { device_order: view, ...extra },
    },
  });
  return eventId;
}

/** Writes a ledger row (the device order's history); answers its id. */
export async function recordHistory(em: Em, id: number, businessId: number, eventType: string): Promise<number> {
  const [row] = await em.execute<{ id: number }[]>(
    'insert into device_order_event (device_order_id, business_id, event_type) values (?, ?, ?) returning id',
    [id, businessId, eventType],
  );
  return row!.id;
}

/**
 * Writes the ledger row and its outbox event in the caller's transaction; the event id is DOE-<ledger id>.
 * `extra` joins data.device_order in the event's data (data.exception).
 */
export async function recordDeviceOrderEvent(
  em: Em,
  view: DeviceOrderView,
  businessId: number,
  eventType: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return publish(em, await recordHistory(em, view.id, businessId, eventType), view, businessId, eventType, extra);
}

/** History entry of a pickup lock that found its exception still open: no event, the operator already has one. */
export const PICKUP_LOCKED = 'pickup_code.locked';

export interface StoreTarget {
  device: { id: number; code: string; name: string; deviceType: string } | null;
  /** The device's compartment with the grid code asked for, null when it has none. */
  compartmentId: number | null;
  orderKnown: boolean;
  /** The new device order's id, taken from the sequence when the device exists. */
  nextId: number | null;
}

/** The id of a device of the business, by its code. */
export async function findDeviceId(em: Em, businessId: number, code: string): Promise<number | null> {
  const [row] = await em.execute<{ id: number }[]>('select id from device where code = ? and business_id = ?', [
    code,
    businessId,
  ]);
  return row?.id ?? null;
}

/** What a store needs to validate, in one round trip: the business's device, its compartment, the order. */
export async function findStoreTarget(
  em: Em,
  businessId: number,
  deviceCode: string,
  gridCode: string,
  orderId: number | null,
): Promise<StoreTarget> {
  const [row] = await em.execute<
    {
      id: number | null;
      code: string;
      name: string;
      device_type: string;
      compartment_id: number | null;
      order_known: boolean;
      next_id: number | null;
    }[]
  >(
    `select d.id, d.code, d.name, d.device_type, (select c.id from compartment c where c.device_id = d.id and c.grid_code = ?) as compartment_id,
       case when d.id is not null then nextval('device_order_id_seq')::int end as next_id,
       ?::int is not null and exists (select 1 from delivery_order where id = ? and business_id = ?) as order_known
     from (select 1) one left join device d on d.code = ? and d.business_id = ?`,
    [gridCode, orderId, orderId, businessId, deviceCode, businessId],
  );
  return {
    device: row!.id === null ? null : { id: row!.id, code: row!.code, name: row!.name, deviceType: row!.device_type },
    compartmentId: row!.compartment_id,
    orderKnown: row!.order_known,
    nextId: row!.next_id,
  };
}

export interface NewDeviceOrder {
  /** Taken from the sequence beforehand (findStoreTarget), so that the process can start before the row is written. */
  id: number;
  businessId: number;
  kind: DeviceOrderKind;
  device: { id: number; code: string; name: string; deviceType: string };
  gridCode: string;
  compartmentId: number;
  referenceNumber: string;
  orderId: number | null;
  externalOrderId: string | null;
  dueAt: Date;
  pickupCodeHash: string;
  /** The code itself, kept sealed for the recipient's notice; absent or null when no notice is owed (docs/device-orders.md). */
  pickupCode?: string | null;
}

/** The pickup code of a device order that owes its recipient a notice, kept sealed for that notice to read back. */
export const PICKUP_CODE: SealedColumn = { table: 'device_order', column: 'pickup_code_sealed' };

/**
 * Inserts a stored device order with its ledger row (one statement), puts its parcel in the compartment (a unique
 * violation when the compartment holds one already) and writes its outbox event.
 */
export async function insertStoredDeviceOrder(em: Em, o: NewDeviceOrder): Promise<DeviceOrderView> {
  const storedAt = new Date();
  const draft = presentDeviceOrder({
    id: o.id,
    kind: o.kind,
    status: 'stored',
    next_actor: AWAITED_BY[o.kind],
    device_id: o.device.id,
    device_code: o.device.code,
    device_name: o.device.name,
    device_type: o.device.deviceType,
    grid_code: o.gridCode,
    reference_number: o.referenceNumber,
    order_id: o.orderId,
    external_order_id: o.externalOrderId,
    due_at: o.dueAt,
    overdue_at: null,
    stored_at: storedAt,
    ended_at: null,
    removal_reason: null,
  });
  const eventType = EVENT_OF_ACTION.store;
  const [row] = await em.execute<{ id: number; ledger_id: number }[]>(
    `with o as (
       insert into device_order (id, business_id, kind, status, next_actor, device_id, grid_code, compartment_id, reference_number, order_id, external_order_id, due_at, stored_at, pickup_code_hash, pickup_code_sealed)
       values (?, ?, ?, 'stored', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id)
     insert into device_order_event (device_order_id, business_id, event_type, occurred_at) select o.id, ?, ?, ? from o returning device_order_id as id, id as ledger_id`,
    [
      o.id,
      o.businessId,
      o.kind,
      draft.next_actor,
      o.device.id,
      o.gridCode,
      o.compartmentId,
      o.referenceNumber,
      o.orderId,
      o.externalOrderId,
      o.dueAt,
      storedAt,
      o.pickupCodeHash,
      o.pickupCode ? sealSecret(purposeOf(PICKUP_CODE), o.pickupCode) : null,
      o.businessId,
      eventType,
      storedAt,
    ],
  );
  await occupyCompartment(em, o.compartmentId, { deviceOrderId: o.id });
  await publish(em, row!.ledger_id, draft, o.businessId, eventType);
  return draft;
}

export async function findDeviceOrder(em: Em, businessId: number, id: number): Promise<DeviceOrderView | null> {
  const rows = await em.execute<DeviceOrderRow[]>(`${SELECT_VIEW} where o.business_id = ? and o.id = ?`, [
    businessId,
    id,
  ]);
  return rows[0] ? presentDeviceOrder(rows[0]) : null;
}

export async function findPickupCodeHash(em: Em, businessId: number, id: number): Promise<string | null> {
  const rows = await em.execute<{ pickup_code_hash: string }[]>(
    'select pickup_code_hash from device_order where business_id = ? and id = ?',
    [businessId, id],
  );
  return rows[0]?.pickup_code_hash ?? null;
}

/** What the recipient's pickup notice says, and to whom; the code is opened only when the notice is written. */
export interface PickupNoticeFacts {
  businessId: number;
  status: DeviceOrderStatus;
  referenceNumber: string;
  gridCode: string;
  deviceName: string;
  dueAt: Date;
  /** The linked order's recipient (both null when no order is linked). */
  recipient: { name: string | null; email: string | null };
  /** Null when the order owes no notice (no code was kept for one). */
  pickupCode: () => string | null;
}

export async function findPickupNoticeFacts(em: Em, id: number): Promise<PickupNoticeFacts | null> {
  const [row] = await em.execute<
    {
      business_id: number;
      status: DeviceOrderStatus;
      reference_number: string;
      grid_code: string;
      device_name: string;
      due_at: Date;
      recipient_name: string | null;
      recipient_email: string | null;
      pickup_code_sealed: string | null;
    }[]
  >(
    `select o.business_id, o.status, o.reference_number, o.grid_code, d.name as device_name, o.due_at, o.pickup_code_sealed,
       r.recipient->>'name' as recipient_name, nullif(r.recipient->>'email', '') as recipient_email
     from device_order o join device d on d.id = o.device_id left join delivery_order r on r.id = o.order_id
     where o.id = ?`,
    [id],
  );
  if (!row) return null;
  const sealed = row.pickup_code_sealed;
  return {
    businessId: row.business_id,
    status: row.status,
    referenceNumber: row.reference_number,
    gridCode: row.grid_code,
    deviceName: row.device_name,
    dueAt: new Date(row.due_at),
    recipient: { name: row.recipient_name, email: row.recipient_email },
    pickupCode: () => (sealed === null ? null : openSecret(purposeOf(PICKUP_CODE), sealed)),
  };
}

export interface DeviceOrderFilter {
  businessId: number;
  status?: DeviceOrderStatus;
  deviceId?: number;
  limit: number;
  offset: number;
}

export async function listDeviceOrders(
  em: Em,
  f: DeviceOrderFilter,
): Promise<{ total: number; items: DeviceOrderView[] }> {
  const where = ['o.business_id = ?'];
  const params: unknown[] = [f.businessId];
  if (f.status) {
    where.push('o.status = ?');
    params.push(f.status);
  }
  if (f.deviceId !== undefined) {
    where.push('o.device_id = ?');
    params.push(f.deviceId);
  }
  const clause = where.join(' and ');
  const [count] = await em.execute<{ total: string }[]>(
    `select count(*) as total from device_order o where ${clause}`,
    params,
  );
  const rows = await em.execute<DeviceOrderRow[]>(
    `${SELECT_VIEW} where ${clause} order by o.id desc limit ? offset ?`,
    [...params, f.limit, f.offset],
  );
  return { total: Number(count!.total), items: rows.map(presentDeviceOrder) };
}

export type TransitionResult =
  | { ok: true; view: DeviceOrderView; eventId: string }
  | { ok: false; reason: 'missing' }
  | { ok: false; reason: 'invalid'; status: DeviceOrderStatus };

/**
 * Applies one transition to the read model with its ledger row and outbox event, in one transaction.
 * The UPDATE's status guard makes the database the arbiter if two actors race.
 */
export async function transitionDeviceOrder(
  em: Em,
  id: number,
  action: DeviceOrderAction,
  opts: { removalReason?: string } = {},
): Promise<TransitionResult> {
  const { status: to, nextActor } = outcomeOf(action);
  return em.transactional(async (tx) => {
    const [row] = await tx.execute<(DeviceOrderRow & { business_id: number })[]>(
      `with u as (
         update device_order set status = ?, next_actor = ?, updated_at = now(),
           overdue_at = case when ? = 'overdue' then now() else overdue_at end,
           ended_at = case when ? in ('collected', 'removed') then now() else ended_at end,
           removal_reason = coalesce(?, removal_reason)
         where id = ? and status in (?) returning *)
       select u.*, d.code as device_code, d.name as device_name, d.device_type from u join device d on d.id = u.device_id`,
      [to, nextActor, to, to, opts.removalReason ?? null, id, statusesAllowing(action)],
    );
    if (!row) {
      const [current] = await tx.execute<{ status: DeviceOrderStatus }[]>(
        'select status from device_order where id = ?',
        [id],
      );
      return current ? { ok: false, reason: 'invalid', status: current.status } : { ok: false, reason: 'missing' };
    }
    const view = presentDeviceOrder(row);
    // Collected or removed: the parcel has left its compartment.
    if (isTerminal(to)) await releaseCompartment(tx, { deviceOrderId: id });
    const eventId = await recordDeviceOrderEvent(tx, view, row.business_id, EVENT_OF_ACTION[action]);
    return { ok: true, view, eventId };
  });
}

/**
 * The device order that held a compartment last, if its process may still watch the door: it ended less than
 * `withinSeconds` ago, or its door_left_open exception is open. Null otherwise.
 */
export async function lastDeviceOrderOf(em: Em, compartmentId: number, withinSeconds: number): Promise<number | null> {
  const [row] = await em.execute<{ id: number; watching: boolean }[]>(
    `select o.id, o.ended_at > now() - make_interval(secs => ?)
       or exists (select 1 from device_order_exception e where e.device_order_id = o.id and e.type = 'door_left_open' and e.status = 'open') as watching
     from device_order o where o.compartment_id = ? order by o.id desc limit 1`,
    [withinSeconds, compartmentId],
  );
  return row?.watching ? row.id : null;
}

/** The device orders of an order whose parcel is still in its compartment (stored or overdue). */
export async function storedDeviceOrdersOf(em: Em, orderId: number): Promise<number[]> {
  const rows = await em.execute<{ id: number }[]>(
    "select id from device_order where order_id = ? and status in ('stored', 'overdue') order by id",
    [orderId],
  );
  return rows.map((r) => r.id);
}
