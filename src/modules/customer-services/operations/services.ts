/**
 * The catalog's staff operations (docs/customer-services.md, "The catalog"): client admins create, change and list
 * the business's shipping, storage and ship-out services. A service is never deleted (orders refer to it):
 * `active: false` takes it off the customers' lists.
 */
import { z } from 'zod';
import { errors, type FieldError } from '../../../platform/errors.ts';
import { offsetOf, pageOf, pageOutput, pageParams, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext, type Operation } from '../../../platform/catalog/types.ts';
import { CARRIER_CODES, CARRIER_SERVICES, isCarrierCode } from '../../labels/index.ts';
import { warehouseOf, type WarehouseRow } from '../../wms/index.ts';
import type { Fulfilment, ServicePricing } from '../domain.ts';
import { fail } from '../errorCodes.ts';
import { presentShipoutService, presentShippingService, presentStorageService } from '../present.ts';
import {
  insertService,
  servicesOf,
  serviceById,
  updateService,
  type ServiceKind,
  type ServiceRows,
} from '../repo/services.ts';
import {
  FulfilmentInput,
  MoneyInput,
  serviceCode,
  ServicePricingInput,
  ShipoutServiceView,
  ShippingServiceView,
  StorageServiceView,
  TaxRateInput,
} from '../views.ts';

const TAG = 'Customer services';
const ADMIN = ['client_admin'] as const;

const name = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .meta({ examples: ['Express delivery'] });
const description = z.string().trim().max(2000).nullish().describe('Shown to customers');
const active = z.boolean().describe('false: not offered to customers');

/** A carrier fulfilment names a carrier and one of its services the labels module knows: 422 on the field otherwise. */
function checkFulfilment(f: Fulfilment | undefined, problems: FieldError[]): void {
  if (f?.kind !== 'carrier') return;
  if (!isCarrierCode(f.carrier)) {
    problems.push({
      field: 'fulfilment.carrier',
      key: 'customer_services.unknown_carrier',
      params: { codes: CARRIER_CODES.join(', ') },
    });
    return;
  }
  const services = CARRIER_SERVICES[f.carrier];
  if (!services.includes(f.service))
    problems.push({
      field: 'fulfilment.service',
      key: 'customer_services.unknown_carrier_service',
      params: { codes: services.join(', ') },
    });
}

/** The business's warehouse of this id, or 422 on `warehouse_id`. */
async function checkWarehouse(
  ctx: BusinessContext,
  id: number | undefined,
  problems: FieldError[],
): Promise<WarehouseRow | null> {
  if (id === undefined) return null;
  const w = await warehouseOf(ctx.em, ctx.caller.businessId, id);
  if (!w) problems.push({ field: 'warehouse_id', key: 'customer_services.unknown_warehouse' });
  return w;
}

function throwIf(problems: FieldError[]): void {
  if (problems.length) throw errors.validation(problems);
}

const taken = () => fail('SERVICE_CODE_TAKEN', 'customer_services.code_taken');

const pricingOf = (p: z.output<typeof ServicePricingInput>): ServicePricing => ({
  base_fee: p.base_fee,
  per_package: p.per_package,
  per_kg: p.per_kg,
  included_weight_kg: p.included_weight_kg,
  tax_rate: p.tax_rate,
});

const PRICING_EXAMPLE = {
  base_fee: '4.90',
  per_package: '1.00',
  per_kg: '0.80',
  included_weight_kg: '2',
  tax_rate: '21',
};
const TIMES = { created_at: '2026-12-10T08:00:00.000Z', updated_at: '2026-12-10T08:00:00.000Z' };

const activeFilter = z.enum(['true', 'false']).optional().describe('true: active services only; false: inactive only');

