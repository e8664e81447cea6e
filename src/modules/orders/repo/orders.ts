import { executeBound, type Em } from '../../../platform/db/orm.ts';
import { insertOutboxEvents, type PriceFamily } from '../../../platform/db/outbox.ts';
import type { Role } from '../../../platform/roles.ts';
import { Order } from '../entities.ts';
import { SYSTEM_ACTOR, type OrderActor } from '../actor.ts';
import { appendOrderTrail } from './trail.ts';
import type { OrderAudience } from '../views.ts';
import { ASSIGNABLE_STATUS_IDS, statusCodeOf, type OrderOperationType } from '../domain.ts';

/** What a list shows of an order; an Order entity has these fields too. */
export type OrderListRow = Pick<
  Order,
  | 'id'
  | 'type'
  | 'orderRef'
  | 'trackingNumber'
  | 'statusId'
  | 'scheduledDate'
  | 'recipient'
  | 'note'
  | 'deliveryInstruction'
  | 'timeWindowStart'
  | 'timeWindowEnd'
  | 'selfDelivery'
  | 'routeId'
  | 'driverId'
  | 'pickup'
  | 'requiredSkills'
  | 'serviceMinutes'
  | 'createdAt'
  | 'customerId'
  | 'shippingPrice'
  | 'tax'
  | 'currency'
  | 'priceDetails'
  | 'priceFamily'
>;

/** The columns of an OrderListRow, named as its fields, so a list is read as plain rows (no entity, no unit of work). */
export const LIST_COLUMNS = `o.id, o.type, o.order_ref as "orderRef", o.tracking_number as "trackingNumber", o.status_id as "statusId",
  o.scheduled_date::text as "scheduledDate", o.recipient, o.note, o.delivery_instruction as "deliveryInstruction",
  o.time_window_start as "timeWindowStart", o.time_window_end as "timeWindowEnd", o.self_delivery as "selfDelivery",
  o.route_id as "routeId", o.driver_id as "driverId", o.pickup, o.required_skills as "requiredSkills",
  o.service_minutes as "serviceMinutes", o.created_at as "createdAt", o.customer_id as "customerId",
  o.shipping_price::text as "shippingPrice", o.tax::text as tax, o.currency, o.price_details as "priceDetails",
  o.price_family as "priceFamily"`;

/**
 * The orders a planner may plan: not on a route, a self-delivery order, in an assignable status, not held by
 * a carrier, and either unassigned or (for a contractor) actively assigned to that contractor. An actively
 * assigned order leaves every other contractor's pool and the client's own planning pool.
 */
export async function plannableOrders(
  em: Em,
  businessId: number,
  forBrokerId: number | null,
  limit = 500,
): Promise<OrderListRow[]> {
  const assigned =
    forBrokerId === null
      ? "not exists (select 1 from broker_order_assignment a where a.order_id = o.id and a.status = 'active')"
      : "not exists (select 1 from broker_order_assignment a where a.order_id = o.id and a.status = 'active' and a.broker_id <> ?)";
  const params: unknown[] = [businessId, ...(forBrokerId === null ? [] : [forBrokerId]), limit];
  const statusList = ASSIGNABLE_STATUS_IDS.join(',');
  return em.execute<OrderListRow[]>(
    `select ${LIST_COLUMNS} from delivery_order o
     where o.business_id = ? and o.route_id is null and o.self_delivery and o.carrier_provider_id is null
       and o.status_id in (${statusList}) and ${assigned}
     order by o.scheduled_date, o.id limit ?`,
    params,
  );
}

/** What events say about an order; an Order entity has these fields. */
export interface OrderFacts {
  id: number;
  businessId: number;
  orderRef?: string | null;
  trackingNumber: string;
  type: string;
  statusId: number;
  carrierProviderId?: number | null;
  /** Its price family (delivery_order.price_family): local_delivery unless it is a label order. */
  priceFamily?: PriceFamily | null;
  createdAt?: Date | string;
}

