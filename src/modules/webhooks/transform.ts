/**
 * Shapes one webhook payload for the receiver of one delivery (spec: cross-cutting rule 2 and "Price hiding
 * and carrier-held shipments in webhooks"). Pure: the input is never changed, and a key no rule names keeps
 * its value and its position, so an event no rule touches is sent exactly as written to the outbox.
 * The rules are the tables below; the code under them only walks the payload.
 */
import type { PriceFamily } from '../../platform/db/outbox.ts';
import { isObject } from '../../platform/json.ts';
import { CARRIER_OPERATION_TYPES, CARRIER_STATUSES, ORDER_STATUSES } from '../orders/index.ts';

export { PRICE_FAMILIES, type PriceFamily } from '../../platform/db/outbox.ts';

export interface Recipient {
  /** A customer override of the webhook settings, as opposed to the merchant's own settings. */
  toCustomer: boolean;
  hiddenFamilies: readonly PriceFamily[];
}

export interface EventFacts {
  eventType: string;
  /** The order family the event belongs to; null for events outside any priced family. */
  family: PriceFamily | null;
  /** The shipment is moved by another carrier. */
  carrierHeld: boolean;
}

// ---- Price hiding: for a hidden family these keys are deleted at any depth. Deleted, never set to 0 or
// null, because "a missing figure never means free" while a 0 would read as free. `price` covers rates[].price;
// rate_id and service names stay, as the spec asks for rate lists.
export const PRICE_KEYS: ReadonlySet<string> = new Set([
  'shipping_price',
  'price_details',
  'currency',
  'tax',
  'surcharge',
  'surcharges',
  'surcharge_amount',
  'price',
  'rate_price',
  'paid_amount',
  'amount_paid',
]);

// ---- Carrier-held shipments, customer receivers only: the customer sees the shipment as if we moved it.

/**
 * order.status_change operation types of the carrier and the type sent instead, and the carrier statuses and the
 * status sent instead in every event: the orders module's maps (orders/domain.ts), which its order answers to a
 * customer account use too, so a customer sees the same order in its webhooks and in order_snapshot.
 */
export { CARRIER_OPERATION_TYPES, CARRIER_STATUSES };
/** Set to "" on the object whose operation_type was rewritten: they name the carrier's operator and host. */
const OPERATION_FIELDS_EMPTIED = ['operation_description', 'ip_address'] as const;

/** Keys holding an order status id. A bare `status` is left out: device orders and others use it for their own values. */
export const STATUS_ID_KEYS: ReadonlySet<string> = new Set([
  'status_id',
  'order_status_id',
  'before_status',
  'after_status',
  'current_status',
  'previous_status',
  'tracking_event_status_id',
]);

/** price_details entries that exist only because a carrier moves the shipment. */
export const CARRIER_PRICE_DETAILS = ['third_party_cost_plus', 'third_party_partial_delivery_deduction'] as const;

/**
 * tracking.event entries (objects with a `description`) lose these place fields, and their description becomes
 * the plain name of their status: a carrier's free text names its facilities and cannot be cleaned reliably.
 */
export const CARRIER_PLACE_KEYS: ReadonlySet<string> = new Set([
  'location',
  'place',
  'city',
  'province',
  'country',
  'postal_code',
  'latitude',
  'longitude',
]);

/** order.cancel_failed: keys of `data` that hold the carrier's refusal code, and the code sent instead. */
export const REFUSAL_CODE_KEYS = ['reason_code', 'code', 'error_code'] as const;
export const CANCEL_REFUSED_CODE = 'ORDER_CANCEL_REFUSED';

// ---- Derived lookups

const statusById = new Map<number, (typeof ORDER_STATUSES)[number]>(ORDER_STATUSES.map((s) => [s.id, s]));
/** A status's code or name written as text (for example `status_code: 'CARRIER_ON_THE_WAY'`) is replaced too. */
const carrierStatusText = new Map<string, string>(
  [...CARRIER_STATUSES].flatMap(([from, to]) => {
    const a = statusById.get(from)!;
    const b = statusById.get(to)!;
    return [
      [a.code, b.code],
      [a.name, b.name],
    ] as [string, string][];
  }),
);

// ---- The walk

type JsonObject = Record<string, unknown>;

