/**
 * Shipping orders (docs/customer-services.md, "Shipping orders"): a customer's parcel sent by one of the business's
 * shipping services, priced by the catalog (customer-services), paid from the wallet, and delivered by the
 * business's own fleet (orders) or a carrier label (labels), placed by the process `shipping-order-<id>`; an order
 * follows its delivery order's cancellation (the orders' orderCancelled hook). It reaches those modules,
 * order-cancellation and delivery-prices only through their index.ts.
 */
import { defineModule } from '../../platform/module.ts';
import { createShippingOrderActivities } from './activities.ts';
import { followDeliveryCancel } from './closing.ts';
import { SHIPPING_ORDER_QUEUE, SHIPPING_ORDER_WORKFLOW } from './contract.ts';
import { SHIPPING_ORDERS_ERRORS } from './errorCodes.ts';
import { SHIPPING_ORDERS_MESSAGES } from './messages.ts';
import { createShippingOrder, getShippingOrder, listShippingOrders } from './operations/orders.ts';
import { cancelShippingOrder, payShippingOrder, settleShippingOrderOffline } from './operations/payment.ts';
import { estimateShippingOrder, getShippingServiceConfig, listShippingServices } from './operations/services.ts';

export const shippingOrders = defineModule({
  name: 'shipping-orders',
  tags: {
    'Customer shipping orders':
      "A customer's shipping orders: the business's shipping services with their limits and prices, an estimate, the order paid from the customer's wallet (or settled offline by the business), its delivery order placed by the business's own fleet or a carrier label, and its cancel with a refund.",
  },
  operations: [
    listShippingServices,
    getShippingServiceConfig,
    estimateShippingOrder,
    createShippingOrder,
    listShippingOrders,
    getShippingOrder,
    payShippingOrder,
    cancelShippingOrder,
    settleShippingOrderOffline,
  ],
  messages: SHIPPING_ORDERS_MESSAGES,
  errorCodes: SHIPPING_ORDERS_ERRORS,
  taskQueue: SHIPPING_ORDER_QUEUE,
  activities: createShippingOrderActivities,
  workflows: [SHIPPING_ORDER_WORKFLOW],
  hooks: { orderCancelled: followDeliveryCancel },
});