export interface StatusChange {
  before: number | null;
  after: number;
  operationType: number;
  description: string;
  ipAddress?: string;
  /** The carrier's tracking event that caused the change: the timeline shows that event, not a synthesized one. */
  trackingEventId?: string | null;
  /** Who made the change, for the audit trail; the service itself when absent. */
  actor?: OrderActor;
  /** What the audit trail keeps besides the description (the reason, the interception's id). */
  details?: Record<string, unknown>;
}

/** The order as events describe it: what a receiver needs to find it, never the recipient's details. */
export function orderSummaryOf(o: OrderFacts) {
  return {
    id: o.id,
    order_ref: o.orderRef ?? null,
    tracking_number: o.trackingNumber,
    type: o.type,
    status_id: o.statusId,
    status: statusCodeOf(o.statusId),
  };
}

/** Held by another carrier: customers' deliveries are masked (transform.ts). */
export const carrierHeld = (o: OrderFacts) => o.carrierProviderId != null;

/**
 * The price family of the order's events (docs/webhooks.md, "Price families"): the order row's own, which every
 * reader of OrderFacts that can see a label order selects; local_delivery for facts read without it.
 */
export const priceFamilyOf = (o: OrderFacts): PriceFamily => o.priceFamily ?? 'local_delivery';

/**
 * Data access: MikroORM entities for the order row; SQL for the history and its events, written in one statement.
 * New orders are written by repo/placement.ts.
 */

export interface PackageRow {
  position: number;
  package_number: string;
  weight_grams: number | null;
  length_mm: number | null;
  width_mm: number | null;
  height_mm: number | null;
  carrier_reference: string | null;
}

/** The order's packages in position order. */
export function findPackages(em: Em, orderId: number): Promise<PackageRow[]> {
  return em.execute<PackageRow[]>(
    'select position, package_number, weight_grams, length_mm, width_mm, height_mm, carrier_reference from order_package where order_id = ? order by position',
    [orderId],
  );
}

export async function findOrder(em: Em, businessId: number, id: number): Promise<Order | null> {
  return em.findOne(Order, { id, businessId });
}

/** A page of the business's orders (those of one customer account when `customerId` is given), newest first, with the total. */
export async function listOrders(
  em: Em,
  businessId: number,
  filter: { orderRef?: string; statusId?: number; customerId?: number },
  limit: number,
  offset: number,
): Promise<[OrderListRow[], number]> {
  const where = ['o.business_id = ?'];
  const params: unknown[] = [businessId];
  if (filter.orderRef !== undefined) {
    where.push('o.order_ref = ?');
    params.push(filter.orderRef);
  }
  if (filter.statusId !== undefined) {
    where.push('o.status_id = ?');
    params.push(filter.statusId);
  }
  if (filter.customerId !== undefined) {
    where.push('o.customer_id = ?');
    params.push(filter.customerId);
  }
  const clause = where.join(' and ');
  const [count] = await em.execute<{ total: string }[]>(
    `select count(*) as total from delivery_order o where ${clause}`,
    params,
  );
  const rows = await em.execute<OrderListRow[]>(
    `select ${LIST_COLUMNS} from delivery_order o where ${clause} order by o.id desc limit ? offset ?`,
    [...params, limit, offset],
  );
  return [rows, Number(count!.total)];
}

/** One order's move to another status, as changeOrderStatuses writes it. */
export interface OrderStatusMove {
  order: OrderFacts;
  change: StatusChange;
  occurredAt: Date;
}

/**
 * Moves each order to `change.after` and records the change and its order.status_change event (id OSC-<history
 * row id>), in the caller's transaction: three statements for the whole batch, which holds each order at most once.
 */
