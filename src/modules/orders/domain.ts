import { randomBytes } from 'node:crypto';

/**
 * The order status dictionary (docs/order-statuses.md). Ids are stable: a published id never changes
 * meaning. `assignable` marks the statuses in which an order may be handed to a contractor.
 */
export const ORDER_STATUSES = [
  { id: 1, code: 'NEW_ORDER', name: 'new order', assignable: true },
  { id: 2, code: 'ON_THE_WAY', name: 'on the way (delivery started)', assignable: false },
  { id: 3, code: 'DELIVERED', name: 'delivery success', assignable: false },
  { id: 4, code: 'DELIVERY_FAILED', name: 'delivery failed', assignable: false },
  { id: 5, code: 'CANCELLED', name: 'cancelled', assignable: false },
  { id: 6, code: 'PICKUP_STARTED', name: 'pickup started', assignable: false },
  { id: 7, code: 'PICKED_UP', name: 'picked up', assignable: false },
  { id: 8, code: 'HOLD', name: 'on hold (not dispatched until released)', assignable: false },
  { id: 12, code: 'RESCHEDULE_NEEDED', name: 'delivery failed, needs rescheduling', assignable: true },
  { id: 13, code: 'REDISPATCH_LATER', name: 'delivery failed, redispatch later', assignable: true },
  { id: 14, code: 'REFUSED_BY_RECIPIENT', name: 'delivery failed, refused by recipient', assignable: false },
  { id: 15, code: 'RETURNED_TO_SENDER', name: 'returned to the sender (interception outcome)', assignable: false },
  { id: 29, code: 'AT_WAREHOUSE', name: 'received at warehouse', assignable: true },
  {
    id: 33,
    code: 'CARRIER_AT_WAREHOUSE',
    name: 'at the carrier warehouse (shown to customers as 29)',
    assignable: false,
  },
  {
    id: 43,
    code: 'CARRIER_ON_THE_WAY',
    name: 'on the way with the carrier (shown to customers as 2)',
    assignable: false,
  },
  { id: 48, code: 'INTERCEPTED', name: 'intercepted', assignable: false },
  { id: 60, code: 'LABEL_PURCHASE_FAILED', name: 'label order kept without a carrier label', assignable: false },
] as const;

export type OrderStatusCode = (typeof ORDER_STATUSES)[number]['code'];
export type OrderStatusId = (typeof ORDER_STATUSES)[number]['id'];

export const ORDER_STATUS = Object.fromEntries(ORDER_STATUSES.map((s) => [s.code, s.id])) as {
  [K in OrderStatusCode]: Extract<(typeof ORDER_STATUSES)[number], { code: K }>['id'];
};

export const ASSIGNABLE_STATUS_IDS: readonly number[] = ORDER_STATUSES.filter((s) => s.assignable).map((s) => s.id);
export const ORDER_STATUS_IDS: readonly number[] = ORDER_STATUSES.map((s) => s.id);

/**
 * The operation types (docs/order-statuses.md, "Operation types"): what changed an order, on its status changes
 * (order.status_change `operation_type`) and in its audit trail. 3043-3045 and 6012-6014 are the specification's
 * interception codes; 6007-6010 and 2009 a carrier's, which customer accounts see masked. A published code never
 * changes meaning.
 */
