/**
 * The services as answers show them, for staff and for the order modules' customer reads: `hidden` (the caller's
 * family is price-hidden) leaves out every price field; the caller adds `price_hidden: true`.
 */
import type { z } from 'zod';
import { presentWarehouse, type WarehouseRow } from '../wms/index.ts';
import type { ShipoutServiceRow, ShippingServiceRow, StorageServiceRow } from './repo/services.ts';
import type { ShipoutServiceView, ShippingServiceView, StorageServiceView } from './views.ts';

interface Options {
  hidden?: boolean;
  /** The service's warehouse, shown in full when given. */
  warehouse?: WarehouseRow | null;
}

const iso = (t: string) => new Date(t).toISOString();

const common = (r: ShippingServiceRow | StorageServiceRow | ShipoutServiceRow) => ({
  id: r.id,
  code: r.code,
  name: r.name,
  description: r.description,
  active: r.active,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

/** A storage or ship-out service's common fields and its warehouse: its id, and in full when given. */
const placed = (r: StorageServiceRow | ShipoutServiceRow, opts: Options) => ({
  ...common(r),
  warehouse_id: r.warehouse_id,
  ...(opts.warehouse ? { warehouse: presentWarehouse(opts.warehouse) } : {}),
});

export const presentShippingService = (
  r: ShippingServiceRow,
  opts: Options = {},
): z.input<typeof ShippingServiceView> => ({
  ...common(r),
  ...(opts.hidden ? {} : { pricing: r.pricing }),
  fulfilment: r.fulfilment,
  max_packages: r.max_packages,
  max_weight_grams: r.max_weight_grams,
});

export const presentStorageService = (
  r: StorageServiceRow,
  opts: Options = {},
): z.input<typeof StorageServiceView> => ({
  ...placed(r, opts),
  period: r.period,
  ...(opts.hidden ? {} : { price_per_period: r.price_per_period, handling_fee: r.handling_fee, tax_rate: r.tax_rate }),
});

export const presentShipoutService = (
  r: ShipoutServiceRow,
  opts: Options = {},
): z.input<typeof ShipoutServiceView> => ({
  ...placed(r, opts),
  pricing_method: r.pricing_method,
  ...(opts.hidden ? {} : { pricing: r.pricing }),
  fulfilment: r.fulfilment,
});