/** The list operation of a kind: every service of the business by code, paged, filtered by `active`. */
function listOperation<K extends ServiceKind, V extends z.ZodType>(
  kind: K,
  spec: {
    name: string;
    path: string;
    graphql: string;
    noun: string;
    view: V;
    present: (r: ServiceRows[K]) => z.input<V>;
    byWarehouse: boolean;
  },
): Operation {
  return defineOperation({
    name: spec.name,
    summary: `The business's ${spec.noun}s, active and not, by code.`,
    description: `Every ${spec.noun} of the business by code, with its prices (staff see them whatever customers are shown); \`active\` filters${spec.byWarehouse ? ', `warehouse_id` keeps one warehouse’s' : ''}. 50 a page (\`page\`, \`per_page\` up to 200) with the \`total\`. Client admins only.`,
    tag: TAG,
    roles: ADMIN,
    business: true,
    rest: { method: 'GET', path: spec.path },
    graphql: { name: spec.graphql, kind: 'query' },
    input: z
      .object({
        active: activeFilter,
        ...(spec.byWarehouse ? { warehouse_id: pathId.optional().describe('Only this warehouse’s services') } : {}),
        ...pageParams,
      })
      .strict(),
    output: pageOutput('services', spec.view),
    async handler(input, ctx) {
      const i = input as { active?: 'true' | 'false'; warehouse_id?: number; page: number; per_page: number };
      const rows = (
        await servicesOf(ctx.em, kind, ctx.caller.businessId, { activeOnly: false, warehouseId: i.warehouse_id })
      ).filter((r) => i.active === undefined || r.active === (i.active === 'true'));
      const page = rows.slice(offsetOf(i), offsetOf(i) + i.per_page).map(spec.present);
      return pageOf(i, 'services', rows.length, page);
    },
  });
}

// Shipping services.

const ShippingAnswer = z.object({ result: z.literal(true), service: ShippingServiceView });
const SHIPPING_EXAMPLE = {
  id: 5,
  code: 'EXPRESS',
  name: 'Express delivery',
  description: null,
  active: true,
  pricing: PRICING_EXAMPLE,
  fulfilment: { kind: 'carrier' as const, carrier: 'sandbox_swift', service: 'swift_express' },
  max_packages: 5,
  max_weight_grams: 20_000,
  ...TIMES,
};
const maxPackages = z.number().int().min(1).max(50).describe('Packages an order may hold, 1 to 50');
const maxWeight = z
  .number()
  .int()
  .min(1)
  .max(10_000_000)
  .nullish()
  .describe('The heaviest package in grams; null: no limit');

export const createShippingService = defineOperation({
  name: 'create_shipping_service',
  summary: 'Offer customers a shipping service: its price and who carries it.',
  description:
    'Creates a shipping service (201): `pricing` (base fee, per package, per started kg above the included weight, tax rate; decimal strings), `fulfilment` (`own_fleet`, or `carrier` with a carrier code and one of its service codes, as labelservice_methods lists them: 422 on `fulfilment.carrier` / `fulfilment.service` otherwise), `max_packages` (1 to 50) and `max_weight_grams`. A code the business uses for a shipping service already is 409 SERVICE_CODE_TAKEN. Client admins only.',
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'POST', path: '/v1/client/customer-services/shipping-services', status: 201 },
  graphql: { name: 'shippingServiceCreate', kind: 'mutation' },
  failures: { SERVICE_CODE_TAKEN: true },
  input: z
    .object({
      code: serviceCode,
      name,
      description,
      active: active.default(true),
      pricing: ServicePricingInput,
      fulfilment: FulfilmentInput,
      max_packages: maxPackages.default(1),
      max_weight_grams: maxWeight,
    })
    .strict(),
  output: ShippingAnswer,
  examples: {
    input: {
      code: 'EXPRESS',
      name: 'Express delivery',
      pricing: PRICING_EXAMPLE,
      fulfilment: SHIPPING_EXAMPLE.fulfilment,
      max_packages: 5,
      max_weight_grams: 20_000,
    },
    output: { result: true, service: SHIPPING_EXAMPLE },
  },
  async handler(input, ctx) {
    const problems: FieldError[] = [];
    checkFulfilment(input.fulfilment, problems);
    throwIf(problems);
    const row = await insertService(ctx.em, 'shipping', ctx.caller.businessId, {
      code: input.code,
      name: input.name,
      description: input.description ?? null,
      active: input.active,
      pricing: pricingOf(input.pricing),
      fulfilment: input.fulfilment,
      max_packages: input.max_packages,
      max_weight_grams: input.max_weight_grams ?? null,
    });
    if (!row) throw taken();
    return { result: true as const, service: presentShippingService(row) };
  },
});

