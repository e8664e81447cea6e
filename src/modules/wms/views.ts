/** The wms module's shapes (docs/customer-services.md, "Warehouses and stored packages"). */
import { z } from 'zod';
import { addressInput } from '../../platform/catalog/schemas.ts';
import type { WarehouseRow } from './repo/warehouses.ts';

export const CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{0,31}$/;

/** A warehouse's address: a party address as in docs/labels.md, without a person. */
export const WarehouseAddressInput = addressInput()
  .omit({ lat: true, lng: true })
  .extend({
    state: z.string().trim().max(100).nullish().describe('State, province or region, where the country uses one'),
  });

export const WarehouseView = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  address: z.object({
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    state: z.string().nullable(),
    postal_code: z.string(),
    country: z.string().describe('ISO 3166-1 alpha-2'),
  }),
  timezone: z.string().describe('IANA time zone'),
  active: z.boolean().describe('false: closed; its packages stay readable, no new storage orders go there'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WarehouseView = z.input<typeof WarehouseView>;

export const presentWarehouse = (w: WarehouseRow): WarehouseView => ({
  id: w.id,
  code: w.code,
  name: w.name,
  address: {
    line1: w.address.line1,
    line2: w.address.line2 ?? null,
    city: w.address.city,
    state: w.address.state ?? null,
    postal_code: w.address.postal_code,
    country: w.address.country,
  },
  timezone: w.timezone,
  active: w.active,
  created_at: new Date(w.created_at).toISOString(),
  updated_at: new Date(w.updated_at).toISOString(),
});

export const STATES = ['expected', 'stored', 'reserved', 'shipped', 'released'] as const;

export const StoredPackageView = z.object({
  id: z.number().int(),
  tracking_number: z.string().describe('Ours: SP and 10 digits, on the inbound label, scanned at receiving'),
  state: z.enum(STATES),
  customer_id: z.number().int(),
  warehouse_id: z.number().int(),
  storage_order_id: z.number().int(),
  shipout_id: z.number().int().nullable(),
  reference: z.string().nullable(),
  description: z.string().nullable(),
  weight_grams: z.number().int().nullable(),
  length_mm: z.number().int().nullable(),
  width_mm: z.number().int().nullable(),
  height_mm: z.number().int().nullable(),
  received_at: z.string().nullable(),
  location: z.string().nullable().describe('The bin it was put in'),
});