export async function changeOrderStatuses(em: Em, moves: readonly OrderStatusMove[]): Promise<void> {
  if (moves.length === 0) return;
  const ids = moves.map((m) => m.order.id);
  if (new Set(ids).size !== ids.length) throw new Error('changeOrderStatuses: an order appears twice in one batch');
  const updated = await executeBound<{ id: number; customer_id: number | null; price_family: PriceFamily }>(
    em,
    'update delivery_order o set status_id = m.after, updated_at = now() from unnest($1::int[], $2::int[]) as m(id, after) where o.id = m.id returning o.id, o.customer_id, o.price_family',
    [ids, moves.map((m) => m.change.after)],
  );
  // The customer account an order was placed for receives its events on its webhook override; the row's own price
  // family decides whether that account's events carry prices, whatever facts the caller read.
  const customerOf = new Map(updated.map((u) => [u.id, u.customer_id]));
  const familyOf = new Map(updated.map((u) => [u.id, u.price_family]));
  const history = moves.map(({ order: o, change: c, occurredAt }) => ({
    order_id: o.id,
    business_id: o.businessId,
    before_status: c.before,
    after_status: c.after,
    operation_type: c.operationType,
    operation_description: c.description,
    occurred_at: occurredAt.toISOString(),
    tracking_event_id: c.trackingEventId ?? null,
  }));
  const rows = await executeBound<{ id: number; order_id: number }>(
    em,
    `insert into order_status_change (order_id, business_id, before_status, after_status, operation_type, operation_description, occurred_at, tracking_event_id)
     select order_id, business_id, before_status, after_status, operation_type, operation_description, occurred_at, tracking_event_id
     from jsonb_to_recordset($1::jsonb) as h(order_id int, business_id int, before_status int, after_status int, operation_type int,
       operation_description text, occurred_at timestamptz, tracking_event_id bigint)
     returning id, order_id`,
    [JSON.stringify(history)],
  );
  const historyId = new Map(rows.map((r) => [r.order_id, r.id]));
  await appendOrderTrail(
    em,
    moves.map(({ order: o, change: c, occurredAt }) => {
      const actor = c.actor ?? SYSTEM_ACTOR;
      return {
        orderId: o.id,
        businessId: o.businessId,
        operationType: c.operationType as OrderOperationType,
        actor: c.ipAddress && !actor.ip ? { ...actor, ip: c.ipAddress } : actor,
        beforeStatus: c.before,
        afterStatus: c.after,
        details: {
          description: c.description,
          ...(c.trackingEventId ? { tracking_event_id: c.trackingEventId } : {}),
          ...c.details,
        },
        occurredAt,
      };
    }),
  );
  await insertOutboxEvents(
    em,
    moves.map(({ order: o, change: c, occurredAt }) => {
      const eventId = `OSC-${historyId.get(o.id)!}`;
      return {
        businessId: o.businessId,
        customerId: customerOf.get(o.id) ?? null,
        eventId,
        eventType: 'order.status_change',
        referenceType: 'order',
        referenceId: String(o.id),
        family: familyOf.get(o.id) ?? priceFamilyOf(o),
        carrierHeld: carrierHeld(o),
        payload: {
          event_id: eventId,
          event: 'order.status_change',
          business_id: o.businessId,
          occurred_at: occurredAt.toISOString(),
          data: {
            order: orderSummaryOf(o),
            before_status: c.before,
            after_status: c.after,
            operation_type: c.operationType,
            operation_description: c.description,
            ip_address: c.ipAddress ?? '',
          },
        },
      };
    }),
  );
}

/**
 * Locks the order's row for the rest of the caller's transaction and answers its status (null: no such order), so a
 * write that depends on the status (a provider assignment) sees what a hold, a cancellation or an interception
 * committed just before it, and they in turn wait for it.
 */
export async function lockOrderStatus(em: Em, orderId: number): Promise<number | null> {
  const rows = await em.execute<{ status_id: number }[]>(
    'select status_id from delivery_order where id = ? for update',
    [orderId],
  );
  return rows[0]?.status_id ?? null;
}

/**
 * Hands the order to a third-party delivery provider (it leaves the planning pool and contractors' reach), or, with
 * null, back to the business's own delivery.
 */
export async function holdForCarrier(em: Em, orderId: number, providerId: number | null): Promise<void> {
  await em.execute(
    'update delivery_order set carrier_provider_id = ?, self_delivery = ?::int is null, updated_at = now() where id = ?',
    [providerId, providerId, orderId],
  );
}

/** Who asks to see an order: the account, its role and its business. */
export interface OrderViewer {
  businessId: number;
  userId: number;
  role: Role;
}

