/**
 * The shipping services a customer may order (docs/customer-services.md, "Shipping orders"): the list, one
 * service's configuration (limits, input rules, fulfilment kind) and a price estimate.
 */
import { z } from 'zod';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { errors } from '../../../platform/errors.ts';
import {
  activeServices,
  customerServiceSettings,
  presentShippingService,
  priceShipment,
  shippingService,
  type ShippingServiceRow,
} from '../../customer-services/index.ts';
import { EstimateAnswer, EstimateInput, SERVICE_CODE, ServiceConfigView, ServiceView } from '../views.ts';
import { shippingPricesHidden } from './present.ts';

const ROLES = ['customer'] as const;
const TAG = 'Customer shipping orders';
export const CUSTOMER_RULE =
  'For customer accounts only (every other role is FORBIDDEN). A service that is unknown or inactive is NOT_FOUND.';
const HIDDEN_RULE =
  'When the business hides shipping_service prices from the customer, every price field is left out and the answer carries `price_hidden: true`.';

/** The service as a customer sees it. */
export const presentService = (s: ShippingServiceRow, hidden: boolean): z.input<typeof ServiceView> => ({
  ...presentShippingService(s, { hidden }),
  ...(hidden && { price_hidden: true as const }),
});

/** An active shipping service of the caller's business, or NOT_FOUND. */
export async function activeShippingService(ctx: BusinessContext, code: string): Promise<ShippingServiceRow> {
  const service = await shippingService(ctx.em, ctx.caller.businessId, code, { activeOnly: true });
  if (!service) throw errors.notFound();
  return service;
}

/** The packages within the service's limits: at most max_packages, each at most max_weight_grams (422). */
export function checkPackages(service: ShippingServiceRow, packages: readonly { weight_grams: number }[]): void {
  if (packages.length > service.max_packages)
    throw errors.field('packages', 'shipping_orders.too_many_packages', { max: service.max_packages });
  const max = service.max_weight_grams;
  if (max === null || max === undefined) return;
  const fields = packages.flatMap((p, i) =>
    p.weight_grams > max
      ? [{ field: `packages.${i}.weight_grams`, key: 'shipping_orders.too_heavy' as const, params: { max } }]
      : [],
  );
  if (fields.length > 0) throw errors.validation(fields);
}

export const listShippingServices = defineOperation({
  name: 'list_shipping_services',
  summary: 'The shipping services the business offers you: code, name, fulfilment kind, limits and pricing.',
  description: `Every active shipping service of the business, by code. ${CUSTOMER_RULE} ${HIDDEN_RULE}`,
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'GET', path: '/v1/customer/shipping-orders/services' },
  graphql: { name: 'customerShippingServices', kind: 'query' },
  mcp: { scope: 'customer_shipping:read', risk: 'low' },
  input: z.object({}).strict(),
  output: z.object({ result: z.literal(true), services: z.array(ServiceView) }),
  async handler(_input, ctx) {
    const hidden = await shippingPricesHidden(ctx);
    const services = await activeServices(ctx.em, ctx.caller.businessId, 'shipping');
    return {
      result: true as const,
      services: services.map((s) => presentService(s, hidden)),
    };
  },
});

export const getShippingServiceConfig = defineOperation({
  name: 'get_shipping_service_config',
  summary: 'One shipping service: its limits, the input rules of an order, the fulfilment kind and pricing.',
  description: `What an order of the service may hold: 1 to max_packages packages, each at most max_weight_grams, the sender optional (the business's default shipper). ${CUSTOMER_RULE} ${HIDDEN_RULE}`,
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'GET', path: '/v1/customer/shipping-orders/services/{service_code}' },
  graphql: { name: 'customerShippingServiceConfig', kind: 'query' },
  mcp: { scope: 'customer_shipping:read', risk: 'low' },
  failures: { NOT_FOUND: 'No active shipping service of the business has this code' },
  input: z.object({ service_code: SERVICE_CODE }).strict(),
  output: ServiceConfigView.extend({ result: z.literal(true) }),
  async handler(input, ctx) {
    const service = await activeShippingService(ctx, input.service_code);
    const hidden = await shippingPricesHidden(ctx);
    const settings = await customerServiceSettings(ctx.em, ctx.caller.businessId);
    return {
      result: true as const,
      ...presentService(service, hidden),
      ...(!hidden && { currency: settings.currency }),
      unpaid_expiry_seconds: settings.unpaid_expiry_seconds,
      sender_required: false,
      input_rules: {
        packages: { min: 1, max: service.max_packages },
        weight_grams: { min: 1, max: service.max_weight_grams ?? 1_000_000 },
        dimensions_mm: { min: 1, max: 10_000 },
      },
    };
  },
});

/** The price of a shipment by a service, in the business's currency. */
export async function priceOf(ctx: BusinessContext, service: ShippingServiceRow, input: EstimateInput) {
  checkPackages(service, input.packages);
  const settings = await customerServiceSettings(ctx.em, ctx.caller.businessId);
  return { settings, price: priceShipment(service.pricing, settings.currency, input.packages) };
}

export const estimateShippingOrder = defineOperation({
  name: 'estimate_shipping_order',
  summary: 'The price of a shipment by a shipping service, as create_shipping_order would charge it.',
  description: `The same input as create_shipping_order (without idempotency_key); nothing is stored. Packages over the service's limits are VALIDATION_FAILED. ${CUSTOMER_RULE} ${HIDDEN_RULE}`,
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'POST', path: '/v1/customer/shipping-orders/services/{service_code}/estimate-price' },
  graphql: { name: 'estimateShippingOrder', kind: 'query' },
  mcp: { scope: 'customer_shipping:read', risk: 'low' },
  failures: { NOT_FOUND: 'No active shipping service of the business has this code' },
  input: EstimateInput,
  output: EstimateAnswer,
  async handler(input, ctx) {
    const service = await activeShippingService(ctx, input.service_code);
    const { price } = await priceOf(ctx, service, input);
    const hidden = await shippingPricesHidden(ctx);
    return {
      result: true as const,
      service_code: service.code,
      ...(hidden
        ? { price_hidden: true as const }
        : { currency: price.currency, total: price.total, tax: price.tax, price_details: price.price_details }),
    };
  },
});