export const ORDER_OPERATION = {
  CREATED: 1001,
  WAREHOUSE_SCAN: 2002,
  CARRIER_WAREHOUSE_SCAN: 2009,
  DELIVERY_INSTRUCTION_UPDATED: 3011,
  NOTE_UPDATED: 3012,
  TIME_WINDOW_UPDATED: 3013,
  REROUTED: 3014,
  HELD: 3031,
  RELEASED: 3032,
  CANCELLED: 3041,
  CANCEL_REFUSED: 3042,
  INTERCEPTED_BACK_OFFICE: 3043,
  INTERCEPT_OUTCOME_BACK_OFFICE: 3044,
  INTERCEPT_WITHDRAWN_BACK_OFFICE: 3045,
  INTERCEPT_STEP: 3046,
  INTERCEPT_FAILED: 3047,
  DELETED: 3051,
  CONTRACTOR_ASSIGNED: 3061,
  CONTRACTOR_ENDED: 3062,
  PROVIDER_HANDOVER: 3071,
  DRIVER_ASSIGNED: 3081,
  DRIVER_UNASSIGNED: 3082,
  ROUTE_PLANNED: 3083,
  ROUTE_REMOVED: 3084,
  AUTO_ASSIGNED: 3085,
  DRIVER_ACCEPTED: 4001,
  DRIVER_REJECTED: 4002,
  DRIVER_PICKUP_STARTED: 4011,
  DRIVER_PICKED_UP: 4012,
  DRIVER_ON_THE_WAY: 4013,
  DRIVER_DELIVERED: 4014,
  DRIVER_DELIVERY_FAILED: 4015,
  DRIVER_READY: 4016,
  POD_FILE_CHANGED: 4021,
  API_STATUS_UPDATE: 6002,
  CARRIER_ACCEPTED: 6007,
  CARRIER_STATUS_PUSH: 6008,
  /** A label order's carrier refused or timed out: the order is kept in LABEL_PURCHASE_FAILED (docs/labels.md). */
  LABEL_PURCHASE_FAILED: 6011,
  INTERCEPTED_API: 6012,
  INTERCEPT_OUTCOME_API: 6013,
  INTERCEPT_WITHDRAWN_API: 6014,
  /** Not stored: the trail's read shows each webhook delivery about the order under this code. */
  WEBHOOK_SENT: 9001,
} as const;
export type OrderOperationType = (typeof ORDER_OPERATION)[keyof typeof ORDER_OPERATION];

const STATUS_CODE = new Map<number, string>(ORDER_STATUSES.map((s) => [s.id, s.code]));

/** The code of a status id, as API answers and events name it. */
export const statusCodeOf = (id: number): string => STATUS_CODE.get(id) ?? 'UNKNOWN';

/**
 * A carrier's operation types and the type a customer account sees instead (its webhooks, webhooks/transform.ts,
 * and its order answers, order_snapshot): the first digit names the channel (1 order entry, 2 warehouse, 3 back office, 4 driver app, 6 API),
 * so each carrier step reads as our step of the same kind: the carrier accepting the order as the order's creation,
 * its warehouse scan as our warehouse scan, its status pushes as our generic API status update.
 */
export const CARRIER_OPERATION_TYPES: ReadonlyMap<number, number> = new Map([
  [6007, 1001], // carrier accepted the order      -> order created
  [2009, 2002], // carrier warehouse scan          -> warehouse scan
  [6008, 6002], // carrier status push             -> API status update
  [6009, 6002],
  [6010, 6002],
]);

/** A carrier's statuses and the status a customer account sees instead (as CARRIER_OPERATION_TYPES). */
export const CARRIER_STATUSES: ReadonlyMap<number, number> = new Map([
  [33, 29], // at the carrier warehouse -> received at warehouse
  [43, 2], // on the way with the carrier -> on the way
]);

/** A status id as a customer account sees it: a carrier's status as ours. */
export const customerStatusOf = (id: number): number => CARRIER_STATUSES.get(id) ?? id;

/** An operation type as a customer account sees it: a carrier's step as ours. */
export const customerOperationOf = (type: number): number => CARRIER_OPERATION_TYPES.get(type) ?? type;

/** An order holds 1 to MAX_PACKAGES packages (docs/distribution.md). */
export const MAX_PACKAGES = 50;

/** What a package is created with; every field may be unknown. */
export interface PackageSpec {
  weightGrams?: number | null;
  lengthMm?: number | null;
  widthMm?: number | null;
  heightMm?: number | null;
  /** The carrier's own number for the package. */
  carrierReference?: string | null;
}

/** A tracking number: an order's, which is its first package's, or another package's. */
export function newTrackingNumber(): string {
  return `TMS${randomBytes(6).toString('hex').toUpperCase()}`;
}

/**
 * How far an order has gone, for the changes that must still reach whoever carries it (docs/orders.md, "Edits and
 * holds"): `waiting` for dispatch (new, held, rescheduled, at the warehouse, label failed), `out` with a driver or a
 * carrier (pickup started, picked up, on the way), a failed attempt, refused by the recipient, delivered, cancelled
 * returned to the sender, or intercepted. Every status has a stage, so a new status cannot be added without deciding where edits stop.
 */
export type OrderStage =
  'waiting' | 'out' | 'failed' | 'refused' | 'returned' | 'delivered' | 'cancelled' | 'intercepted';

