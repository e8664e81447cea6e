/** The ship-out process's activities (contract.ts says what each does); each step is one transaction. */
import { ApplicationFailure } from '@temporalio/activity';
import type { Em } from '../../platform/db/orm.ts';
import type { WorkerDeps } from '../../platform/module.ts';
import { voidHold } from '../wallet/index.ts';
import { releasePackages } from '../wms/index.ts';
import { HAND_OVER_REFUSED, type ShipoutActivities } from './contract.ts';
import { holdKey, STEPS, voidKey } from './domain.ts';
import { handOverShipout, HandOverRefused } from './handover.ts';
import { lockShipout, setStatus, shipoutById, type ShipoutRow } from './repo.ts';

/**
 * Voids every hold of the ship-out (a void already made answers as it was; an offline settlement voided them) and
 * puts its packages back on the shelf unless `release` is false.
 */
export async function unwind(tx: Em, row: ShipoutRow, opts: { release?: boolean } = {}): Promise<void> {
  if (!row.settled_offline)
    for (let n = 0; n < row.payments; n++)
      await voidHold(tx, { businessId: row.business_id, key: voidKey(row.id, n), holdKey: holdKey(row.id, n) });
  if (opts.release ?? true) await releasePackages(tx, { businessId: row.business_id, shipoutId: row.id });
}

export function createShipoutActivities(deps: WorkerDeps): ShipoutActivities {
  return {
    async expireShipout(shipoutId) {
      return deps.orm.em.fork().transactional(async (tx) => {
        const row = await lockShipout(tx, shipoutId);
        // A ship-out whose creation never committed has nothing to expire.
        if (!row) return 'expired' as const;
        if (row.status !== 'pending_payment') return row.status;
        await unwind(tx, row);
        await setStatus(tx, shipoutId, 'expired');
        return 'expired' as const;
      });
    },

    async readShipoutStatus(shipoutId) {
      const row = await shipoutById(deps.orm.em.fork(), shipoutId);
      // A ship-out whose creation never committed has nothing to wait for.
      return row?.status ?? ('expired' as const);
    },

    async recordStep({ shipoutId, step }) {
      return deps.orm.em.fork().transactional(async (tx) => {
        const row = await lockShipout(tx, shipoutId);
        if (!row) throw new Error(`ship-out ${shipoutId} not found`);
        if (row.status !== STEPS[step].from) return row.status;
        await setStatus(tx, shipoutId, STEPS[step].to);
        return STEPS[step].to;
      });
    },

    async handOver({ shipoutId, userId }) {
      try {
        return await handOverShipout(deps, shipoutId, userId);
      } catch (err) {
        if (err instanceof HandOverRefused)
          throw ApplicationFailure.create({
            type: HAND_OVER_REFUSED,
            message: err.message,
            details: [err.code],
            nonRetryable: true,
          });
        throw err;
      }
    },
  };
}
