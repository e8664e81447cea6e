/** What the order modules read of the catalog (customer-services/index.ts exports these); each joins the caller's `em`. */
import type { Em } from '../../platform/db/orm.ts';
import {
  serviceByCode,
  servicesOf,
  type ServiceKind,
  type ServiceRows,
  type ShipoutServiceRow,
  type ShippingServiceRow,
  type StorageServiceRow,
} from './repo/services.ts';

/** The business's shipping service of this code (active ones only when asked), or null. */
export const shippingService = (
  em: Em,
  businessId: number,
  code: string,
  opts: { activeOnly: boolean },
): Promise<ShippingServiceRow | null> => serviceByCode(em, 'shipping', businessId, code, opts.activeOnly);

/** The business's storage service of this code (active ones only when asked), or null. */
export const storageService = (
  em: Em,
  businessId: number,
  code: string,
  opts: { activeOnly: boolean },
): Promise<StorageServiceRow | null> => serviceByCode(em, 'storage', businessId, code, opts.activeOnly);

/** The business's ship-out service of this code (active ones only when asked), or null. */
export const shipoutService = (
  em: Em,
  businessId: number,
  code: string,
  opts: { activeOnly: boolean },
): Promise<ShipoutServiceRow | null> => serviceByCode(em, 'shipout', businessId, code, opts.activeOnly);

/** The business's active services of the kind by code; storage and ship-out ones of one warehouse when given. */
export const activeServices = <K extends ServiceKind>(
  em: Em,
  businessId: number,
  kind: K,
  warehouseId?: number,
): Promise<ServiceRows[K][]> => servicesOf(em, kind, businessId, { activeOnly: true, warehouseId });
