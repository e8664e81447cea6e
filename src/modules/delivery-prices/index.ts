/**
 * Local delivery prices (docs/orders.md, Local prices and customer-placed orders): a business's price model, the
 * rate operation (MCP quote_delivery) and the price of each new order, which the orders module asks for through its
 * orderPricing hook point before the order is written.
 */
import { defineModule } from '../../platform/module.ts';
import { DELIVERY_PRICE_ERRORS } from './errorCodes.ts';
import { DELIVERY_PRICE_MESSAGES } from './messages.ts';
import { DELIVERY_PRICE_OPERATIONS } from './operations.ts';
import { priceNewOrders } from './pricing.ts';

/** Great-circle distance in whole metres (the route solver's distances without a road router). */
export { divRound, formatDecimal, greatCircleMeters, minorDigits, parseDecimal } from './domain.ts';
export { routerGet, type RouterGetOptions } from './routerGet.ts';
export { priceWithModel } from './pricing.ts';
export { findPriceModel } from './repo.ts';

export const deliveryPrices = defineModule({
  name: 'delivery-prices',
  operations: DELIVERY_PRICE_OPERATIONS,
  hooks: { orderPricing: priceNewOrders },
  messages: DELIVERY_PRICE_MESSAGES,
  errorCodes: DELIVERY_PRICE_ERRORS,
});
