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
  DELETED: 3051,
  CONTRACTOR_ASSIGNED: 3061,
  CONTRACTOR_ENDED: 3062,
  PROVIDER_HANDOVER: 3071,
  API_STATUS_UPDATE: 6002,
  CARRIER_ACCEPTED: 6007,
  CARRIER_STATUS_PUSH: 6008,
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
