import { Context } from '@temporalio/activity';
import { processContext } from '../../../src/platform/catalog/processContext.ts';
import type { WorkerDeps } from '../../platform/module.ts';
import { insertOutboxEvents } from '../../platform/db/outbox.ts';
import type { Language } from '../../platform/i18n/languages.ts';
import { QuotaCounter } from '../../platform/quotaCounter.ts';
import { afterOrdersPlaced, placeOrders, pricePlacements, type PlacedOrder } from '../orders/index.ts';
import type { ChunkResult, OrderBatchActivities } from './contract.ts';
import { POSTBACK_URL_FIELD, postbackEventId } from './domain.ts';
import {
  creatorAsCaller,
  endBatch,
  lockBatch,
  markHooked,
  pendingRows,
  queuedBatches,
  readBatch,
  recordOutcomes,
  rowResults,
  stillPending,
  unhookedRows,
  type RowOutcome,
} from './repo.ts';
import { startBatchProcess } from './start.ts';
import { postbackRow, validateRow } from './views.ts';

/** Attempts of a chunk as one statement set; later attempts create its rows one by one (a savepoint each). */
const WHOLE_CHUNK_ATTEMPTS = 3;

export function createOrderBatchActivities(deps: WorkerDeps): OrderBatchActivities {
  return {
    async createBatchChunk({ batchId, limit }) {
      const em = deps.orm.em.fork();
      const heartbeat = () => Context.current().heartbeat();
      for (;;) {
        heartbeat();
        // Read and priced before the transaction: pricing may ask the road router (up to ROUTER_TIMEOUT_MS a row),
        // never while the batch's row is locked, and each priced row heartbeats, so a chunk that prices for minutes
        // is alive while a killed worker's chunk is still taken up again within 20 seconds.
        const batch = await readBatch(em, batchId);
        const rows = batch && batch.state !== 'done' ? await pendingRows(em, batchId, limit) : [];
        const checked = rows.map((r) => ({ index: r.row_index, check: validateRow(r.input) }));
        const good = checked.flatMap((c) => (c.check.ok ? [{ index: c.index, input: c.check.input }] : []));
        const prices = batch
          ? await pricePlacements(
              em,
              { config: deps.config, log: deps.log, onPriced: heartbeat },
              batch.business_id,
              good.map((g) => g.input),
            )
          : [];
        const priceOf = new Map(good.map((g, i) => [g.index, prices[i] ?? null]));
        const result = await em.transactional(async (tx): Promise<ChunkResult | null> => {
          // One chunk of a batch at a time: a second attempt of the same chunk (its first still running on a worker
          // thought dead) waits here, then finds the first's rows done.
          const locked = await lockBatch(tx, batchId);
          heartbeat();
          if (!locked || locked.state === 'done')
            return { handled: 0, counts: { total: locked?.total ?? 0, succeeded: 0, failed: 0 } };
          const pending = await stillPending(
            tx,
            batchId,
            rows.map((r) => r.row_index),
          );
          // Another attempt handled these rows while they were priced: read the next ones.
          if (rows.length > 0 && pending.size === 0) return null;
          const mine = good.filter((g) => pending.has(g.index));
          const options = { skipIfUrlField: POSTBACK_URL_FIELD, pricing: null };
          const orderOf = new Map<number, PlacedOrder>();
          if (Context.current().info.attempt <= WHOLE_CHUNK_ATTEMPTS) {
            const placed = await placeOrders(
              tx,
              locked.business_id,
              mine.map((g) => g.input),
              locked.actor,
              { ...options, prices: mine.map((g) => priceOf.get(g.index) ?? null) },
            );
            mine.forEach((g, i) => orderOf.set(g.index, placed[i]!));
          } else {
            // The chunk as a whole keeps failing: each row in a savepoint of its own, so that a row the database
            // refuses is that row's failure and the batch goes on.
            for (const g of mine) {
              try {
                const [placed] = await tx.transactional((row) =>
                  placeOrders(row, locked.business_id, [g.input], locked.actor, {
                    ...options,
                    prices: [priceOf.get(g.index) ?? null],
                  }),
                );
                orderOf.set(g.index, placed!);
              } catch (err) {
                deps.log.error({ err, batchId, row: g.index }, 'an order batch row could not be created');
              }
              heartbeat();
            }
          }
          const outcomes: RowOutcome[] = checked
            .filter(({ index }) => pending.has(index))
            .map(({ index, check }) => {
              const order = orderOf.get(index);
              return order
                ? {
                    row_index: index,
                    state: 'created',
                    order_id: order.orderId,
                    tracking_number: order.trackingNumber,
                    errors: null,
                  }
                : {
                    row_index: index,
                    state: 'failed',
                    order_id: null,
                    tracking_number: null,
                    errors: check.ok ? [{ field: '(row)', key: 'error.internal' }] : check.errors,
                  };
            });
          const counts = await recordOutcomes(tx, batchId, outcomes);
          return { handled: outcomes.length, counts };
        });
        if (result) return result;
      }
    },

    async runBatchHooks({ batchId, limit }) {
      const em = deps.orm.em.fork();
      const rows = await unhookedRows(em, batchId, limit);
      if (rows.length === 0) return 0;
      const caller = await creatorAsCaller(em, batchId);
      // The creator's account is gone or has left the business: no one to act for, so the rules are not applied.
      if (caller) {
        const quotas = new QuotaCounter(deps.orm, deps.log);
        try {
          await afterOrdersPlaced(
            processContext(deps, {
              caller,
              name: `order-batch-${batchId}`,
              quotas,
              logFields: { orderBatchId: batchId },
            }),
            rows.map((r) => ({
              orderId: r.order_id,
              orderRef: null,
              trackingNumber: r.tracking_number,
              packageNumbers: [],
              postalCode: r.postal_code,
            })),
          );
        } finally {
          await quotas.stop();
        }
      }
      await markHooked(
        em,
        batchId,
        rows.map((r) => r.row_index),
      );
      return rows.length;
    },

    async startQueuedBatches({ olderThanSeconds, limit }) {
      const queued = await queuedBatches(deps.orm.em.fork(), olderThanSeconds, limit);
      let started = 0;
      for (const b of queued) {
        Context.current().heartbeat();
        const process = { batchId: b.id, asyncId: b.async_id, businessId: b.business_id, total: b.total };
        if (await startBatchProcess(deps.temporal, process)) {
          started += 1;
          deps.log.warn({ asyncId: b.async_id }, 'an order batch left queued was started by the sweep');
        }
      }
      return started;
    },

    async finishBatch({ batchId }) {
      const em = deps.orm.em.fork();
      return em.transactional(async (tx) => {
        const locked = await lockBatch(tx, batchId);
        if (!locked) return { total: 0, succeeded: 0, failed: 0 };
        const counts = { total: locked.total, succeeded: locked.succeeded, failed: locked.failed };
        const batch = await endBatch(tx, batchId);
        // Already ended: its postback was written with that commit.
        if (!batch) return counts;
        const lang = batch.lang as Language;
        const results = (await rowResults(tx, batchId, null)).map((r) => postbackRow(r, lang));
        const eventId = postbackEventId(batch.async_id);
        await insertOutboxEvents(tx, [
          {
            businessId: batch.business_id,
            eventId,
            eventType: 'order.create_async',
            referenceType: 'order_batch',
            referenceId: batch.async_id,
            family: 'local_delivery',
            payload: {
              event_id: eventId,
              event: 'order.create_async',
              business_id: batch.business_id,
              occurred_at: new Date(batch.finished_at!).toISOString(),
              data: { async_id: batch.async_id, ...counts, results },
            },
          },
        ]);
        return counts;
      });
    },
  };
}
