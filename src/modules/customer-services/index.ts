/**
 * The catalog of customer services (docs/customer-services.md, "The catalog"): a business's settings (currency,
 * unpaid expiry, storage day) and the shipping, storage and ship-out services it offers its customers, with the
 * pure pricing the order modules charge by. Shipping orders, storage and ship-outs read it through this file.
 */
import { defineModule } from '../../platform/module.ts';
import { CUSTOMER_SERVICES_ERRORS } from './errorCodes.ts';
import { CUSTOMER_SERVICES_MESSAGES } from './messages.ts';
import { getSettings, setSettingsOp } from './operations/settings.ts';
import { SERVICE_OPERATIONS } from './operations/services.ts';

export { customerServiceSettings, type CustomerServiceSettings } from './repo/settings.ts';
export {
  type ServiceKind,
  type ShippingServiceRow,
  type StorageServiceRow,
  type ShipoutServiceRow,
} from './repo/services.ts';
export { shippingService, storageService, shipoutService, activeServices } from './readers.ts';
export {
  priceShipment,
  priceStorage,
  priceStoragePeriods,
  PERIOD_DAYS,
  type Fulfilment,
  type ServicePricing,
  type PriceAnswer,
  type PriceLine,
  type Priced,
  type StoragePeriod,
} from './domain.ts';
export {
  PriceView,
  PriceLineView,
  FulfilmentView,
  ServicePricingView,
  ShippingServiceView,
  StorageServiceView,
  ShipoutServiceView,
} from './views.ts';
export { presentShippingService, presentStorageService, presentShipoutService } from './present.ts';
export { seedDemoCustomerServices } from './demo.ts';
export { payFromWallet, refundToWallet, type OrderMoney } from './payment.ts';
export { customerOrderByKey, customerOrderPage, type CustomerOrderRow, type OrderRows } from './repo/orderRows.ts';

export const customerServices = defineModule({
  name: 'customer-services',
  tags: {
    'Customer services':
      'The services a business offers its customer accounts: its settings (currency, unpaid expiry, storage day) and its shipping, storage and ship-out services with their prices.',
  },
  operations: [getSettings, setSettingsOp, ...SERVICE_OPERATIONS],
  messages: CUSTOMER_SERVICES_MESSAGES,
  errorCodes: CUSTOMER_SERVICES_ERRORS,
});
