/**
 * What other modules do once an order is created, after its transaction has committed: a business's third-party
 * rules may hand it to a delivery provider. A module names its hook in its descriptor (`hooks: { orderCreated }`);
 * the orders module knows nothing of who listens.
 */
import type { BusinessContext } from '../../platform/catalog/types.ts';
import { hooksOf } from '../../platform/hooks.ts';
import type { Config } from '../../platform/config.ts';
import type { Em } from '../../platform/db/orm.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Recipient } from './entities.ts';
import type { OrderActor } from './actor.ts';

export interface CreatedOrder {
  id: number;
  businessId: number;
  postalCode: string;
}

/** A hook answers what it did that the order's creator should see (the third-party assignment's number), or nothing. */
export type OrderCreatedHook = (
  ctx: BusinessContext,
  order: CreatedOrder,
) => Promise<{ thirdPartyAssignment: string } | null>;

declare module '../../platform/hooks.ts' {
  interface ModuleHooks {
    orderCreated: OrderCreatedHook;
  }
}

/**
 * Runs every hook. The order has committed: a hook that fails is logged and the order is answered all the same,
 * since a failed answer would make its creator send it again and create a twin.
 */
export async function runOrderCreatedHooks(
  ctx: BusinessContext,
  order: CreatedOrder,
): Promise<{ thirdPartyAssignment: string | null }> {
  let thirdPartyAssignment: string | null = null;
  for (const hook of hooksOf('orderCreated')) {
    try {
      thirdPartyAssignment = (await hook(ctx, order))?.thirdPartyAssignment ?? thirdPartyAssignment;
    } catch (err) {
      ctx.log.error({ err, orderId: order.id }, 'an order-created hook failed; the order stays as created');
    }
  }
  return { thirdPartyAssignment };
}

/**
 * A process a module runs for one order and has not finished (a device order awaiting its device, a distribution
 * scan, a third-party assignment, a locker delivery, a cancellation or interception), read from the module's own
 * read-model tables, never by asking Temporal. `type` names the process (the module's word, e.g. 'device-order'),
 * `workflowId` its workflow when it has one, `state` the module's state word, `since` when it entered that state.
 */
export interface OrderProcess {
  type: string;
  workflowId: string | null;
  state: string;
  since: Date;
  /** A short reference the business knows the process by (an assignment number, an exception id), or null. */
  reference?: string | null;
  /** A delivery provider's process: order_snapshot does not list it to a customer account, for which the carrier is masked. */
  carrier?: boolean;
}

/** Answers the open processes the module runs for the order (already known to belong to `order.businessId`). */
export type OrderProcessesHook = (
  ctx: BusinessContext,
  order: { id: number; businessId: number },
) => Promise<readonly OrderProcess[]>;

/**
 * An order that needs a person: `kind` names the situation (the module's word, e.g. 'device-order-exception',
 * 'flagged-scan', 'cancel-refused', 'intercept-failed', 'intercept-held'), `reason` says why in the module's words or code,
 * `since` when it began, `reference` what the person acts on (an exception id, a workflow id), or null.
 */
export interface OrderException {
  orderId: number;
  kind: string;
  reason: string;
  since: Date;
  reference: string | null;
}

/**
 * Answers at most `limit` of the business's open exceptions, newest first, with `since` before `before` when given
 * (the runner pages by it), restricted to `orderIds` when given. Read from the module's tables, business-scoped.
 */
export type OrderExceptionsHook = (
  ctx: BusinessContext,
  query: { businessId: number; limit: number; before?: Date; orderIds?: readonly number[] },
) => Promise<readonly OrderException[]>;

declare module '../../platform/hooks.ts' {
  interface ModuleHooks {
    orderProcesses: OrderProcessesHook;
    orderExceptions: OrderExceptionsHook;
  }
}

/** Every module's open processes for one order, oldest first. A failing hook is logged and its processes left out. */
export async function runOrderProcessesHooks(
  ctx: BusinessContext,
  order: { id: number; businessId: number },
): Promise<OrderProcess[]> {
  const all: OrderProcess[] = [];
  for (const hook of hooksOf('orderProcesses')) {
    try {
      all.push(...(await hook(ctx, order)));
    } catch (err) {
      ctx.log.error({ err, orderId: order.id }, 'an order-processes hook failed; its processes are left out');
    }
  }
  return all.sort((a, b) => a.since.getTime() - b.since.getTime());
}

/**
 * Every module's open exceptions for the business, newest first, at most `limit` (each hook answers at most
 * `limit`, the runner merges and cuts). A failing hook is logged and its exceptions left out.
 */
export async function runOrderExceptionsHooks(
  ctx: BusinessContext,
  query: { businessId: number; limit: number; before?: Date; orderIds?: readonly number[] },
): Promise<OrderException[]> {
  const all: OrderException[] = [];
  for (const hook of hooksOf('orderExceptions')) {
    try {
      all.push(...(await hook(ctx, query)));
    } catch (err) {
      ctx.log.error({ err }, 'an order-exceptions hook failed; its exceptions are left out');
    }
  }
  return all.sort((a, b) => b.since.getTime() - a.since.getTime() || b.orderId - a.orderId).slice(0, query.limit);
}

/** What a new order is priced on (docs/orders.md, Local prices). */
export interface OrderToPrice {
  type: 'D' | 'P' | 'P2P';
  recipient: Recipient;
  packageWeightsGrams: readonly (number | null | undefined)[];
  hasTimeWindow: boolean;
}