export const updateShippingService = defineOperation({
  name: 'update_shipping_service',
  summary: 'Change a shipping service: the fields sent.',
  description:
    'Changes only the fields sent (`pricing` and `fulfilment` are replaced whole); `active: false` takes it off the customers’ list, orders made with it keep their price. Another shipping service’s code is 409 SERVICE_CODE_TAKEN; an unknown id or another business’s is NOT_FOUND. Client admins only.',
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'PUT', path: '/v1/client/customer-services/shipping-services/{id}' },
  graphql: { name: 'shippingServiceUpdate', kind: 'mutation' },
  failures: { NOT_FOUND: true, SERVICE_CODE_TAKEN: true },
  input: z
    .object({
      id: pathId,
      code: serviceCode.optional(),
      name: name.optional(),
      description,
      active: active.optional(),
      pricing: ServicePricingInput.optional(),
      fulfilment: FulfilmentInput.optional(),
      max_packages: maxPackages.optional(),
      max_weight_grams: maxWeight,
    })
    .strict(),
  output: ShippingAnswer,
  examples: {
    input: { id: 5, active: false },
    output: { result: true, service: { ...SHIPPING_EXAMPLE, active: false } },
  },
  async handler(input, ctx) {
    const problems: FieldError[] = [];
    checkFulfilment(input.fulfilment, problems);
    throwIf(problems);
    const row = await updateService(ctx.em, 'shipping', ctx.caller.businessId, input.id, {
      code: input.code,
      name: input.name,
      description: input.description,
      active: input.active,
      pricing: input.pricing ? pricingOf(input.pricing) : undefined,
      fulfilment: input.fulfilment,
      max_packages: input.max_packages,
      max_weight_grams: input.max_weight_grams,
    });
    if (row === 'missing') throw errors.notFound();
    if (row === 'taken') throw taken();
    return { result: true as const, service: presentShippingService(row) };
  },
});

// Storage services.

const StorageAnswer = z.object({ result: z.literal(true), service: StorageServiceView });
const STORAGE_EXAMPLE = {
  id: 6,
  code: 'PRG-MONTH',
  name: 'Prague, monthly',
  description: null,
  active: true,
  warehouse_id: 3,
  period: 'month' as const,
  price_per_period: '2.50',
  handling_fee: '1.00',
  tax_rate: '21',
  ...TIMES,
};
const period = z.enum(['day', 'month']).describe('What a period is: a storage day, or a month of 30 of them');

export const createStorageService = defineOperation({
  name: 'create_storage_service',
  summary: 'Offer customers storage in a warehouse: a handling fee per package and a price per period.',
  description:
    'Creates a storage service (201) of a warehouse of the business (422 on `warehouse_id` otherwise): `handling_fee` per package is charged with the storage order, `price_per_period` per package for every period started since it was received (`period`: `day` or `month` of 30 storage days), `tax_rate` on both. A code the business uses for a storage service already is 409 SERVICE_CODE_TAKEN. Client admins only.',
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'POST', path: '/v1/client/customer-services/storage-services', status: 201 },
  graphql: { name: 'storageServiceCreate', kind: 'mutation' },
  failures: { SERVICE_CODE_TAKEN: true },
  input: z
    .object({
      code: serviceCode,
      name,
      description,
      active: active.default(true),
      warehouse_id: pathId.describe('A warehouse of the business'),
      period,
      price_per_period: MoneyInput.describe('Per package and period started'),
      handling_fee: MoneyInput.describe('Per package, charged with the order'),
      tax_rate: TaxRateInput,
    })
    .strict(),
  output: StorageAnswer,
  examples: {
    input: {
      code: 'PRG-MONTH',
      name: 'Prague, monthly',
      warehouse_id: 3,
      period: 'month',
      price_per_period: '2.50',
      handling_fee: '1.00',
      tax_rate: '21',
    },
    output: { result: true, service: STORAGE_EXAMPLE },
  },
  async handler(input, ctx) {
    const problems: FieldError[] = [];
    await checkWarehouse(ctx, input.warehouse_id, problems);
    throwIf(problems);
    const row = await insertService(ctx.em, 'storage', ctx.caller.businessId, {
      code: input.code,
      name: input.name,
      description: input.description ?? null,
      active: input.active,
      warehouse_id: input.warehouse_id,
      period: input.period,
      price_per_period: input.price_per_period,
      handling_fee: input.handling_fee,
      tax_rate: input.tax_rate,
    });
    if (!row) throw taken();
    return { result: true as const, service: presentStorageService(row) };
  },
});

