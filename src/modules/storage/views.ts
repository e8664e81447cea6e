/**
 * The storage module's shapes (docs/customer-services.md, "Storage orders"). Every price field is optional: a
 * customer whose `storage_services` prices are hidden gets none of them and `price_hidden: true` instead.
 */
import { z } from 'zod';
import { dateParam, intParam, pageParams, pathId } from '../../platform/catalog/schemas.ts';
import { PriceView, StorageServiceView } from '../customer-services/index.ts';
import { WarehouseView } from '../wms/index.ts';
import { MAX_PACKAGES, STORAGE_ORDER_STATUSES } from './domain.ts';

const CODE = /^[A-Z0-9][A-Z0-9_-]{0,31}$/;
const PACKAGE_STATES = ['expected', 'stored', 'reserved', 'shipped', 'released'] as const;
const money = (what: string) => z.string().describe(`${what}: an exact decimal string in the order's currency`);

export const PackageDeclaration = z
  .object({
    reference: z.string().trim().min(1).max(100).nullish().describe('Your reference for the package'),
    description: z.string().trim().min(1).max(500).nullish(),
    weight_grams: z.number().int().min(1).max(1_000_000).nullish(),
    length_mm: z.number().int().min(1).max(10_000).nullish(),
    width_mm: z.number().int().min(1).max(10_000).nullish(),
    height_mm: z.number().int().min(1).max(10_000).nullish(),
  })
  .strict();

const serviceCode = z.string().regex(CODE).describe('The storage service’s code (get_storage_order_config)');
const packages = z.array(PackageDeclaration).min(1).max(MAX_PACKAGES).describe(`1 to ${MAX_PACKAGES} packages`);

export const StorageQuoteInput = z.object({ service_code: serviceCode, packages }).strict();

export const StorageOrderInput = z
  .object({
    service_code: serviceCode,
    packages,
    reference: z.string().trim().min(1).max(100).nullish().describe('Your reference for the order'),
    expected_arrival: dateParam().nullish().describe('When the packages should reach the warehouse (YYYY-MM-DD)'),
    idempotency_key: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe(
        'The same key with the same body answers the order it created first, and creates nothing more; with another body it is IDEMPOTENCY_KEY_REUSED',
      ),
  })
  .strict();

/** The storage terms: per package and period, tax not included; the tax rate applies to every charge. */
const storageTerms = {
  period: z.enum(['day', 'month']).describe('A storage period: a storage day, or 30 of them'),
  price_per_period: money('Per package and period started, before tax').optional(),
  handling_fee: money('Per package, charged with the order, before tax').optional(),
  tax_rate: z.string().describe('Percent, on the handling fee and on each period').optional(),
};
const priceHidden = z.boolean().describe('true: the business settles prices with you offline; no price field is shown');

export const StorageConfigAnswer = z.object({
  result: z.literal(true),
  currency: z.string().optional().describe('ISO 4217: the prices and your wallet'),
  services: z.array(StorageServiceView).describe('The active storage services, each with its warehouse'),
  max_packages: z.number().int(),
  unpaid_expiry_seconds: z.number().int().describe('An unpaid order expires this long after its creation'),
  storage_day_seconds: z.number().int().describe('The length of a storage day; a month is 30 of them'),
  price_hidden: priceHidden,
});

export const StorageQuoteAnswer = z.object({
  result: z.literal(true),
  service_code: z.string(),
  packages: z.number().int(),
  ...PriceView.shape,
  ...storageTerms,
  price_hidden: priceHidden,
});

export const StorageOrderPackage = z.object({
  id: z.number().int(),
  tracking_number: z.string().describe('SP and 10 digits: print it on the package; the warehouse scans it'),
  reference: z.string().nullable(),
  description: z.string().nullable(),
  weight_grams: z.number().int().nullable(),
  length_mm: z.number().int().nullable(),
  width_mm: z.number().int().nullable(),
  height_mm: z.number().int().nullable(),
  state: z.enum(PACKAGE_STATES),
  received: z.boolean(),
  received_at: z.string().nullable(),
  location: z.string().nullable().describe('The bin it was put in'),
});

export const StorageOrderView = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  service_code: z.string(),
  warehouse: WarehouseView,
  status: z
    .enum(STORAGE_ORDER_STATUSES)
    .describe(
      'pending_payment -> confirmed (paid) -> receiving (some packages received) -> stored (all) -> closed (every package shipped or released); cancelled; expired',
    ),
  reference: z.string().nullable(),
  expected_arrival: z.string().nullable(),
  packages: z.array(StorageOrderPackage),
  ...PriceView.shape,
  paid_amount: money('Paid from the wallet').optional(),
  settled_offline: z.boolean().describe('The business recorded (part of) the price as paid outside the wallet'),
  offline_amount: money('What the business recorded as paid offline (0 when nothing)').optional(),
  balance_due: money('Still to pay').optional(),
  period: storageTerms.period,
  price_per_period: money('Per package and period started, before tax: the terms of this order').optional(),
  price_hidden: priceHidden,
  expires_at: z.string().nullable().describe('An unpaid order expires then'),
  can_edit: z.boolean().describe('Nothing received and not cancelled or expired: the warehouse still takes changes'),
  can_cancel: z.boolean().describe('pending_payment or confirmed with no package received'),
  workflow_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StorageOrderView = z.input<typeof StorageOrderView>;

export const StorageOrderAnswer = z.object({ result: z.literal(true), storage_order: StorageOrderView });
export type StorageOrderAnswer = z.input<typeof StorageOrderAnswer>;

export const StorageOrderListInput = z
  .object({
    ...pageParams,
    status: z.enum(['pending_payment', 'confirmed', 'cancelled', 'expired']).optional().describe('The stored state'),
  })
  .strict();

export const PayInput = z
  .object({
    id: pathId,
    amount: z
      .string()
      .regex(/^\d{1,15}(\.\d{1,4})?$/)
      .optional()
      .describe('How much to pay now, at most the balance due; the whole balance due when absent'),
  })
  .strict();

export const StoredPackagesInput = z
  .object({
    ...pageParams,
    state: z.enum(PACKAGE_STATES).optional(),
    warehouse_id: intParam().optional(),
  })
  .strict();

export const StoredPackageItem = StorageOrderPackage.extend({
  storage_order_id: z.number().int(),
  warehouse: z.object({ id: z.number().int(), code: z.string(), name: z.string() }),
  shipout_id: z.number().int().nullable(),
  age_days: z
    .number()
    .int()
    .nullable()
    .describe('Storage days since it was received (the business’s storage day); null before'),
  periods_charged: z.number().int().describe('Storage periods charged so far'),
  currency: z.string().optional(),
  fees_charged: money('Storage fees charged for it so far, tax included').optional(),
  fees_owed: money('Of those, still owed').optional(),
  price_hidden: priceHidden,
});
export type StoredPackageItem = z.input<typeof StoredPackageItem>;