/** Calls `fn` on every object in the tree, parents first, so children `fn` deleted are not visited. */
function eachObject(value: unknown, fn: (object: JsonObject) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) eachObject(item, fn);
  } else if (isObject(value)) {
    fn(value);
    for (const child of Object.values(value)) eachObject(child, fn);
  }
}

function maskStatuses(object: JsonObject): void {
  for (const [key, value] of Object.entries(object)) {
    if (STATUS_ID_KEYS.has(key) && typeof value === 'number' && CARRIER_STATUSES.has(value))
      object[key] = CARRIER_STATUSES.get(value);
    else if (typeof value === 'string' && carrierStatusText.has(value)) object[key] = carrierStatusText.get(value);
  }
}

function maskOperation(object: JsonObject): void {
  const type = object.operation_type;
  if (typeof type !== 'number' || !CARRIER_OPERATION_TYPES.has(type)) return;
  object.operation_type = CARRIER_OPERATION_TYPES.get(type);
  for (const key of OPERATION_FIELDS_EMPTIED) object[key] = '';
}

function dropCarrierPriceDetails(object: JsonObject): void {
  const details = object.price_details;
  for (const entry of Array.isArray(details) ? details : [details]) {
    if (isObject(entry)) for (const key of CARRIER_PRICE_DETAILS) delete entry[key];
  }
}

function maskTrackingEntry(object: JsonObject): void {
  if (!('description' in object)) return;
  for (const key of CARRIER_PLACE_KEYS) delete object[key];
  const statusId = Object.entries(object).find(
    ([key, value]) => STATUS_ID_KEYS.has(key) && typeof value === 'number',
  )?.[1];
  object.description = (typeof statusId === 'number' && statusById.get(statusId)?.name) || '';
}

function maskCarrier(payload: JsonObject, eventType: string): void {
  eachObject(payload, (object) => {
    maskStatuses(object);
    dropCarrierPriceDetails(object);
    if (eventType === 'order.status_change') maskOperation(object);
    // After maskStatuses, so the generic description is the one of the status the customer sees.
    if (eventType === 'tracking.event') maskTrackingEntry(object);
  });
  const data = payload.data;
  if (eventType === 'order.cancel_failed' && isObject(data)) {
    for (const key of REFUSAL_CODE_KEYS) if (key in data) data[key] = CANCEL_REFUSED_CODE;
  }
}

function hidePrices(payload: JsonObject): void {
  eachObject(payload, (object) => {
    for (const key of Object.keys(object)) if (PRICE_KEYS.has(key)) delete object[key];
  });
  // "Such responses carry price_hidden: true": in `data` beside the fields it explains, or at the top level
  // for a payload without a `data` object.
  if (isObject(payload.data)) payload.data.price_hidden = true;
  else payload.price_hidden = true;
}

/**
 * The payload as this recipient may see it: a changed copy when something is masked or hidden from it, else
 * the payload itself (the relay sends one event to many receivers). The input is never modified.
 */
export function shapeForRecipient(
  payload: Record<string, unknown>,
  facts: EventFacts,
  recipient: Recipient,
): Record<string, unknown> {
  const mask = recipient.toCustomer && facts.carrierHeld;
  const hide = facts.family !== null && recipient.hiddenFamilies.includes(facts.family);
  if (!mask && !hide) return payload;
  const shaped = structuredClone(payload);
  if (mask) maskCarrier(shaped, facts.eventType);
  if (hide) hidePrices(shaped);
  return shaped;
}

/** A receiver as the database holds it: its settings row's customer and that customer's hidden families. */
export interface RecipientRow {
  customer_id: number | null;
  hidden_price_families: readonly PriceFamily[];
}

/** An outbox event with the facts it was written with. */
export interface EventRow {
  event_type: string;
  payload: Record<string, unknown>;
  family: PriceFamily | null;
  carrier_held: boolean;
}

/** The payload one delivery sends: the same transform for the relay's first attempt and every retry. */
export function payloadFor(event: EventRow, recipient: RecipientRow): Record<string, unknown> {
  return shapeForRecipient(
    event.payload,
    { eventType: event.event_type, family: event.family, carrierHeld: event.carrier_held },
    { toCustomer: recipient.customer_id !== null, hiddenFamilies: recipient.hidden_price_families },
  );
}
