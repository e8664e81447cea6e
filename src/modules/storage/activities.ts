/**
 * The storage activities (docs/customer-services.md, "Storage orders" and "The storage fee run"): the unpaid
 * expiry of one order, and one page of the fee run, each customer in a transaction of its own.
 */
import { Context } from '@temporalio/activity';
import type { WorkerDeps } from '../../platform/module.ts';
import { FEE_RUN_CONCURRENCY, type StorageActivities } from './contract.ts';
import { chargeCustomer } from './fees.ts';
import { expireOrder } from './orderSteps.ts';
import { customersDue } from './repo/fees.ts';

export function createStorageActivities(deps: WorkerDeps): StorageActivities {
  return {
    async expireStorageOrder(storageOrderId) {
      return deps.orm.em.fork().transactional((tx) => expireOrder(tx, storageOrderId));
    },

    async chargeStorageFeesPage({ after, limit, business_id }) {
      const page = await customersDue(deps.orm.em.fork(), { after, limit, businessId: business_id });
      let fees = 0;
      let transfers = 0;
      let next = 0;
      // A few customers at a time, each in its own transaction: they share no row but the business's revenue
      // account, which every transfer locks in id order after the wallet's, so they never deadlock.
      const charge = async () => {
        while (next < page.length) {
          const c = page[next++]!;
          const done = await deps.orm.em.fork().transactional((tx) => chargeCustomer(tx, c.business_id, c.customer_id));
          fees += done.fees;
          transfers += done.transfers;
          Context.current().heartbeat(c.customer_id);
        }
      };
      await Promise.all(Array.from({ length: Math.min(FEE_RUN_CONCURRENCY, page.length) }, charge));
      return {
        customers: page.length,
        fees,
        transfers,
        next: page.length < limit ? null : page[page.length - 1]!.customer_id,
      };
    },
  };
}
