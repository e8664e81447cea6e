/**
 * The catalog's staff operations (docs/customer-services.md, "The catalog"): client admins create, change and list
 * the business's shipping, storage and ship-out services. A service is never deleted (orders refer to it):
 * `active: false` takes it off the customers' lists. The three kinds differ only in their own fields and checks, so
 * one table row a kind (SHIPPING, STORAGE, SHIPOUT) defines its list, create and update operations.
 */
import { z } from 'zod';
import { errors, type FieldError } from '../../../platform/errors.ts';
import { offsetOf, pageOf, pageOutput, pageParams, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext, type Operation } from '../../../platform/catalog/types.ts';
import { CARRIER_CODES, CARRIER_SERVICES, isCarrierCode } from '../../labels/index.ts';
import { warehouseOf } from '../../wms/index.ts';
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

/** The fields every kind's create takes first, then its own. */
const CREATE_COMMON = { code: serviceCode, name, description, active: active.default(true) };
/** The fields every kind's update takes first, then its own. */
const UPDATE_COMMON = {
  id: pathId,
  code: serviceCode.optional(),
  name: name.optional(),
  description,
  active: active.optional(),
};
type CreateCommon = z.output<z.ZodObject<typeof CREATE_COMMON>>;
type UpdateCommon = z.output<z.ZodObject<typeof UPDATE_COMMON>>;

