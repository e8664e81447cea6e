/**
 * Receiving and the inventory (docs/customer-services.md, "Warehouses and stored packages"): staff scan the SP
 * number of an arriving parcel, and read what is stored by warehouse, customer, state and age.
 */
import { z } from 'zod';
import { errors } from '../../../platform/errors.ts';
import { offsetOf, pageOf, pageOutput, pageParams, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { fail } from '../errorCodes.ts';
import { inventoryPage, inventorySummary } from '../repo/inventory.ts';
import { markReceived, packageByNumberForUpdate, type StoredPackageRow } from '../repo/packages.ts';
import { warehouseOf } from '../repo/warehouses.ts';
import { STATES, StoredPackageView } from '../views.ts';

const TAG = 'WMS';
const STAFF = ['client_admin', 'employee'] as const;

const presentPackage = (p: StoredPackageRow): z.input<typeof StoredPackageView> => ({
  id: p.id,
  tracking_number: p.tracking_number,
  state: p.state,
  customer_id: p.customer_id,
  warehouse_id: p.warehouse_id,
  storage_order_id: p.storage_order_id,
  shipout_id: p.shipout_id,
  reference: p.reference,
  description: p.description,
  weight_grams: p.weight_grams,
  length_mm: p.length_mm,
  width_mm: p.width_mm,
  height_mm: p.height_mm,
  received_at: p.received_at ? new Date(p.received_at).toISOString() : null,
  location: p.location,
});

const PACKAGE_EXAMPLE: z.input<typeof StoredPackageView> = {
  id: 41,
  tracking_number: 'SP0123456789',
  state: 'stored',
  customer_id: 12,
  warehouse_id: 3,
  storage_order_id: 7,
  shipout_id: null,
  reference: 'BOX-1',
  description: 'Books',
  weight_grams: 2400,
  length_mm: 400,
  width_mm: 300,
  height_mm: 200,
  received_at: '2026-12-10T09:15:00.000Z',
  location: 'A-01-03',
};

export const receiveStoredPackage = defineOperation({
  name: 'receive_stored_package',
  summary: 'Scan an arriving stored package in: it becomes stored and its storage time starts.',
  description:
    'The SP tracking number of an `expected` package of a paid storage order of this warehouse makes it `stored` with `received_at` now (storage time starts), `location` (its bin) and `weight_grams` (as weighed) when given. Scanning a received package again answers it with `already_received: true` and changes nothing. A package expected at another warehouse is 409 WRONG_WAREHOUSE; one whose storage order is unpaid, cancelled or expired, or that was released or shipped, is 409 PACKAGE_NOT_RECEIVABLE with the reason in the message; an unknown number (or warehouse) is 404 NOT_FOUND. Client admins and employees.',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/wms/receiving' },
  graphql: { name: 'storedPackageReceive', kind: 'mutation' },
  failures: { NOT_FOUND: true, WRONG_WAREHOUSE: true, PACKAGE_NOT_RECEIVABLE: true },
  input: z
    .object({
      warehouse_id: pathId.describe('The warehouse scanning'),
      tracking_number: z
        .string()
        .trim()
        .min(1)
        .max(32)
        .transform((s) => s.toUpperCase())
        .describe('The SP number on the inbound label')
        .meta({ examples: ['SP0123456789'] }),
      location: z.string().trim().min(1).max(64).nullish().describe('The bin it is put in'),
      weight_grams: z.number().int().min(1).max(10_000_000).nullish().describe('The weight as weighed here'),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    already_received: z.boolean().describe('true: it was received before; nothing changed'),
    package: StoredPackageView,
  }),
  examples: {
    input: { warehouse_id: 3, tracking_number: 'SP0123456789', location: 'A-01-03' },
    output: { result: true, already_received: false, package: PACKAGE_EXAMPLE },
  },
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    return ctx.em.transactional(async (tx) => {
      const warehouse = await warehouseOf(tx, businessId, input.warehouse_id);
      if (!warehouse) throw errors.notFound();
      const found = await packageByNumberForUpdate(tx, businessId, input.tracking_number);
      if (!found) throw errors.notFound();
      if (found.warehouse_id !== warehouse.id) {
        const expectedAt = await warehouseOf(tx, businessId, found.warehouse_id);
        throw fail('WRONG_WAREHOUSE', 'wms.wrong_warehouse', { code: expectedAt?.code ?? String(found.warehouse_id) });
      }
      if (found.state === 'stored' || found.state === 'reserved')
        return { result: true as const, already_received: true, package: presentPackage(found) };
      if (found.state === 'shipped') throw fail('PACKAGE_NOT_RECEIVABLE', 'wms.not_receivable_shipped');
      if (found.state === 'released') throw fail('PACKAGE_NOT_RECEIVABLE', 'wms.not_receivable_released');
      if (!found.receivable) throw fail('PACKAGE_NOT_RECEIVABLE', 'wms.not_receivable_unpaid');
      const row = await markReceived(tx, found.id, ctx.caller.id, input.location ?? null, input.weight_grams ?? null);
      return { result: true as const, already_received: false, package: presentPackage(row) };
    });
  },
});

