import type { DeviceOrderKind, DeviceOrderStatus, NextActor, RemovalReason } from './domain.ts';

/** A device_order row joined with its device, as the database returns it. */
export interface DeviceOrderRow {
  id: number;
  kind: DeviceOrderKind;
  status: DeviceOrderStatus;
  next_actor: NextActor;
  device_id: number;
  device_code: string;
  device_name: string;
  device_type: string;
  grid_code: string;
  reference_number: string;
  order_id: number | null;
  external_order_id: string | null;
  due_at: Date | string;
  overdue_at: Date | string | null;
  stored_at: Date | string;
  ended_at: Date | string | null;
  removal_reason: RemovalReason | null;
}

/** The specification's data.device_order; the pickup code is not part of it by construction. */
export interface DeviceOrderView {
  id: number;
  kind: DeviceOrderKind;
  status: DeviceOrderStatus;
  next_actor: NextActor;
  device_type: string;
  device_id: string;
  device_name: string;
  grid_code: string;
  reference_number: string;
  order_id: number | null;
  external_order_id: string | null;
  due_at: string;
  overdue_at: string | null;
  stored_at: string;
  ended_at: string | null;
  removal_reason: RemovalReason | null;
}

const iso = (v: Date | string): string => new Date(v).toISOString();
const isoOrNull = (v: Date | string | null): string | null => (v === null ? null : iso(v));

export function presentDeviceOrder(r: DeviceOrderRow): DeviceOrderView {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    next_actor: r.next_actor,
    device_type: r.device_type,
    device_id: r.device_code,
    device_name: r.device_name,
    grid_code: r.grid_code,
    reference_number: r.reference_number,
    order_id: r.order_id,
    external_order_id: r.external_order_id,
    due_at: iso(r.due_at),
    overdue_at: isoOrNull(r.overdue_at),
    stored_at: iso(r.stored_at),
    ended_at: isoOrNull(r.ended_at),
    removal_reason: r.removal_reason,
  };
}
