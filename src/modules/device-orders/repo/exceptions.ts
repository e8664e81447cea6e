/**
 * Device order exceptions in the read model. Each open or close is one transaction with its ledger row and its
 * device_order.exception_* event; the partial unique index keeps one open exception per type and order.
 */
import type { Em } from '../../../platform/db/orm.ts';
import { findDeviceOrder, PICKUP_LOCKED, recordDeviceOrderEvent, recordHistory } from './orders.ts';
import {
  DEFAULT_SEVERITY,
  type ClosedStatus,
  type ExceptionRecord,
  type ExceptionSeverity,
  type ExceptionType,
  type ExceptionView,
  type ResolutionAction,
} from '../exceptions.ts';
import { iso, isoOrNull, type DeviceOrderView } from '../views.ts';

/** What an exception's open or close wrote: the order and the exception as its event carries them. */
export interface ExceptionChange {
  device_order: DeviceOrderView;
  exception: ExceptionView;
}

const VIEW_COLUMNS = 'id, type, severity, status, resolution_action';

async function publishException(
  em: Em,
  businessId: number,
  id: number,
  exception: ExceptionView,
  eventType: string,
): Promise<ExceptionChange> {
  const view = (await findDeviceOrder(em, businessId, id))!;
  await recordDeviceOrderEvent(em, view, businessId, eventType, { exception });
  return { device_order: view, exception };
}

export interface NewException {
  type: ExceptionType;
  severity?: ExceptionSeverity;
  actorId: number | null;
}

/**
 * Opens an exception with its device_order.exception_opened event; null when one of the type is open already
 * (nothing written then). Null as well when the order does not exist.
 */
export async function openException(em: Em, id: number, e: NewException): Promise<ExceptionChange | null> {
  return em.transactional(async (tx) => {
    const [exception] = await tx.execute<(ExceptionView & { business_id: number })[]>(
      `insert into device_order_exception (device_order_id, business_id, type, severity, opened_by)
       select o.id, o.business_id, ?, ?, ? from device_order o where o.id = ?
       on conflict (device_order_id, type) where status = 'open' do nothing returning business_id, ${VIEW_COLUMNS}`,
      [e.type, e.severity ?? DEFAULT_SEVERITY[e.type], e.actorId, id],
    );
    if (!exception) return null;
    const { business_id: businessId, ...view } = exception;
    return publishException(tx, businessId, id, view, 'device_order.exception_opened');
  });
}

export interface ExceptionClosing {
  status: ClosedStatus;
  resolutionAction: ResolutionAction;
  actorId: number | null;
}

/**
 * Closes an open exception, chosen by id or by type, with its device_order.exception_resolved event; null when
 * no such exception of the order is open.
 */
export async function closeException(
  em: Em,
  id: number,
  which: { exceptionId: number } | { type: ExceptionType },
  c: ExceptionClosing,
): Promise<ExceptionChange | null> {
  const [column, value] = 'exceptionId' in which ? ['id', which.exceptionId] : ['type', which.type];
  return em.transactional(async (tx) => {
    const [exception] = await tx.execute<(ExceptionView & { business_id: number })[]>(
      `update device_order_exception set status = ?, resolution_action = ?, closed_by = ?, closed_at = now()
       where device_order_id = ? and ${column} = ? and status = 'open' returning business_id, ${VIEW_COLUMNS}`,
      [c.status, c.resolutionAction, c.actorId, id, value],
    );
    if (!exception) return null;
    const { business_id: businessId, ...view } = exception;
    return publishException(tx, businessId, id, view, 'device_order.exception_resolved');
  });
}

/** The types of the order's open exceptions. */
export async function openExceptionTypes(em: Em, id: number): Promise<ExceptionType[]> {
  const rows = await em.execute<{ type: ExceptionType }[]>(
    "select type from device_order_exception where device_order_id = ? and status = 'open' order by id",
    [id],
  );
  return rows.map((r) => r.type);
}

/** The order's exceptions, oldest first; the caller has checked that the order is the business's. */
export async function listExceptions(em: Em, id: number): Promise<ExceptionRecord[]> {
  const rows = await em.execute<(ExceptionView & { opened_at: Date | string; closed_at: Date | string | null })[]>(
    `select ${VIEW_COLUMNS}, opened_at, closed_at from device_order_exception where device_order_id = ? order by id`,
    [id],
  );
  return rows.map((r) => ({ ...r, opened_at: iso(r.opened_at), closed_at: isoOrNull(r.closed_at) }));
}

/** One exception of the order, or null. */
export async function findException(em: Em, id: number, exceptionId: number): Promise<ExceptionView | null> {
  const [row] = await em.execute<ExceptionView[]>(
    `select ${VIEW_COLUMNS} from device_order_exception where device_order_id = ? and id = ?`,
    [id, exceptionId],
  );
  return row ?? null;
}

/**
 * A pickup lock, in the failure's transaction: opens a pickup_code_locked exception with its event, or, while one
 * is open, writes the lock to the history only. The process finds the exception before it ends (it stays open for it).
 */
export async function recordPickupLock(em: Em, businessId: number, id: number): Promise<void> {
  const opened = await openException(em, id, { type: 'pickup_code_locked', actorId: null });
  if (!opened) await recordHistory(em, id, businessId, PICKUP_LOCKED);
}
