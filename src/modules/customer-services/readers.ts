/** What the order modules read of the catalog (customer-services/index.ts exports these); each joins the caller's `em`. */
import type { Em } from '../../platform/db/orm.ts';
import { serviceByCode, servicesOf, type ServiceKind, type ServiceRows } from './repo/services.ts';

/** One kind's reader by code. */
const byCode =
  <K extends ServiceKind>(kind: K) =>
  (em: Em, businessId: number, code: string, opts: { activeOnly: boolean }): Promise<ServiceRows[K] | null> =>
    serviceByCode(em, kind, businessId, code, opts.activeOnly);

/** The business's shipping service of this code (active ones only when asked), or null. */
export const shippingService = byCode('shipping');

/** The business's storage service of this code (active ones only when asked), or null. */
export const storageService = byCode('storage');

/** The business's ship-out service of this code (active ones only when asked), or null. */
export const shipoutService = byCode('shipout');

/** The business's active services of the kind by code; storage and ship-out ones of one warehouse when given. */
export const activeServices = <K extends ServiceKind>(
  em: Em,
  businessId: number,
  kind: K,
  warehouseId?: number,
): Promise<ServiceRows[K][]> => servicesOf(em, kind, businessId, { activeOnly: true, warehouseId });
