/**
 * Order placement in bulk: the rows of many new orders and what every new order has (packages, first history row,
 * trail row, order.created event), each kind written in one statement however many orders, in the caller's
 * transaction. One order or a hundred is the same handful of statements.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import { insertOutboxEvents } from '../../../platform/db/outbox.ts';
import type { Recipient } from '../entities.ts';
import { SYSTEM_ACTOR, type OrderActor } from '../actor.ts';
import type { OrderPrice } from '../hooks.ts';
import { appendOrderTrail } from './trail.ts';
import { carrierHeld, orderSummaryOf, priceFamilyOf, type OrderFacts } from './orders.ts';
import { newTrackingNumber, ORDER_OPERATION, type PackageSpec } from '../domain.ts';

/** One new order's row, as delivery_order stores it. */
export interface NewOrderRow {
  businessId: number;
  type: 'D' | 'P' | 'P2P';
  orderRef: string | null;
  trackingNumber: string;
  statusId: number;
  scheduledDate: string;
  recipient: Recipient;
  note: string | null;
  selfDelivery: boolean;
  carrierProviderId: number | null;
  routeId: number | null;
  customerId?: number | null;
  /** When the recipient can receive it; the two ends as ISO times. */
  timeWindow?: { start: string; end: string } | null;
  pickup?: Recipient | null;
  requiredSkills?: readonly string[];
  serviceMinutes?: number | null;
  /** What the order is priced at (the orderPricing hook); absent or null: not priced. */
  price?: OrderPrice | null;
  /** The price family its prices and events are hidden under (docs/webhooks.md); local_delivery when absent. */
  priceFamily?: 'local_delivery' | 'label_service' | 'shipping_service' | 'storage_services';
}

/** A new order as it was written: what events say of it, with its creation time. */
export type InsertedOrder = OrderFacts & { createdAt: Date | string; customerId: number | null };

/** How the order.created events of a placement are sent. */
export interface CreatedEventOptions {
  /**
   * A settings field whose URLs, when a settings row has any, mean that row does not receive these order.created
   * events (orders of an async batch: their recipient hears of them in the batch's postback instead).
   */
  skipIfUrlField?: string | null;
}

/**
 * Inserts the orders in one statement, their ids in the order given; answers them in that order (matched by their
 * unique tracking number).
 */
export async function insertOrderRows(em: Em, rows: readonly NewOrderRow[]): Promise<InsertedOrder[]> {
  if (rows.length === 0) return [];
  const data = rows.map((r, n) => ({
    n,
    business_id: r.businessId,
    type: r.type,
    order_ref: r.orderRef,
    tracking_number: r.trackingNumber,
    status_id: r.statusId,
    scheduled_date: r.scheduledDate,
    recipient: r.recipient,
    note: r.note,
    self_delivery: r.selfDelivery,
    carrier_provider_id: r.carrierProviderId,
    route_id: r.routeId,
    customer_id: r.customerId ?? null,
    shipping_price: r.price?.shippingPrice ?? null,
    tax: r.price?.tax ?? null,
    currency: r.price?.currency ?? null,
    price_details: r.price?.priceDetails ?? null,
    time_window_start: r.timeWindow?.start ?? null,
    time_window_end: r.timeWindow?.end ?? null,
    pickup: r.pickup ?? null,
    required_skills: r.requiredSkills ?? [],
    service_minutes: r.serviceMinutes ?? null,
    price_family: r.priceFamily ?? 'local_delivery',
  }));
  const inserted = await executeBound<InsertedOrder>(
    em,
    `insert into delivery_order (business_id, type, order_ref, tracking_number, status_id, scheduled_date, recipient, note,
       self_delivery, carrier_provider_id, route_id, customer_id, shipping_price, tax, currency, price_details,
       time_window_start, time_window_end, pickup, required_skills, service_minutes, price_family)
     select business_id, type, order_ref, tracking_number, status_id, scheduled_date, recipient, note, self_delivery,
       carrier_provider_id, route_id, customer_id, shipping_price, tax, currency, price_details,
       time_window_start, time_window_end, pickup, coalesce(required_skills, '{}'), service_minutes, price_family
     from jsonb_to_recordset($1::jsonb) as r(business_id int, type text, order_ref text, tracking_number text,
       status_id int, scheduled_date date, recipient jsonb, note text, self_delivery boolean, carrier_provider_id int,
       route_id int, customer_id int, shipping_price numeric, tax numeric, currency text, price_details jsonb,
       time_window_start timestamptz, time_window_end timestamptz, pickup jsonb, required_skills text[],
       service_minutes int, price_family text, n int)
     order by n
     returning id, business_id as "businessId", order_ref as "orderRef", tracking_number as "trackingNumber", type,
       status_id as "statusId", carrier_provider_id as "carrierProviderId", customer_id as "customerId", created_at as "createdAt",
       price_family as "priceFamily"`,
    [JSON.stringify(data)],
  );
  const byNumber = new Map(inserted.map((o) => [o.trackingNumber, o]));
  return rows.map((r) => byNumber.get(r.trackingNumber)!);
}

