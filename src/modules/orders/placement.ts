/**
 * Order placement: the one path that validates and creates local delivery orders, one or many in one transaction
 * (client_order_create, bulk_create_orders and the async batch's chunks). The input of one order is
 * `OrderPlacementInput`; a batch validates each row with it, so a row is refused for the same reasons as a single
 * create, and many orders are a handful of statements (repo/placement.ts), not one round trip per order.
 */
import { z } from 'zod';
import type { Em } from '../../platform/db/orm.ts';
import { dateParam } from '../../platform/catalog/schemas.ts';
import type { BusinessContext } from '../../platform/catalog/types.ts';
import type { OrderActor } from './actor.ts';
import { MAX_PACKAGES, newTrackingNumber, ORDER_STATUS, type PackageSpec } from './domain.ts';
import { priceNewOrders, runOrderCreatedHooks, type OrderPrice, type PricingEnv } from './hooks.ts';
import { insertOrderRows, recordOrdersCreated, type CreatedEventOptions } from './repo/placement.ts';
import { optionalText, PackageInput, RecipientInput, SkillInput, TimeWindowInput } from './views.ts';

/** One order as a caller places it: the body of client_order_create, and one row of a bulk or async batch. */
export const OrderPlacementInput = z
  .object({
    type: z.enum(['D', 'P', 'P2P']),
    scheduled_date: dateParam(),
    order_ref: optionalText(100),
    recipient: RecipientInput,
    note: optionalText(1000),
    packages: z
      .array(PackageInput)
      .min(1)
      .max(MAX_PACKAGES)
      .optional()
      .describe(
        "The parcels of the order; one unmeasured package when absent. The first package's number is the order's tracking number.",
      ),
    time_window: TimeWindowInput.nullish().describe(
      'When the recipient can receive it (the end later than the start); route planning keeps to it',
    ),
    pickup: RecipientInput.nullish().describe(
      'Where a P2P order is collected (with coordinates, for route planning): its pickup comes before its delivery on the same route. Only for P2P orders',
    ),
    required_skills: z
      .array(SkillInput)
      .max(10)
      .optional()
      .describe(
        "Skills the order's driver must have (for example refrigerated, two_person); route planning matches them",
      ),
    service_minutes: z
      .number()
      .int()
      .min(0)
      .max(480)
      .nullish()
      .describe("How long the stop takes at the address; the route build's default when absent"),
  })
  .strict()
  .superRefine((o, ctx) => {
    if (o.time_window && Date.parse(o.time_window.end) <= Date.parse(o.time_window.start))
      ctx.addIssue({ code: 'custom', path: ['time_window', 'end'], params: { key: 'field.time_window_reversed' } });
    if (o.pickup && o.type !== 'P2P')
      ctx.addIssue({ code: 'custom', path: ['pickup'], params: { key: 'field.pickup_only_p2p' } });
  });
export type OrderPlacementInput = z.output<typeof OrderPlacementInput>;

/**
 * One order to place: its input, the customer account it is placed by or for (already checked), if any, and for a
 * label order (docs/labels.md) the carrier's provider business that carries it and its price family. An order a
 * customer service places (docs/customer-services.md) names its family: shipping_service or storage_services.
 */
export type PlacementRow = OrderPlacementInput & {
  customer_id?: number | null;
  carrier?: { providerId: number; priceFamily: PlacedFamily };
  price_family?: PlacedFamily;
};

/** The price families an order is placed in besides local_delivery. */
export type PlacedFamily = 'label_service' | 'shipping_service' | 'storage_services';

/**
 * How orders are placed: what pricing may use (the road router's settings, the log; docs/orders.md, Local prices),
 * null to leave them unpriced, and how their order.created events are sent.
 */
export type PlacementOptions = CreatedEventOptions & {
  pricing: PricingEnv | null;
  /** The orders' prices in input order, already made with pricePlacements; `pricing` is then not used. */
  prices?: readonly (OrderPrice | null)[];
};

/** An order as placed: its id, tracking number and package numbers (the first is the tracking number). */
export interface PlacedOrder {
  orderId: number;
  orderRef: string | null;
  trackingNumber: string;
  packageNumbers: string[];
  postalCode: string;
  /** What it was priced at (docs/orders.md, Local prices); null when it was not priced. */
  price?: OrderPrice | null;
}