/** A carrier fulfilment names a carrier and one of its services the labels module knows: 422 on the field otherwise. */
function checkFulfilment(f: Fulfilment | null | undefined, problems: FieldError[]): void {
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

/** A warehouse of the business of this id, when given: 422 on `warehouse_id` otherwise. */
async function checkWarehouse(ctx: BusinessContext, id: number | undefined, problems: FieldError[]): Promise<void> {
  if (id === undefined) return;
  if (!(await warehouseOf(ctx.em, ctx.caller.businessId, id)))
    problems.push({ field: 'warehouse_id', key: 'customer_services.unknown_warehouse' });
}

/** A method 1 ship-out service is priced at once: 422 on `pricing` without one. */
function checkPricing(method: 1 | 2, pricing: unknown, problems: FieldError[]): void {
  if (method === 1 && !pricing) problems.push({ field: 'pricing', key: 'customer_services.pricing_required' });
}

function fulfilmentProblems(f: Fulfilment | null | undefined): FieldError[] {
  const problems: FieldError[] = [];
  checkFulfilment(f, problems);
  return problems;
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

type Fields<K extends ServiceKind> = Omit<ServiceRows[K], 'id' | 'business_id' | 'created_at' | 'updated_at'>;
type Own<K extends ServiceKind> = Omit<Fields<K>, 'code' | 'name' | 'description' | 'active'>;

/** One kind of service: its names, paths and view, and what its create and update take and check. */
interface ServiceKindSpec<
  K extends ServiceKind,
  C extends z.ZodRawShape,
  U extends z.ZodRawShape,
  V extends z.ZodType,
> {
  kind: K;
  names: { list: string; create: string; update: string };
  /** The REST collection below /v1/client/customer-services/. */
  path: string;
  graphql: { list: string; create: string; update: string };
  /** `shipping service`: the lists' summary and description say it. */
  noun: string;
  view: V;
  present: (r: ServiceRows[K]) => z.input<V>;
  byWarehouse: boolean;
  create: {
    summary: string;
    description: string;
    /** The kind's own fields, after the common ones. */
    shape: C;
    example: { input: Record<string, unknown>; service: z.input<V> };
    check: (ctx: BusinessContext, input: CreateCommon & z.output<z.ZodObject<C>>) => Promise<FieldError[]>;
    values: (input: CreateCommon & z.output<z.ZodObject<C>>) => Own<K>;
  };
  update: {
    summary: string;
    description: string;
    shape: U;
    example: { input: Record<string, unknown>; service: z.input<V> };
    /** Read the service first, NOT_FOUND before any 422; `check` is given it. */
    readFirst: boolean;
    check: (
      ctx: BusinessContext,
      input: UpdateCommon & z.output<z.ZodObject<U>>,
      current: ServiceRows[K] | null,
    ) => Promise<FieldError[]>;
    values: (input: UpdateCommon & z.output<z.ZodObject<U>>) => Partial<Own<K>>;
  };
}

function throwIf(problems: FieldError[]): void {
  if (problems.length) throw errors.validation(problems);
}

/** The kind's list, create and update operations. */
function serviceOperations<
  K extends ServiceKind,
  C extends z.ZodRawShape,
  U extends z.ZodRawShape,
  V extends z.ZodType,
>(s: ServiceKindSpec<K, C, U, V>): Operation[] {
  const path = `/v1/client/customer-services/${s.path}`;
  // Typed loosely here: each handler reads its input as the spec's types say.
  const Answer: z.ZodType = z.object({ result: z.literal(true), service: s.view });
  const createInput: z.ZodType = z.object({ ...CREATE_COMMON, ...s.create.shape }).strict();
  const updateInput: z.ZodType = z.object({ ...UPDATE_COMMON, ...s.update.shape }).strict();
  const answer = (row: ServiceRows[K]) => ({ result: true as const, service: s.present(row) });
  const list = defineOperation({
    name: s.names.list,
    summary: `The business's ${s.noun}s, active and not, by code.`,
    description: `Every ${s.noun} of the business by code, with its prices (staff see them whatever customers are shown); \`active\` filters${s.byWarehouse ? ', `warehouse_id` keeps one warehouse’s' : ''}. 50 a page (\`page\`, \`per_page\` up to 200) with the \`total\`. Client admins only.`,
    tag: TAG,
    roles: ADMIN,
    business: true,
    rest: { method: 'GET', path },
    graphql: { name: s.graphql.list, kind: 'query' },
    input: z
      .object({
        active: activeFilter,
        ...(s.byWarehouse ? { warehouse_id: pathId.optional().describe('Only this warehouse’s services') } : {}),
        ...pageParams,
      })
      .strict(),
    output: pageOutput('services', s.view),
    async handler(input, ctx) {
      const i = input as { active?: 'true' | 'false'; warehouse_id?: number; page: number; per_page: number };
      const rows = (
        await servicesOf(ctx.em, s.kind, ctx.caller.businessId, { activeOnly: false, warehouseId: i.warehouse_id })
      ).filter((r) => i.active === undefined || r.active === (i.active === 'true'));
      const page = rows.slice(offsetOf(i), offsetOf(i) + i.per_page).map((r) => s.present(r));
      return pageOf(i, 'services', rows.length, page);
    },
  });
  const create = defineOperation({
    name: s.names.create,
    summary: s.create.summary,
    description: s.create.description,
    tag: TAG,
    roles: ADMIN,
    business: true,
    rest: { method: 'POST', path, status: 201 },
    graphql: { name: s.graphql.create, kind: 'mutation' },
    failures: { SERVICE_CODE_TAKEN: true },
    input: createInput,
    output: Answer,
    examples: { input: s.create.example.input, output: { result: true, service: s.create.example.service } },
    async handler(input, ctx) {
      const i = input as CreateCommon & z.output<z.ZodObject<C>>;
      throwIf(await s.create.check(ctx, i));
      const row = await insertService(ctx.em, s.kind, ctx.caller.businessId, {
        code: i.code,
        name: i.name,
        description: i.description ?? null,
        active: i.active,
        ...s.create.values(i),
      } as Fields<K>);
      if (!row) throw taken();
      return answer(row);
    },
  });
  const update = defineOperation({
    name: s.names.update,
    summary: s.update.summary,
    description: s.update.description,
    tag: TAG,
    roles: ADMIN,
    business: true,
    rest: { method: 'PUT', path: `${path}/{id}` },
    graphql: { name: s.graphql.update, kind: 'mutation' },
    failures: { NOT_FOUND: true, SERVICE_CODE_TAKEN: true },
    input: updateInput,
    output: Answer,
    examples: { input: s.update.example.input, output: { result: true, service: s.update.example.service } },
    async handler(input, ctx) {
      const i = input as UpdateCommon & z.output<z.ZodObject<U>>;
      const current = s.update.readFirst ? await serviceById(ctx.em, s.kind, ctx.caller.businessId, i.id) : null;
      if (s.update.readFirst && !current) throw errors.notFound();
      throwIf(await s.update.check(ctx, i, current));
      const row = await updateService(ctx.em, s.kind, ctx.caller.businessId, i.id, {
        code: i.code,
        name: i.name,
        description: i.description,
        active: i.active,
        ...s.update.values(i),
      } as Partial<Fields<K>>);
      if (row === 'missing') throw errors.notFound();
      if (row === 'taken') throw taken();
      return answer(row);
    },
  });
  return [list, create, update];
}

// Shipping services.

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

const SHIPPING = serviceOperations({
  kind: 'shipping',
  names: {
    list: 'list_staff_shipping_services',
    create: 'create_shipping_service',
    update: 'update_shipping_service',
  },
  path: 'shipping-services',
  graphql: { list: 'staffShippingServices', create: 'shippingServiceCreate', update: 'shippingServiceUpdate' },
  noun: 'shipping service',
  view: ShippingServiceView,
  present: presentShippingService,
  byWarehouse: false,
  create: {
    summary: 'Offer customers a shipping service: its price and who carries it.',
    description:
      'Creates a shipping service (201): `pricing` (base fee, per package, per started kg above the included weight, tax rate; decimal strings), `fulfilment` (`own_fleet`, or `carrier` with a carrier code and one of its service codes, as labelservice_methods lists them: 422 on `fulfilment.carrier` / `fulfilment.service` otherwise), `max_packages` (1 to 50) and `max_weight_grams`. A code the business uses for a shipping service already is 409 SERVICE_CODE_TAKEN. Client admins only.',
    shape: {
      pricing: ServicePricingInput,
      fulfilment: FulfilmentInput,
      max_packages: maxPackages.default(1),
      max_weight_grams: maxWeight,
    },
    example: {
      input: {
        code: 'EXPRESS',
        name: 'Express delivery',
        pricing: PRICING_EXAMPLE,
        fulfilment: SHIPPING_EXAMPLE.fulfilment,
        max_packages: 5,
        max_weight_grams: 20_000,
      },
      service: SHIPPING_EXAMPLE,
    },
    check: async (_ctx, input) => fulfilmentProblems(input.fulfilment),
    values: (input) => ({
      pricing: pricingOf(input.pricing),
      fulfilment: input.fulfilment,
      max_packages: input.max_packages,
      max_weight_grams: input.max_weight_grams ?? null,
    }),
  },
  update: {
    summary: 'Change a shipping service: the fields sent.',
    description:
      'Changes only the fields sent (`pricing` and `fulfilment` are replaced whole); `active: false` takes it off the customers’ list, orders made with it keep their price. Another shipping service’s code is 409 SERVICE_CODE_TAKEN; an unknown id or another business’s is NOT_FOUND. Client admins only.',
    shape: {
      pricing: ServicePricingInput.optional(),
      fulfilment: FulfilmentInput.optional(),
      max_packages: maxPackages.optional(),
      max_weight_grams: maxWeight,
    },
    example: { input: { id: 5, active: false }, service: { ...SHIPPING_EXAMPLE, active: false } },
    readFirst: false,
    check: async (_ctx, input) => fulfilmentProblems(input.fulfilment),
    values: (input) => ({
      pricing: input.pricing ? pricingOf(input.pricing) : undefined,
      fulfilment: input.fulfilment,
      max_packages: input.max_packages,
      max_weight_grams: input.max_weight_grams,
    }),
  },
});

// Storage services.

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

/** A storage service's own fields as given, for an insert (all there) or an update (those sent). */
const storageFields = <T extends Partial<Own<'storage'>>>(input: T): Pick<T, keyof Own<'storage'>> => ({
  warehouse_id: input.warehouse_id,
  period: input.period,
  price_per_period: input.price_per_period,
  handling_fee: input.handling_fee,
  tax_rate: input.tax_rate,
});

const STORAGE = serviceOperations({
  kind: 'storage',
  names: { list: 'list_staff_storage_services', create: 'create_storage_service', update: 'update_storage_service' },
  path: 'storage-services',
  graphql: { list: 'staffStorageServices', create: 'storageServiceCreate', update: 'storageServiceUpdate' },
  noun: 'storage service',
  view: StorageServiceView,
  present: presentStorageService,
  byWarehouse: true,
  create: {
    summary: 'Offer customers storage in a warehouse: a handling fee per package and a price per period.',
    description:
      'Creates a storage service (201) of a warehouse of the business (422 on `warehouse_id` otherwise): `handling_fee` per package is charged with the storage order, `price_per_period` per package for every period started since it was received (`period`: `day` or `month` of 30 storage days), `tax_rate` on both. A code the business uses for a storage service already is 409 SERVICE_CODE_TAKEN. Client admins only.',
    shape: {
      warehouse_id: pathId.describe('A warehouse of the business'),
      period,
      price_per_period: MoneyInput.describe('Per package and period started'),
      handling_fee: MoneyInput.describe('Per package, charged with the order'),
      tax_rate: TaxRateInput,
    },
    example: {
      input: {
        code: 'PRG-MONTH',
        name: 'Prague, monthly',
        warehouse_id: 3,
        period: 'month',
        price_per_period: '2.50',
        handling_fee: '1.00',
        tax_rate: '21',
      },
      service: STORAGE_EXAMPLE,
    },
    check: async (ctx, input) => {
      const problems: FieldError[] = [];
      await checkWarehouse(ctx, input.warehouse_id, problems);
      return problems;
    },
    values: storageFields,
  },
  update: {
    summary: 'Change a storage service: the fields sent.',
    description:
      'Changes only the fields sent; a new `warehouse_id` must be a warehouse of the business (422). New prices apply to orders made and periods charged after. Another storage service’s code is 409 SERVICE_CODE_TAKEN; an unknown id or another business’s is NOT_FOUND. Client admins only.',
    shape: {
      warehouse_id: pathId.optional(),
      period: period.optional(),
      price_per_period: MoneyInput.optional(),
      handling_fee: MoneyInput.optional(),
      tax_rate: TaxRateInput.optional(),
    },
    example: { input: { id: 6, price_per_period: '2.50' }, service: STORAGE_EXAMPLE },
    readFirst: true,
    check: async (ctx, input) => {
      const problems: FieldError[] = [];
      await checkWarehouse(ctx, input.warehouse_id, problems);
      return problems;
    },
    values: storageFields,
  },
});

// Ship-out services.

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

const SHIPOUT = serviceOperations({
  kind: 'shipout',
  names: { list: 'list_staff_shipout_services', create: 'create_shipout_service', update: 'update_shipout_service' },
  path: 'shipout-services',
  graphql: { list: 'staffShipoutServices', create: 'shipoutServiceCreate', update: 'shipoutServiceUpdate' },
  noun: 'ship-out service',
  view: ShipoutServiceView,
  present: presentShipoutService,
  byWarehouse: true,
  create: {
    summary: 'Offer customers ship-outs of their stored packages from a warehouse.',
    description:
      'Creates a ship-out service (201) of a warehouse of the business (422 on `warehouse_id` otherwise): `pricing_method` 1 prices a ship-out at once by `pricing` (required: 422 on `pricing`), 2 leaves it to staff (`pricing` may be null); `fulfilment` as a shipping service’s (a carrier and service the labels module knows). A code the business uses for a ship-out service already is 409 SERVICE_CODE_TAKEN. Client admins only.',
    shape: {
      warehouse_id: pathId.describe('A warehouse of the business'),
      pricing_method: pricingMethod,
      pricing: ServicePricingInput.nullish(),
      fulfilment: FulfilmentInput,
    },
    example: {
      input: {
        code: 'PRG-OUT',
        name: 'Ship out from Prague',
        warehouse_id: 3,
        pricing_method: 1,
        pricing: PRICING_EXAMPLE,
        fulfilment: { kind: 'own_fleet' },
      },
      service: SHIPOUT_EXAMPLE,
    },
    check: async (ctx, input) => {
      const problems: FieldError[] = [];
      await checkWarehouse(ctx, input.warehouse_id, problems);
      checkPricing(input.pricing_method, input.pricing, problems);
      checkFulfilment(input.fulfilment, problems);
      return problems;
    },
    values: (input) => ({
      warehouse_id: input.warehouse_id,
      pricing_method: input.pricing_method,
      pricing: input.pricing ? pricingOf(input.pricing) : null,
      fulfilment: input.fulfilment,
    }),
  },
  update: {
    summary: 'Change a ship-out service: the fields sent.',
    description:
      'Changes only the fields sent (`pricing` and `fulfilment` are replaced whole; `pricing: null` only for method 2). A service left with method 1 and no pricing is 422 on `pricing`; a new `warehouse_id` must be a warehouse of the business (422). Another ship-out service’s code is 409 SERVICE_CODE_TAKEN; an unknown id or another business’s is NOT_FOUND. Client admins only.',
    shape: {
      warehouse_id: pathId.optional(),
      pricing_method: pricingMethod.optional(),
      pricing: ServicePricingInput.nullish(),
      fulfilment: FulfilmentInput.optional(),
    },
    example: {
      input: { id: 7, pricing_method: 2, pricing: null },
      service: { ...SHIPOUT_EXAMPLE, pricing_method: 2, pricing: null },
    },
    readFirst: true,
    check: async (ctx, input, current) => {
      const problems: FieldError[] = [];
      await checkWarehouse(ctx, input.warehouse_id, problems);
      checkPricing(
        input.pricing_method ?? current!.pricing_method,
        input.pricing === undefined ? current!.pricing : input.pricing,
        problems,
      );
      checkFulfilment(input.fulfilment, problems);
      return problems;
    },
    values: (input) => ({
      warehouse_id: input.warehouse_id,
      pricing_method: input.pricing_method,
      pricing: input.pricing === undefined ? undefined : input.pricing ? pricingOf(input.pricing) : null,
      fulfilment: input.fulfilment,
    }),
  },
});

export const SERVICE_OPERATIONS: readonly Operation[] = [...SHIPPING, ...STORAGE, ...SHIPOUT];