export const updateStorageService = defineOperation({
  name: 'update_storage_service',
  summary: 'Change a storage service: the fields sent.',
  description:
    'Changes only the fields sent; a new `warehouse_id` must be a warehouse of the business (422). New prices apply to orders made and periods charged after. Another storage service’s code is 409 SERVICE_CODE_TAKEN; an unknown id or another business’s is NOT_FOUND. Client admins only.',
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'PUT', path: '/v1/client/customer-services/storage-services/{id}' },
  graphql: { name: 'storageServiceUpdate', kind: 'mutation' },
  failures: { NOT_FOUND: true, SERVICE_CODE_TAKEN: true },
  input: z
    .object({
      id: pathId,
      code: serviceCode.optional(),
      name: name.optional(),
      description,
      active: active.optional(),
      warehouse_id: pathId.optional(),
      period: period.optional(),
      price_per_period: MoneyInput.optional(),
      handling_fee: MoneyInput.optional(),
      tax_rate: TaxRateInput.optional(),
    })
    .strict(),
  output: StorageAnswer,
  examples: { input: { id: 6, price_per_period: '2.50' }, output: { result: true, service: STORAGE_EXAMPLE } },
  async handler(input, ctx) {
    if (!(await serviceById(ctx.em, 'storage', ctx.caller.businessId, input.id))) throw errors.notFound();
    const problems: FieldError[] = [];
    await checkWarehouse(ctx, input.warehouse_id, problems);
    throwIf(problems);
    const row = await updateService(ctx.em, 'storage', ctx.caller.businessId, input.id, {
      code: input.code,
      name: input.name,
      description: input.description,
      active: input.active,
      warehouse_id: input.warehouse_id,
      period: input.period,
      price_per_period: input.price_per_period,
      handling_fee: input.handling_fee,
      tax_rate: input.tax_rate,
    });
    if (row === 'missing') throw errors.notFound();
    if (row === 'taken') throw taken();
    return { result: true as const, service: presentStorageService(row) };
  },
});

// Ship-out services.

const ShipoutAnswer = z.object({ result: z.literal(true), service: ShipoutServiceView });
const SHIPOUT_EXAMPLE = {
  id: 7,
  code: 'PRG-OUT',
  name: 'Ship out from Prague',
  description: null,
  active: true,
  warehouse_id: 3,
  pricing_method: 1 as const,
  pricing: PRICING_EXAMPLE,
  fulfilment: { kind: 'own_fleet' as const },
  ...TIMES,
};
const pricingMethod = z
  .union([z.literal(1), z.literal(2)])
  .describe('1: priced at once by `pricing`; 2: priced later by staff (price_shipout)');

export const createShipoutService = defineOperation({
  name: 'create_shipout_service',
  summary: 'Offer customers ship-outs of their stored packages from a warehouse.',
  description:
    'Creates a ship-out service (201) of a warehouse of the business (422 on `warehouse_id` otherwise): `pricing_method` 1 prices a ship-out at once by `pricing` (required: 422 on `pricing`), 2 leaves it to staff (`pricing` may be null); `fulfilment` as a shipping service’s (a carrier and service the labels module knows). A code the business uses for a ship-out service already is 409 SERVICE_CODE_TAKEN. Client admins only.',
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'POST', path: '/v1/client/customer-services/shipout-services', status: 201 },
  graphql: { name: 'shipoutServiceCreate', kind: 'mutation' },
  failures: { SERVICE_CODE_TAKEN: true },
  input: z
    .object({
      code: serviceCode,
      name,
      description,
      active: active.default(true),
      warehouse_id: pathId.describe('A warehouse of the business'),
      pricing_method: pricingMethod,
      pricing: ServicePricingInput.nullish(),
      fulfilment: FulfilmentInput,
    })
    .strict(),
  output: ShipoutAnswer,
  examples: {
    input: {
      code: 'PRG-OUT',
      name: 'Ship out from Prague',
      warehouse_id: 3,
      pricing_method: 1,
      pricing: PRICING_EXAMPLE,
      fulfilment: { kind: 'own_fleet' },
    },
    output: { result: true, service: SHIPOUT_EXAMPLE },
  },
  async handler(input, ctx) {
    const problems: FieldError[] = [];
    await checkWarehouse(ctx, input.warehouse_id, problems);
    if (input.pricing_method === 1 && !input.pricing)
      problems.push({ field: 'pricing', key: 'customer_services.pricing_required' });
    checkFulfilment(input.fulfilment, problems);
    throwIf(problems);
    const row = await insertService(ctx.em, 'shipout', ctx.caller.businessId, {
      code: input.code,
      name: input.name,
      description: input.description ?? null,
      active: input.active,
      warehouse_id: input.warehouse_id,
      pricing_method: input.pricing_method,
      pricing: input.pricing ? pricingOf(input.pricing) : null,
      fulfilment: input.fulfilment,
    });
    if (!row) throw taken();
    return { result: true as const, service: presentShipoutService(row) };
  },
});

