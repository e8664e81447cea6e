/**
 * The shipping order process's activities (docs/customer-services.md, "Shipping orders"): each reads the order's
 * row under its lock and writes once, so a retry after a killed worker expires, refunds or places nothing twice.
 */
import { processContext } from '../../../src/platform/catalog/processContext.ts';
import type { WorkerDeps } from '../../platform/module.ts';
import { QuotaCounter } from '../../platform/quotaCounter.ts';
import type { ShippingOrderActivities } from './contract.ts';
import { expireOrder } from './closing.ts';
import { placeDelivery } from './operations/delivery.ts';
import { customerAsCaller, lockShippingOrder, shippingOrderOf } from './repo.ts';

export function createShippingOrderActivities(deps: WorkerDeps): ShippingOrderActivities {
  return {
    async expireShippingOrder(id) {
      const em = deps.orm.em.fork();
      return em.transactional(async (tx) => {
        const o = await lockShippingOrder(tx, id);
        if (!o || o.status === 'cancelled') return 'cancelled';
        if (o.status === 'confirmed') return 'confirmed';
        if (o.status === 'pending_payment') await expireOrder(tx, o);
        return 'expired';
      });
    },

    async placeShippingDelivery(id) {
      const em = deps.orm.em.fork();
      const row = await shippingOrderOf(em, null, null, id);
      // Its process starts just before the row commits (writeOnceStarted): an order confirmed at its creation may
      // be asked for before then, and a retry finds it. A row never committed fails the process.
      if (!row) throw new Error(`shipping order ${id} is not written`);
      const caller = await customerAsCaller(em, row.business_id, row.customer_id, id);
      if (!caller) return { placed: false };
      const quotas = new QuotaCounter(deps.orm, deps.log);
      try {
        const ctx = processContext(deps, {
          caller,
          name: `shipping-order-${id}`,
          quotas,
          logFields: { shippingOrderId: id },
        });
        return { placed: await placeDelivery(ctx, id) };
      } finally {
        await quotas.stop();
      }
    },
  };
}
