import type { Em } from '../../../platform/db/orm.ts';

/**
 * Runs `write`, which adds a receiver of `owner`'s events (a settings row or an endpoint), in a transaction that
 * first takes the owner's receiver lock exclusively: event transactions that found nobody to receive the owner's
 * events (insertOutboxEvents) commit before it, and those that start after it see the new receiver.
 */
export function addingReceiver<T>(em: Em, owner: number, write: (tx: Em) => Promise<T>): Promise<T> {
  return em.transactional(async (tx) => {
    await tx.execute('select lock_webhook_receivers(?)', [owner]);
    return write(tx);
  });
}
