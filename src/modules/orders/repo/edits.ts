/**
 * Data access of the edits and holds (docs/orders.md, "Edits and holds"): the orders an edit reads are locked first,
 * so that an edit, a hold, a contractor assignment (which locks the same rows) and a carrier's status push are
 * serialised per order; the fields are then written in one statement.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { Address, Recipient } from '../entities.ts';
import type { OrderPrice } from '../hooks.ts';
import { LIST_COLUMNS, orderVisibleTo, type OrderFacts, type OrderListRow, type OrderViewer } from './orders.ts';

/** An order as an edit sees it: what the rules look at, what the trail keeps as the old value, what events say. */
export interface EditedOrder extends OrderFacts {
  orderRef: string | null;
  carrierProviderId: number | null;
  routeId: number | null;
  recipient: Recipient;
  note: string | null;
  deliveryInstruction: string | null;
  timeWindowStart: Date | null;
  timeWindowEnd: Date | null;
  /** Its price (docs/orders.md, Local prices), each null when it is not priced: the trail keeps it when a reroute reprices it. */
  shippingPrice: string | null;
  tax: string | null;
  currency: string | null;
  priceDetails: Record<string, unknown>[] | null;
}

const EDIT_COLUMNS = `o.id, o.business_id as "businessId", o.order_ref as "orderRef", o.tracking_number as "trackingNumber",
  o.type, o.status_id as "statusId", o.carrier_provider_id as "carrierProviderId", o.route_id as "routeId", o.recipient,
  o.note, o.delivery_instruction as "deliveryInstruction", o.time_window_start as "timeWindowStart",
  o.time_window_end as "timeWindowEnd", o.created_at as "createdAt", o.shipping_price::text as "shippingPrice",
  o.tax::text as tax, o.currency, o.price_details as "priceDetails"`;

/**
 * Locks the orders the viewer may see (orderVisibleTo) among those with these ids or these references, in id order
 * so that two batches cannot deadlock, and answers them. An order out of the viewer's reach is not answered.
 */
export async function lockOrdersForEdit(
  em: Em,
  viewer: OrderViewer,
  by: { ids: readonly number[] } | { refs: readonly string[] },
): Promise<EditedOrder[]> {
  const rule = orderVisibleTo(viewer);
  const [column, values] = 'ids' in by ? ['o.id', by.ids] : ['o.order_ref', by.refs];
  if (values.length === 0) return [];
  return em.execute<EditedOrder[]>(
    `select ${EDIT_COLUMNS} from delivery_order o where ${column} in (?) and ${rule.sql} order by o.id for update of o`,
    [values, ...rule.params],
  );
}

/**
 * One order the viewer may see (orderVisibleTo) as an edit sees it, with its packages' weights in position order, not
 * locked: what a reroute prices at its new address before its transaction opens, so that a road route is never asked
 * for while the order is locked. Null when it is out of the viewer's reach.
 */
export async function orderToReprice(
  em: Em,
  viewer: OrderViewer,
  id: number,
): Promise<(EditedOrder & { packageWeightsGrams: (number | null)[] }) | null> {
  const rule = orderVisibleTo(viewer);
  const rows = await em.execute<(EditedOrder & { packageWeightsGrams: (number | null)[] })[]>(
    `select ${EDIT_COLUMNS},
       array(select pk.weight_grams from order_package pk where pk.order_id = o.id order by pk.position) as "packageWeightsGrams"
     from delivery_order o where o.id = ? and ${rule.sql}`,
    [id, ...rule.params],
  );
  return rows[0] ?? null;
}

/** What an edit writes; a field left out is kept. */
export interface OrderFieldChange {
  note?: string | null;
  deliveryInstruction?: string | null;
  timeWindow?: { start: Date; end: Date } | null;
  address?: Address;
  /** The order's price, all four columns; null leaves it unpriced. */
  price?: OrderPrice | null;
}

/** Writes one change to these orders in one statement, in the caller's transaction. */
export async function setOrderFields(em: Em, ids: readonly number[], change: OrderFieldChange): Promise<void> {
  if (ids.length === 0) return;
  const params: unknown[] = [ids];
  const bind = (value: unknown) => `$${params.push(value)}`;
  const sets: string[] = [];
  if (change.note !== undefined) sets.push(`note = ${bind(change.note)}`);
  if (change.deliveryInstruction !== undefined) sets.push(`delivery_instruction = ${bind(change.deliveryInstruction)}`);
  if (change.timeWindow !== undefined)
    sets.push(
      `time_window_start = ${bind(change.timeWindow?.start.toISOString() ?? null)}::timestamptz`,
      `time_window_end = ${bind(change.timeWindow?.end.toISOString() ?? null)}::timestamptz`,
    );
  if (change.address !== undefined)
    sets.push(`recipient = jsonb_set(recipient, '{address}', ${bind(JSON.stringify(change.address))}::jsonb)`);
  if (change.price !== undefined)
    sets.push(
      `shipping_price = ${bind(change.price?.shippingPrice ?? null)}::numeric`,
      `tax = ${bind(change.price?.tax ?? null)}::numeric`,
      `currency = ${bind(change.price?.currency ?? null)}`,
      `price_details = ${bind(change.price ? JSON.stringify(change.price.priceDetails) : null)}::jsonb`,
    );
  if (sets.length === 0) return;
  await executeBound(
    em,
    `update delivery_order set ${sets.join(', ')}, updated_at = now() where id = any($1::int[])`,
    params,
  );
}

/** The order as every order answer shows it, read after an edit. */
export async function findOrderRow(em: Em, id: number): Promise<OrderListRow | null> {
  const rows = await em.execute<OrderListRow[]>(`select ${LIST_COLUMNS} from delivery_order o where o.id = ?`, [id]);
  return rows[0] ?? null;
}
