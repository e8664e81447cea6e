/**
 * Warehouses (docs/customer-services.md, "Warehouses and stored packages"): the client admin creates and changes
 * them; staff list them. A warehouse is never deleted (packages and services refer to it): `active: false` closes it.
 */
import { z } from 'zod';
import { errors } from '../../../platform/errors.ts';
import { pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { fail } from '../errorCodes.ts';
import { insertWarehouse, updateWarehouse, warehousesOf, type WarehouseAddress } from '../repo/warehouses.ts';
import { CODE_PATTERN, presentWarehouse, WarehouseAddressInput, WarehouseView } from '../views.ts';

const TAG = 'WMS';

const code = z
  .string()
  .regex(CODE_PATTERN, 'A-Z, 0-9, _ and -, up to 32, starting with a letter or digit')
  .describe('Unique in the business: upper-case letters, digits, _ and -, up to 32')
  .meta({ examples: ['PRG1'] });
const name = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .meta({ examples: ['Prague main'] });
const timezone = z
  .string()
  .min(1)
  .max(64)
  .describe('IANA time zone of the warehouse')
  .meta({ examples: ['Europe/Prague'] });

const isTimezone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};
function checkTimezone(tz: string | undefined): void {
  if (tz !== undefined && !isTimezone(tz)) throw errors.field('timezone', 'wms.unknown_timezone');
}

const addressOf = (a: z.output<typeof WarehouseAddressInput>): WarehouseAddress => ({
  line1: a.line1,
  line2: a.line2 ?? null,
  city: a.city,
  state: a.state ?? null,
  postal_code: a.postal_code,
  country: a.country,
});

const WarehouseAnswer = z.object({ result: z.literal(true), warehouse: WarehouseView });

const EXAMPLE: WarehouseView = {
  id: 3,
  code: 'PRG1',
  name: 'Prague main',
  address: { line1: 'Vodickova 710/31', line2: null, city: 'Praha', state: null, postal_code: '110 00', country: 'CZ' },
  timezone: 'Europe/Prague',
  active: true,
  created_at: '2026-12-10T08:00:00.000Z',
  updated_at: '2026-12-10T08:00:00.000Z',
};

export const createWarehouse = defineOperation({
  name: 'create_warehouse',
  summary: 'Add a warehouse where customers store packages.',
  description:
    'Creates a warehouse of the business (201). `code` is unique in the business (409 WAREHOUSE_CODE_TAKEN); `timezone` is an IANA zone (422 otherwise). Storage and ship-out services are offered per warehouse. Client admins only.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/wms/warehouses', status: 201 },
  graphql: { name: 'warehouseCreate', kind: 'mutation' },
  failures: { WAREHOUSE_CODE_TAKEN: true },
  input: z.object({ code, name, address: WarehouseAddressInput, timezone, active: z.boolean().default(true) }).strict(),
  output: WarehouseAnswer,
  examples: {
    input: {
      code: 'PRG1',
      name: 'Prague main',
      address: { line1: 'Vodickova 710/31', city: 'Praha', postal_code: '110 00', country: 'CZ' },
      timezone: 'Europe/Prague',
    },
    output: { result: true, warehouse: EXAMPLE },
  },
  async handler(input, ctx) {
    checkTimezone(input.timezone);
    const row = await insertWarehouse(ctx.em, ctx.caller.businessId, {
      code: input.code,
      name: input.name,
      address: addressOf(input.address),
      timezone: input.timezone,
      active: input.active,
    });
    if (!row) throw fail('WAREHOUSE_CODE_TAKEN', 'wms.warehouse_code_taken');
    return { result: true as const, warehouse: presentWarehouse(row) };
  },
});

export const updateWarehouseOp = defineOperation({
  name: 'update_warehouse',
  summary: 'Change a warehouse: the fields sent.',
  description:
    'Changes only the fields sent; `active: false` closes the warehouse (no new storage orders; its packages stay). Another warehouse’s code is 409 WAREHOUSE_CODE_TAKEN; an unknown id or another business’s is NOT_FOUND. Client admins only.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'PUT', path: '/v1/wms/warehouses/{id}' },
  graphql: { name: 'warehouseUpdate', kind: 'mutation' },
  failures: { NOT_FOUND: true, WAREHOUSE_CODE_TAKEN: true },
  input: z
    .object({
      id: pathId,
      code: code.optional(),
      name: name.optional(),
      address: WarehouseAddressInput.optional(),
      timezone: timezone.optional(),
      active: z.boolean().optional(),
    })
    .strict(),
  output: WarehouseAnswer,
  examples: { input: { id: 3, name: 'Prague main' }, output: { result: true, warehouse: EXAMPLE } },
  async handler(input, ctx) {
    checkTimezone(input.timezone);
    const row = await updateWarehouse(ctx.em, ctx.caller.businessId, input.id, {
      code: input.code,
      name: input.name,
      address: input.address ? addressOf(input.address) : undefined,
      timezone: input.timezone,
      active: input.active,
    });
    if (row === 'missing') throw errors.notFound();
    if (row === 'taken') throw fail('WAREHOUSE_CODE_TAKEN', 'wms.warehouse_code_taken');
    return { result: true as const, warehouse: presentWarehouse(row) };
  },
});

export const getWarehouses = defineOperation({
  name: 'get_warehouses',
  summary: "The business's warehouses, by code.",
  description:
    'Every active warehouse of the business by code; `include_inactive: true` adds the closed ones. Client admins and employees.',
  tag: TAG,
  roles: ['client_admin', 'employee'],
  business: true,
  rest: { method: 'GET', path: '/v1/wms/warehouses' },
  graphql: { name: 'warehouses', kind: 'query' },
  mcp: { scope: 'wms:read', risk: 'low' },
  input: z
    .object({
      include_inactive: z.enum(['true', 'false']).default('false').describe('true: the closed warehouses too'),
    })
    .strict(),
  output: z.object({ result: z.literal(true), warehouses: z.array(WarehouseView) }),
  examples: { input: {}, output: { result: true, warehouses: [EXAMPLE] } },
  async handler(input, ctx) {
    const rows = await warehousesOf(ctx.em, ctx.caller.businessId, input.include_inactive === 'true');
    return { result: true as const, warehouses: rows.map(presentWarehouse) };
  },
});