const InventoryItem = StoredPackageView.extend({
  warehouse_code: z.string(),
  customer: z.object({ id: z.number().int(), name: z.string(), email: z.string() }),
  age_days: z.number().int().nullable().describe('Whole days since received_at; null when not received'),
});

const SummaryRow = z.object({
  warehouse_id: z.number().int(),
  warehouse_code: z.string(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  packages: z.number().int(),
});

const ageDays = z.number().int().min(0).max(36_500);

export const getInventory = defineOperation({
  name: 'get_inventory',
  summary: 'Stored packages by warehouse, customer, state and age, with counts per warehouse and customer.',
  description:
    'The business’s stored packages matching every filter given: `warehouse_id`, `customer_id`, `state` (a list; `stored` and `reserved` by default), `min_age_days` and `max_age_days` (whole days since `received_at`; packages not received have no age and are left out by either). Oldest received first, 50 a page (`page`, `per_page` up to 200) with the `total`; each with its customer, storage order, ship-out, location and age. `summary` counts the filtered packages (every page) per warehouse and customer. An unknown `warehouse_id` or `customer_id` matches nothing. Client admins and employees.',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/wms/inventory' },
  graphql: { name: 'inventory', kind: 'query' },
  mcp: { scope: 'wms:read', risk: 'low' },
  input: z
    .object({
      warehouse_id: pathId.optional(),
      customer_id: pathId.optional(),
      state: z
        .array(z.enum(STATES))
        .min(1)
        .max(STATES.length)
        .default(['stored', 'reserved'])
        .describe('The states to list; stored and reserved by default'),
      min_age_days: ageDays.optional().describe('At least this many whole days since received'),
      max_age_days: ageDays.optional().describe('At most this many whole days since received'),
      ...pageParams,
    })
    .strict(),
  output: pageOutput('packages', InventoryItem).extend({ summary: z.array(SummaryRow) }),
  examples: {
    input: { warehouse_id: 3, page: 1, per_page: 50 },
    output: {
      ...pageOf({ page: 1, per_page: 50 }, 'packages', 1, [
        {
          ...PACKAGE_EXAMPLE,
          warehouse_code: 'PRG1',
          customer: { id: 12, name: 'Jana Novakova', email: 'jana@example.com' },
          age_days: 4,
        },
      ]),
      summary: [
        { warehouse_id: 3, warehouse_code: 'PRG1', customer_id: 12, customer_name: 'Jana Novakova', packages: 1 },
      ],
    },
  },
  async handler(input, ctx) {
    if (input.min_age_days !== undefined && input.max_age_days !== undefined && input.min_age_days > input.max_age_days)
      throw errors.field('min_age_days', 'wms.age_range');
    const filter = {
      businessId: ctx.caller.businessId,
      warehouseId: input.warehouse_id,
      customerId: input.customer_id,
      states: [...new Set(input.state)],
      minAgeDays: input.min_age_days,
      maxAgeDays: input.max_age_days,
    };
    const { total, rows } = await inventoryPage(ctx.em, filter, input.per_page, offsetOf(input));
    const summary = await inventorySummary(ctx.em, filter);
    const packages = rows.map((r) => ({
      ...presentPackage(r),
      warehouse_code: r.warehouse_code,
      customer: { id: r.customer_id, name: r.customer_name, email: r.customer_email },
      age_days: r.age_days,
    }));
    return { ...pageOf(input, 'packages', total, packages), summary };
  },
});