/**
 * The one rule of which orders an account may see, as a condition on the delivery_order row `alias`, for queries of
 * other modules that list what hangs off orders (Order Chat's conversations): the business's staff see every order
 * of the business; a driver the orders it carries (`driver_id`); a customer account its own orders (`customer_id`);
 * a contractor the orders actively assigned to it; any other account none. Always within the viewer's business.
 */
export function orderVisibleTo(viewer: OrderViewer, alias = 'o'): { sql: string; params: unknown[] } {
  const business = { sql: `${alias}.business_id = ?`, params: [viewer.businessId] as unknown[] };
  const and = (sql: string, ...params: unknown[]) => ({
    sql: `${business.sql} and ${sql}`,
    params: [...business.params, ...params],
  });
  switch (viewer.role) {
    case 'client_admin':
    case 'employee':
      return business;
    case 'driver':
      return and(`${alias}.driver_id = ?`, viewer.userId);
    case 'customer':
      return and(`${alias}.customer_id = ?`, viewer.userId);
    case 'contractor':
      return and(
        `exists (select 1 from broker_order_assignment va where va.order_id = ${alias}.id and va.broker_id = ? and va.status = 'active')`,
        viewer.userId,
      );
    default:
      return { sql: 'false', params: [] };
  }
}

/** An order the viewer may see, with what events say of it and its customer account, or null (answer 404). */
export async function visibleOrder(
  em: Em,
  viewer: OrderViewer,
  orderId: number,
): Promise<(OrderFacts & { customerId: number | null; driverId: number | null }) | null> {
  const rule = orderVisibleTo(viewer);
  const rows = await em.execute<(OrderFacts & { customerId: number | null; driverId: number | null })[]>(
    `select o.id, o.business_id as "businessId", o.order_ref as "orderRef", o.tracking_number as "trackingNumber", o.type,
       o.status_id as "statusId", o.carrier_provider_id as "carrierProviderId", o.customer_id as "customerId",
       o.driver_id as "driverId", o.created_at as "createdAt", o.price_family as "priceFamily"
     from delivery_order o where o.id = ? and ${rule.sql}`,
    [orderId, ...rule.params],
  );
  return rows[0] ?? null;
}

/**
 * Whether the business hides its local delivery prices from this account (customer_price_hiding_set): then every
 * answer about its orders leaves the price fields out and says `price_hidden: true`. Only customer accounts are ever
 * hidden from; staff always see the prices.
 */
export function localPricesHiddenFrom(em: Em, viewer: { id: number; role: Role }): Promise<boolean> {
  return pricesHiddenFrom(em, viewer, 'local_delivery');
}

/** Whether the business hides the prices of this family (label_service, ...) from the account; never from staff. */
export async function pricesHiddenFrom(
  em: Em,
  viewer: { id: number; role: Role },
  family: PriceFamily,
): Promise<boolean> {
  if (viewer.role !== 'customer') return false;
  const rows = await executeBound<{ hidden: boolean }>(
    em,
    "select $2 = any(coalesce(hidden_price_families, '{}')) as hidden from app_user where id = $1",
    [viewer.id, family],
  );
  return rows[0]?.hidden ?? false;
}

/**
 * Whom an order answer is for (views.ts presentOrder): a customer account sees the carrier masked (as in its
 * webhooks) and no prices of the families hidden from it (each order by its own family); staff see the order as it is.
 */
export async function orderAudienceOf(em: Em, viewer: { id: number; role: Role }): Promise<OrderAudience> {
  if (viewer.role !== 'customer') return { hiddenFamilies: [], carrierMasked: false };
  const rows = await executeBound<{ families: PriceFamily[] }>(
    em,
    "select coalesce(hidden_price_families, '{}') as families from app_user where id = $1",
    [viewer.id],
  );
  return { hiddenFamilies: rows[0]?.families ?? [], carrierMasked: true };
}

/** Whether the account is a customer account (role customer) of the business: an order may be placed for it. */
export async function isCustomerOfBusiness(em: Em, businessId: number, userId: number): Promise<boolean> {
  const rows = await executeBound<{ id: number }>(
    em,
    "select id from app_user where id = $1 and business_id = $2 and role = 'customer'",
    [userId, businessId],
  );
  return rows.length > 0;
}