const STAGE_OF_STATUS: Record<OrderStatusId, OrderStage> = {
  1: 'waiting',
  2: 'out',
  3: 'delivered',
  4: 'failed',
  5: 'cancelled',
  6: 'out',
  7: 'out',
  8: 'waiting',
  12: 'waiting',
  13: 'waiting',
  14: 'refused',
  15: 'returned',
  29: 'waiting',
  33: 'out',
  43: 'out',
  48: 'intercepted',
  60: 'waiting',
};

export const stageOf = (statusId: number): OrderStage => STAGE_OF_STATUS[statusId as OrderStatusId] ?? 'out';

/** Why an edit or a hold is refused: a message key, translated for the caller (orders/messages.ts). */
export type OrderEditRefusal =
  | 'order.edit.out_for_delivery'
  | 'order.edit.delivery_failed'
  | 'order.edit.refused_by_recipient'
  | 'order.edit.returned'
  | 'order.edit.delivered'
  | 'order.edit.cancelled'
  | 'order.edit.intercepted'
  | 'order.edit.carrier_held'
  | 'order.hold.already_held'
  | 'order.hold.on_route'
  | 'order.hold.not_dispatchable'
  | 'order.release.not_held';

const REFUSAL_OF_STAGE: Record<Exclude<OrderStage, 'waiting'>, OrderEditRefusal> = {
  out: 'order.edit.out_for_delivery',
  failed: 'order.edit.delivery_failed',
  refused: 'order.edit.refused_by_recipient',
  returned: 'order.edit.returned',
  delivered: 'order.edit.delivered',
  cancelled: 'order.edit.cancelled',
  intercepted: 'order.edit.intercepted',
};

/** What the edit rules look at. */
export interface EditableOrder {
  statusId: number;
  carrierProviderId?: number | null;
  routeId?: number | null;
}

/**
 * THE rule of what the driver can still be told: the delivery instruction, the note and the time window change only
 * while the order waits for dispatch and the business carries it itself. Once a driver has set off (pickup started,
 * picked up, on the way), a delivery attempt failed, or the order is delivered, refused, cancelled or intercepted,
 * the change could no longer reach whoever carries it and is refused with the stage's reason. An order a
 * third-party provider carries is refused too: the provider has the parcel and its own instructions.
 */
export function detailEditRefusal(o: EditableOrder): OrderEditRefusal | null {
  const stage = stageOf(o.statusId);
  if (stage !== 'waiting') return REFUSAL_OF_STAGE[stage];
  if (o.carrierProviderId != null) return 'order.edit.carrier_held';
  return null;
}

/**
 * A new recipient address (reroute_to_address, high risk) is taken until the parcel reaches its end: also while out
 * for delivery or after a failed attempt, the person confirming it being the one who tells the driver. Refused once
 * delivered, refused by the recipient, returned, cancelled, or intercepted (the interception's outcome decides where it goes),
 * and for an order a third-party provider carries (its address is the provider's to change, through an interception).
 */
export function rerouteRefusal(o: EditableOrder): OrderEditRefusal | null {
  const stage = stageOf(o.statusId);
  if (stage !== 'waiting' && stage !== 'out' && stage !== 'failed') return REFUSAL_OF_STAGE[stage];
  if (o.carrierProviderId != null) return 'order.edit.carrier_held';
  return null;
}

/**
 * An order may be held (HOLD, 8) while it waits for dispatch: in a status from which it is dispatched (NEW_ORDER,
 * AT_WAREHOUSE, RESCHEDULE_NEEDED, REDISPATCH_LATER), on no route, and carried by the business itself. HOLD is in no
 * assignable status list, so while held no planning pool, contractor assignment or provider handover takes it.
 */
export function holdRefusal(o: EditableOrder): OrderEditRefusal | null {
  if (o.statusId === ORDER_STATUS.HOLD) return 'order.hold.already_held';
  const stage = stageOf(o.statusId);
  if (stage !== 'waiting') return REFUSAL_OF_STAGE[stage];
  if (o.carrierProviderId != null) return 'order.edit.carrier_held';
  if (o.routeId != null) return 'order.hold.on_route';
  if (!ASSIGNABLE_STATUS_IDS.includes(o.statusId)) return 'order.hold.not_dispatchable';
  return null;
}

/** Only a held order is released, back to NEW_ORDER. */
export const releaseRefusal = (o: EditableOrder): OrderEditRefusal | null =>
  o.statusId === ORDER_STATUS.HOLD ? null : 'order.release.not_held';
