import type { Em } from './orm.ts';
import { EVENT_OF_ACTION, nextStatus, type DeviceOrderAction, type DeviceOrderStatus } from '../domain/deviceOrder.ts';
import { presentDeviceOrder, type DeviceOrderRow, type DeviceOrderView } from '../domain/deviceOrderView.ts';

const SELECT_VIEW = `select o.*, d.code as device_code, d.name as device_name, d.device_type
  from device_order o join device d on d.id = o.device_id`;

/** Writes the ledger row and its outbox event in the caller's transaction; the event id is DOE-<ledger id>. */
export async function recordDeviceOrderEvent(em: Em, view: DeviceOrderView, businessId: number, eventType: string): Promise<string> {
  const payload = { event: eventType, business_id: businessId, occurred_at: new Date().toISOString(), data: { device_order: view } };
  const [row] = await em.execute<{ event_id: string }[]>(
    `with l as (insert into device_order_event (device_order_id, business_id, event_type) values (?, ?, ?) returning id)
     insert into outbox_event (business_id, event_id, event_type, reference_type, reference_id, payload)
     select ?, 'DOE-' || l.id, ?, 'device_order', ?, jsonb_build_object('event_id', 'DOE-' || l.id) || ?::jsonb from l
     returning event_id`,
    [view.id, businessId, eventType, businessId, eventType, String(view.id), JSON.stringify(payload)],
  );
  return row!.event_id;
}

export async function findDeviceOrder(em: Em, businessId: number, id: number): Promise<DeviceOrderView | null> {
  const rows = await em.execute<DeviceOrderRow[]>(`${SELECT_VIEW} where o.business_id = ? and o.id = ?`, [businessId, id]);
  return rows[0] ? presentDeviceOrder(rows[0]) : null;
}

export async function findPickupCodeHash(em: Em, businessId: number, id: number): Promise<string | null> {
  const rows = await em.execute<{ pickup_code_hash: string }[]>('select pickup_code_hash from device_order where business_id = ? and id = ?', [businessId, id]);
  return rows[0]?.pickup_code_hash ?? null;
}

export interface DeviceOrderFilter {
  businessId: number;
  status?: DeviceOrderStatus;
  deviceId?: number;
  limit: number;
  offset: number;
}

export async function listDeviceOrders(em: Em, f: DeviceOrderFilter): Promise<{ total: number; items: DeviceOrderView[] }> {
  const where = ['o.business_id = ?'];
  const params: unknown[] = [f.businessId];
  if (f.status) { where.push('o.status = ?'); params.push(f.status); }
  if (f.deviceId !== undefined) { where.push('o.device_id = ?'); params.push(f.deviceId); }
  const clause = where.join(' and ');
  const [count] = await em.execute<{ total: string }[]>(`select count(*) as total from device_order o where ${clause}`, params);
  const rows = await em.execute<DeviceOrderRow[]>(`${SELECT_VIEW} where ${clause} order by o.id desc limit ? offset ?`, [...params, f.limit, f.offset]);
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
export async function transitionDeviceOrder(em: Em, id: number, action: DeviceOrderAction, opts: { removalReason?: string } = {}): Promise<TransitionResult> {
  return em.transactional(async (tx) => {
    const [current] = await tx.execute<{ status: DeviceOrderStatus; business_id: number }[]>('select status, business_id from device_order where id = ? for update', [id]);
    if (!current) return { ok: false, reason: 'missing' };
    const to = nextStatus(current.status, action);
    if (!to) return { ok: false, reason: 'invalid', status: current.status };
    await tx.execute(
      `update device_order set status = ?, next_actor = ?, updated_at = now(),
         overdue_at = case when ? = 'overdue' then now() else overdue_at end,
         ended_at = case when ? in ('collected', 'removed') then now() else ended_at end,
         removal_reason = coalesce(?, removal_reason)
       where id = ?`,
      [to, to === 'overdue' ? 'operator' : 'none', to, to, opts.removalReason ?? null, id],
    );
    const [row] = await tx.execute<DeviceOrderRow[]>(`${SELECT_VIEW} where o.id = ?`, [id]);
    const view = presentDeviceOrder(row!);
    const eventId = await recordDeviceOrderEvent(tx, view, current.business_id, EVENT_OF_ACTION[action]);
    return { ok: true, view, eventId };
  });
}
