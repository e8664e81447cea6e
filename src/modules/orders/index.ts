/**
 * Delivery and pickup orders: creation, reads, the planning pool, the status dictionary and the one writer of
 * status changes, which other modules (tracking ingest) call inside their own transactions.
 */
import { defineModule } from '../../platform/module.ts';
import { ORDER_EVENTS } from './events.ts';
import { Order } from './entities.ts';
import { orderCreate } from './operations/create.ts';
import { orderGet, orderList, planningPool } from './operations/reads.ts';
import {
  holdOrder,
  releaseOrder,
  rerouteToAddress,
  updateDeliveryInstruction,
  updateOrderNote,
  updateTimeWindowByRefs,
} from './operations/edits.ts';
import { ORDERS_ERRORS } from './errorCodes.ts';
import { ORDERS_MESSAGES } from './messages.ts';
import { orderExceptions, orderFind, orderSnapshot } from './operations/find.ts';
import { operationEvents, orderAuditTimeline } from './operations/trail.ts';

export { Order, type Address, type Recipient } from './entities.ts';
export { actorOf, SYSTEM_ACTOR, type OrderActor, type OrderChangeSource } from './actor.ts';
export { appendOrderTrail, type OrderTrailEntry } from './repo/trail.ts';
export type {
  CreatedOrder,
  OrderCreatedHook,
  OrderException,
  OrderExceptionsHook,
  OrderProcess,
  OrderProcessesHook,
  OrderAtWarehouseHook,
  ParcelAtWarehouse,
} from './hooks.ts';
export { runOrderAtWarehouseHooks } from './hooks.ts';
export type { OrderPrice, OrderPricingHook, OrderToPrice, PricingEnv } from './hooks.ts';
export { presentTo } from './views.ts';
export {
  runAfterCommit,
  runOrderCancelledHooks,
  type AfterCommit,
  type CancelledOrder,
  type OrderCancelContext,
  type OrderCancelledHook,
} from './hooks.ts';
export {
  ASSIGNABLE_STATUS_IDS,
  CARRIER_OPERATION_TYPES,
  CARRIER_STATUSES,
  ORDER_OPERATION,
  ORDER_STATUS,
  ORDER_STATUSES,
  statusCodeOf,
} from './domain.ts';
export { recordOrderCreated } from './repo/placement.ts';
export { placementCustomerOf } from './operations/create.ts';
export { orderLifecycleEvent, type OrderLifecycleEvent } from './repo/lifecycle.ts';
export {
  afterOrdersPlaced,
  OrderPlacementInput,
  placeOrders,
  pricePlacements,
  type PlacedOrder,
  type PlacementOptions,
  type PlacementRow,
} from './placement.ts';
export {
  carrierHeld,
  priceFamilyOf,
  orderSummaryOf,
  changeOrderStatuses,
  holdForCarrier,
  localPricesHiddenFrom,
  pricesHiddenFrom,
  lockOrderStatus,
  orderVisibleTo,
  visibleOrder,
  type OrderFacts,
  type OrderStatusMove,
  type OrderViewer,
} from './repo/orders.ts';

export const orders = defineModule({
  name: 'orders',
  tags: {
    Client:
      "A business's own orders: create local deliveries (D), pickups (P) and peer-to-peer orders (P2P), then list and read them. For the business's administrators and employees.",
    Dispatch:
      "Planning: the orders the caller may plan now, from the client's pool or, for a contractor, its own assigned and unassigned orders.",
  },
  events: ORDER_EVENTS,
  operations: [
    orderCreate,
    orderList,
    orderGet,
    planningPool,
    updateDeliveryInstruction,
    updateOrderNote,
    updateTimeWindowByRefs,
    rerouteToAddress,
    holdOrder,
    releaseOrder,
    operationEvents,
    orderAuditTimeline,
    orderFind,
    orderSnapshot,
    orderExceptions,
  ],
  entities: [Order],
  messages: ORDERS_MESSAGES,
  errorCodes: ORDERS_ERRORS,
});