export const updateShipoutService = defineOperation({
  name: 'update_shipout_service',
  summary: 'Change a ship-out service: the fields sent.',
  description:
    'Changes only the fields sent (`pricing` and `fulfilment` are replaced whole; `pricing: null` only for method 2). A service left with method 1 and no pricing is 422 on `pricing`; a new `warehouse_id` must be a warehouse of the business (422). Another ship-out service’s code is 409 SERVICE_CODE_TAKEN; an unknown id or another business’s is NOT_FOUND. Client admins only.',
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'PUT', path: '/v1/client/customer-services/shipout-services/{id}' },
  graphql: { name: 'shipoutServiceUpdate', kind: 'mutation' },
  failures: { NOT_FOUND: true, SERVICE_CODE_TAKEN: true },
  input: z
    .object({
      id: pathId,
      code: serviceCode.optional(),
      name: name.optional(),
      description,
      active: active.optional(),
      warehouse_id: pathId.optional(),
      pricing_method: pricingMethod.optional(),
      pricing: ServicePricingInput.nullish(),
      fulfilment: FulfilmentInput.optional(),
    })
    .strict(),
  output: ShipoutAnswer,
  examples: {
    input: { id: 7, pricing_method: 2, pricing: null },
    output: { result: true, service: { ...SHIPOUT_EXAMPLE, pricing_method: 2, pricing: null } },
  },
  async handler(input, ctx) {
    const current = await serviceById(ctx.em, 'shipout', ctx.caller.businessId, input.id);
    if (!current) throw errors.notFound();
    const problems: FieldError[] = [];
    await checkWarehouse(ctx, input.warehouse_id, problems);
    const method = input.pricing_method ?? current.pricing_method;
    const pricing = input.pricing === undefined ? current.pricing : input.pricing;
    if (method === 1 && !pricing) problems.push({ field: 'pricing', key: 'customer_services.pricing_required' });
    checkFulfilment(input.fulfilment, problems);
    throwIf(problems);
    const row = await updateService(ctx.em, 'shipout', ctx.caller.businessId, input.id, {
      code: input.code,
      name: input.name,
      description: input.description,
      active: input.active,
      warehouse_id: input.warehouse_id,
      pricing_method: input.pricing_method,
      pricing: input.pricing === undefined ? undefined : input.pricing ? pricingOf(input.pricing) : null,
      fulfilment: input.fulfilment,
    });
    if (row === 'missing') throw errors.notFound();
    if (row === 'taken') throw taken();
    return { result: true as const, service: presentShipoutService(row) };
  },
});

export const SERVICE_OPERATIONS: readonly Operation[] = [
  listOperation('shipping', {
    name: 'list_staff_shipping_services',
    path: '/v1/client/customer-services/shipping-services',
    graphql: 'staffShippingServices',
    noun: 'shipping service',
    view: ShippingServiceView,
    present: (r) => presentShippingService(r),
    byWarehouse: false,
  }),
  createShippingService,
  updateShippingService,
  listOperation('storage', {
    name: 'list_staff_storage_services',
    path: '/v1/client/customer-services/storage-services',
    graphql: 'staffStorageServices',
    noun: 'storage service',
    view: StorageServiceView,
    present: (r) => presentStorageService(r),
    byWarehouse: true,
  }),
  createStorageService,
  updateStorageService,
  listOperation('shipout', {
    name: 'list_staff_shipout_services',
    path: '/v1/client/customer-services/shipout-services',
    graphql: 'staffShipoutServices',
    noun: 'ship-out service',
    view: ShipoutServiceView,
    present: (r) => presentShipoutService(r),
    byWarehouse: true,
  }),
  createShipoutService,
  updateShipoutService,
];