/**
 * Records what every new order has, for many orders at once: its packages (one unmeasured package when none are
 * given; the first numbered with the order's tracking number), its first history row, its trail row (operation
 * 1001) and its order.created event (id ORC-<order id>). Answers each order's package numbers, in the order given.
 */
export async function recordOrdersCreated(
  em: Em,
  created: readonly {
    order: InsertedOrder | (OrderFacts & { createdAt: Date | string });
    packages?: readonly PackageSpec[];
    /** The order's price, sent in its order.created event; absent or null for an order not priced. */
    price?: OrderPrice | null;
  }[],
  actor: OrderActor,
  options: CreatedEventOptions = {},
): Promise<string[][]> {
  if (created.length === 0) return [];
  const numbers = created.map(({ order, packages }) =>
    (packages && packages.length > 0 ? packages : [{}]).map((_, i) =>
      i === 0 ? order.trackingNumber : newTrackingNumber(),
    ),
  );
  const packageRows = created.flatMap(({ order, packages }, k) =>
    (packages && packages.length > 0 ? packages : [{}]).map((p: PackageSpec, i) => ({
      order_id: order.id,
      business_id: order.businessId,
      position: i + 1,
      package_number: numbers[k]![i]!,
      weight_grams: p.weightGrams ?? null,
      length_mm: p.lengthMm ?? null,
      width_mm: p.widthMm ?? null,
      height_mm: p.heightMm ?? null,
      carrier_reference: p.carrierReference ?? null,
    })),
  );
  await executeBound(
    em,
    `insert into order_package (order_id, business_id, position, package_number, weight_grams, length_mm, width_mm, height_mm, carrier_reference)
     select order_id, business_id, position, package_number, weight_grams, length_mm, width_mm, height_mm, carrier_reference
     from jsonb_to_recordset($1::jsonb) as p(order_id int, business_id int, position int, package_number text, weight_grams int,
       length_mm int, width_mm int, height_mm int, carrier_reference text)`,
    [JSON.stringify(packageRows)],
  );
  const when = created.map(({ order }) => new Date(order.createdAt));
  await executeBound(
    em,
    `insert into order_status_change (order_id, business_id, before_status, after_status, operation_type, operation_description, occurred_at)
     select order_id, business_id, null, after_status, $2, 'order created', occurred_at
     from jsonb_to_recordset($1::jsonb) as h(order_id int, business_id int, after_status int, occurred_at timestamptz)`,
    [
      JSON.stringify(
        created.map(({ order }, k) => ({
          order_id: order.id,
          business_id: order.businessId,
          after_status: order.statusId,
          occurred_at: when[k]!.toISOString(),
        })),
      ),
      ORDER_OPERATION.CREATED,
    ],
  );
  await appendOrderTrail(
    em,
    created.map(({ order }, k) => ({
      orderId: order.id,
      businessId: order.businessId,
      operationType: ORDER_OPERATION.CREATED,
      actor,
      afterStatus: order.statusId,
      details: { description: 'order created', packages: numbers[k] },
      occurredAt: when[k],
    })),
  );
  await insertOutboxEvents(
    em,
    created.map(({ order, price }, k) => {
      const eventId = `ORC-${order.id}`;
      return {
        businessId: order.businessId,
        customerId: 'customerId' in order ? order.customerId : null,
        eventId,
        eventType: 'order.created',
        referenceType: 'order',
        referenceId: String(order.id),
        payload: {
          event_id: eventId,
          event: 'order.created',
          business_id: order.businessId,
          occurred_at: when[k]!.toISOString(),
          data: {
            order: orderSummaryOf(order),
            packages: numbers[k],
            // A price-hidden customer's override gets these left out and price_hidden: true (webhooks/transform.ts).
            ...(price && {
              shipping_price: price.shippingPrice,
              tax: price.tax,
              currency: price.currency,
              price_details: price.priceDetails,
            }),
          },
        },
        family: priceFamilyOf(order),
        carrierHeld: carrierHeld(order),
        skipIfUrlField: options.skipIfUrlField ?? null,
      };
    }),
  );
  return numbers;
}

/**
 * Records what a new order has (recordOrdersCreated for one order), for paths that wrote the order row themselves
 * (the seed). Every path that creates an order calls one of them, so no order is without its first package.
 */
export async function recordOrderCreated(
  em: Em,
  o: OrderFacts & { createdAt: Date | string },
  packages: readonly PackageSpec[] = [{}],
  actor: OrderActor = SYSTEM_ACTOR,
): Promise<string[]> {
  const [numbers] = await recordOrdersCreated(em, [{ order: o, packages }], actor);
  return numbers!;
}