/** A new order's price as the order keeps it: exact decimal strings, the line items, the currency (ISO 4217). */
export interface OrderPrice {
  shippingPrice: string;
  tax: string;
  currency: string;
  priceDetails: readonly Record<string, unknown>[];
}

/** What pricing may use besides the transaction: the road router's settings and the log. */
export interface PricingEnv {
  config: Config;
  log: Logger;
  /** Told after each order is priced: a long placement (an async batch's chunk) heartbeats there. */
  onPriced?: () => void;
}

/**
 * Prices a business's new orders before they are written (the delivery-prices module): one price per order, or
 * null for an order that is not priced (no price model, no recipient coordinates where the model needs them).
 */
export type OrderPricingHook = (
  em: Em,
  env: PricingEnv,
  businessId: number,
  orders: readonly OrderToPrice[],
) => Promise<(OrderPrice | null)[]>;

declare module '../../platform/hooks.ts' {
  interface ModuleHooks {
    orderPricing: OrderPricingHook;
  }
}

/** The price of each new order from the first pricing hook; every order unpriced when no module prices orders. */
export async function priceNewOrders(
  em: Em,
  env: PricingEnv,
  businessId: number,
  orders: readonly OrderToPrice[],
): Promise<(OrderPrice | null)[]> {
  const [hook] = hooksOf('orderPricing');
  return hook ? hook(em, env, businessId, orders) : orders.map(() => null);
}

/**
 * A parcel seen at a warehouse: a distribution scan received it at (or removed it back to) a warehouse of the
 * business, or its carrier's tracking event says it was received at a facility. Package numbers are unique across
 * businesses, so the hook finds the order from the number.
 */
export interface ParcelAtWarehouse {
  packageNumber: string;
  /** The place's code, when a place of the business reported it; null for a carrier's event. */
  place: string | null;
  source: 'scan' | 'carrier';
  /**
   * Who reported it: the scanning business for a scan, the delivery provider (its business id) for a carrier's
   * event. A hook reaches only what the reporter may: the business's own orders, or the orders the provider holds.
   */
  reportedBy: number;
  occurredAt: string;
}

/** Told after the scan or the event has committed (an interception waits for its parcel to be held there). */
export type OrderAtWarehouseHook = (
  ctx: Pick<BusinessContext, 'em' | 'temporal' | 'log'>,
  parcels: readonly ParcelAtWarehouse[],
) => Promise<void>;

declare module '../../platform/hooks.ts' {
  interface ModuleHooks {
    orderAtWarehouse: OrderAtWarehouseHook;
  }
}

/** Runs every hook; the scan or event has committed, so a hook that fails is logged and the answer stands. */
export async function runOrderAtWarehouseHooks(
  ctx: Pick<BusinessContext, 'em' | 'temporal' | 'log'>,
  parcels: readonly ParcelAtWarehouse[],
): Promise<void> {
  if (parcels.length === 0) return;
  for (const hook of hooksOf('orderAtWarehouse')) {
    try {
      await hook(ctx, parcels);
    } catch (err) {
      ctx.log.error({ err }, 'an order-at-warehouse hook failed; the scan stands');
    }
  }
}

/**
 * An order just cancelled (docs/orders.md, "Cancellation and deletion"): what other modules let go of it (its
 * distribution, its contractor assignment, its hold) react to.
 */
export interface CancelledOrder {
  id: number;
  businessId: number;
  trackingNumber: string;
  /** Its package numbers, the first being the tracking number. */
  packageNumbers: readonly string[];
  beforeStatus: number;
  /** The cancellation request (order_cancellation.id): a key for what the hook sends, stable across retries. */
  cancellationId: number;
}

/** What a cancelled-order hook may use: `em` (outside the transaction) and `temporal` for its work after the commit. */
export interface OrderCancelContext {
  em: Em;
  temporal: BusinessContext['temporal'];
  config: Config;
  log: Logger;
  actor: OrderActor;
  occurredAt: Date;
}

/** Work a hook leaves for after the commit (a Temporal call); it must be idempotent. */
export type AfterCommit = () => Promise<void>;

/**
 * Runs inside the cancel transaction (`tx`), so what it writes commits or rolls back with the cancellation; it may
 * answer work for after the commit. A retried cancellation runs it again: it must be idempotent.
 */
export type OrderCancelledHook = (
  tx: Em,
  order: CancelledOrder,
  ctx: OrderCancelContext,
) => Promise<AfterCommit | void>;

declare module '../../platform/hooks.ts' {
  interface ModuleHooks {
    orderCancelled: OrderCancelledHook;
  }
}

/** Runs every hook in the transaction (a failure rolls the cancellation back); answers their work for after it. */
export async function runOrderCancelledHooks(
  tx: Em,
  order: CancelledOrder,
  ctx: OrderCancelContext,
): Promise<AfterCommit[]> {
  const after: AfterCommit[] = [];
  for (const hook of hooksOf('orderCancelled')) {
    const work = await hook(tx, order, ctx);
    if (work) after.push(work);
  }
  return after;
}

/**
 * The hooks' work after the commit, run by a durable process (an activity) that retries until it is done: every
 * part runs, a failing one is logged, and then the first failure is thrown so the whole is retried (each part is
 * idempotent). The cancellation stands either way.
 */
export async function runAfterCommit(work: readonly AfterCommit[], log: Logger, orderId: number): Promise<void> {
  const failures: unknown[] = [];
  for (const w of work) {
    try {
      await w();
    } catch (err) {
      log.warn({ err, orderId }, "a cancelled-order hook's work after the commit failed; it is retried");
      failures.push(err);
    }
  }
  if (failures.length > 0) throw failures[0];
}