/** The packages of a placement as the repository writes them. */
const packagesOf = (input: OrderPlacementInput): PackageSpec[] =>
  (input.packages ?? [{}]).map((p) => ({
    weightGrams: p.weight_grams,
    lengthMm: p.length_mm,
    widthMm: p.width_mm,
    heightMm: p.height_mm,
    carrierReference: p.carrier_reference,
  }));

/**
 * Creates the orders (already validated with OrderPlacementInput) of one business in the caller's transaction, or
 * in one of its own: every order starts in NEW_ORDER, delivered by the business itself (or by the carrier a label
 * order names), with its packages, first
 * history row, trail row (1001) and order.created event (ORC-<id>). Answers them in the order given.
 */
export async function placeOrders(
  em: Em,
  businessId: number,
  inputs: readonly PlacementRow[],
  actor: OrderActor,
  options: PlacementOptions,
): Promise<PlacedOrder[]> {
  if (inputs.length === 0) return [];
  // Priced before the transaction opens: a road route is an HTTP call, never made while holding row locks. A caller
  // that places inside its own transaction prices first (pricePlacements) and passes the prices.
  const prices =
    options.prices ??
    (options.pricing ? await pricePlacements(em, options.pricing, businessId, inputs) : inputs.map(() => null));
  const place = (tx: Em) => insertPlaced(tx, businessId, inputs, prices, actor, options);
  return em.isInTransaction() ? place(em) : em.transactional(place);
}

/** The prices of orders about to be placed (null: not priced), in input order; made outside any transaction. */
export function pricePlacements(
  em: Em,
  env: PricingEnv,
  businessId: number,
  inputs: readonly PlacementRow[],
): Promise<(OrderPrice | null)[]> {
  if (inputs.length === 0) return Promise.resolve([]);
  return priceNewOrders(
    em,
    env,
    businessId,
    inputs.map((input) => ({
      type: input.type,
      recipient: input.recipient,
      packageWeightsGrams: (input.packages ?? [{}]).map((p) => p.weight_grams),
      hasTimeWindow: Boolean(input.time_window),
    })),
  );
}

async function insertPlaced(
  em: Em,
  businessId: number,
  inputs: readonly PlacementRow[],
  prices: readonly (OrderPrice | null)[],
  actor: OrderActor,
  options: CreatedEventOptions,
): Promise<PlacedOrder[]> {
  const orders = await insertOrderRows(
    em,
    inputs.map((input, i) => ({
      businessId,
      type: input.type,
      orderRef: input.order_ref ?? null,
      trackingNumber: newTrackingNumber(),
      statusId: ORDER_STATUS.NEW_ORDER,
      scheduledDate: input.scheduled_date,
      recipient: input.recipient,
      note: input.note ?? null,
      selfDelivery: !input.carrier,
      carrierProviderId: input.carrier?.providerId ?? null,
      priceFamily: input.carrier?.priceFamily ?? input.price_family ?? 'local_delivery',
      routeId: null,
      customerId: input.customer_id ?? null,
      timeWindow: input.time_window ?? null,
      pickup: input.pickup ?? null,
      requiredSkills: [...new Set(input.required_skills ?? [])],
      serviceMinutes: input.service_minutes ?? null,
      price: prices[i] ?? null,
    })),
  );
  const numbers = await recordOrdersCreated(
    em,
    orders.map((order, i) => ({ order, packages: packagesOf(inputs[i]!), price: prices[i] ?? null })),
    actor,
    options,
  );
  return orders.map((o, i) => ({
    orderId: o.id,
    orderRef: o.orderRef ?? null,
    trackingNumber: o.trackingNumber,
    packageNumbers: numbers[i]!,
    postalCode: inputs[i]!.recipient.address.postal_code,
    price: prices[i] ?? null,
  }));
}

/**
 * What other modules do with orders just placed, once their transaction has committed (a business's third-party
 * rules): answers each order's third-party assignment number, or null.
 */
export async function afterOrdersPlaced(
  ctx: BusinessContext,
  placed: readonly PlacedOrder[],
): Promise<(string | null)[]> {
  const assignments: (string | null)[] = [];
  for (const p of placed) {
    const after = await runOrderCreatedHooks(ctx, {
      id: p.orderId,
      businessId: ctx.caller.businessId,
      postalCode: p.postalCode,
    });
    assignments.push(after.thirdPartyAssignment);
  }
  return assignments;
}
