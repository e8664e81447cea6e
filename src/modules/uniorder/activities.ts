/**
 * The uniorder job's activities (docs/uniorder.md, "Jobs of 500"): one item at a time, run as the job's creator with
 * the per-item logic the single operations and the batches of 20 share (operations/items.ts).
 */
import { processContext } from '../../../src/platform/catalog/processContext.ts';
import { Context } from '@temporalio/activity';
import type { BusinessContext } from '../../platform/catalog/types.ts';
import { parseInput } from '../../platform/catalog/validate.ts';
import { AppError } from '../../platform/errors.ts';
import type { Language } from '../../platform/i18n/languages.ts';
import { translate } from '../../platform/i18n/messages.ts';
import type { WorkerDeps } from '../../platform/module.ts';
import { QuotaCounter } from '../../platform/quotaCounter.ts';
import { labelOrderByKey, runPurchase } from '../labels/index.ts';
import type { UniorderJobActivities } from './contract.ts';
import { kindOfRateId } from './domain.ts';
import { startJobProcess } from './operations/jobs.ts';
import { createItem, rateItem, refusalOf } from './operations/items.ts';
import {
  creatorAsCaller,
  endJob,
  itemToRun,
  queuedJobs,
  processInputOf,
  recordItem,
  type ItemError,
  type ItemToRun,
} from './repo/jobs.ts';
import { UniorderCreateInput, UniorderRateInput } from './views.ts';

/** An item's attempts (the workflow's retry policy): the last one writes an unexpected error as the item's failure. */
const ATTEMPTS = 3;
/** How often a running item tells Temporal it is alive (its heartbeat timeout is 15 seconds). */
const HEARTBEAT_MS = 5_000;

type Outcome = { status: 'done' | 'failed'; result: unknown; errors: ItemError[] | null };

export function createUniorderJobActivities(deps: WorkerDeps): UniorderJobActivities {
  return {
    async runJobItem(jobId, index) {
      const em = deps.orm.em.fork();
      const item = await itemToRun(em, jobId, index);
      if (!item) return { index, ok: false };
      if (item.status !== 'pending') return { index, ok: item.status === 'done' };
      const context = Context.current();
      context.heartbeat();
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_MS);
      const quotas = new QuotaCounter(deps.orm, deps.log);
      try {
        const caller = await creatorAsCaller(em, jobId);
        const lang = item.lang as Language;
        const outcome: Outcome = caller
          ? await runItem(
              processContext(deps, {
                caller,
                lang,
                name: `uniorder-job-${jobId}-${index}`,
                clientAddress: `uniorder-job-${jobId}`,
                quotas,
                logFields: { uniorderJobId: jobId, index },
              }),
              item,
              context.info.attempt,
            )
          : // The creator's account is gone or has left the business: no one to act for.
            refused('NOT_FOUND', translate('uniorder.job_creator_gone', lang));
        await em.transactional((tx) => recordItem(tx, jobId, index, outcome));
        return { index, ok: outcome.status === 'done' };
      } finally {
        clearInterval(beat);
        await quotas.stop();
      }
    },

    async finishJob(jobId) {
      const em = deps.orm.em.fork();
      return em.transactional((tx) =>
        endJob(tx, jobId, (lang) => ({ code: 'INTERNAL', message: translate('error.internal', lang as Language) })),
      );
    },

    async startQueuedJobs({ olderThanSeconds, limit }) {
      const em = deps.orm.em.fork();
      let started = 0;
      for (const { id } of await queuedJobs(em, olderThanSeconds, limit)) {
        Context.current().heartbeat();
        const input = await processInputOf(em, id);
        if (input && (await startJobProcess(deps.temporal, input))) {
          started += 1;
          deps.log.warn({ uniorderJobId: id }, 'a uniorder job left queued was started by the sweep');
        }
      }
      return started;
    },
  };
}

const refused = (code: string, message: string, errors: ItemError[] | null = null, orderId?: number): Outcome => ({
  status: 'failed',
  result: { code, message, ...(orderId !== undefined && { order_id: orderId }) },
  errors,
});

/**
 * Rates or creates one item. A refusal is the item's failed result; an unexpected error is thrown for Temporal to
 * retry, and on the last attempt written as the item's failure (INTERNAL).
 */
async function runItem(ctx: BusinessContext, item: ItemToRun, attempt: number): Promise<Outcome> {
  try {
    if (item.kind === 'rate') {
      const { result: _r, ...answer } = await rateItem(ctx, parseInput(UniorderRateInput, item.input));
      return { status: 'done', result: answer, errors: null };
    }
    const input = { ...parseInput(UniorderCreateInput, item.input), idempotency_key: item.idempotency_key! };
    if (kindOfRateId(input.rate_id) === 'label') {
      // An earlier attempt stored the label order and died before the carrier answered: ask again with the same
      // carrier key, which buys nothing new if the first call got through.
      const earlier = await labelOrderByKey(ctx.em, ctx.caller.businessId, input.idempotency_key);
      if (earlier?.state === 'pending') await runPurchase(ctx, earlier.order_id);
    }
    const created = await createItem(ctx, input);
    if (created.ok) return { status: 'done', result: { order_id: created.order.order_id }, errors: null };
    if (created.code === 'PURCHASE_IN_PROGRESS' && attempt < ATTEMPTS)
      throw new Error('the label purchase of this item is still with its carrier');
    return refused(created.code, created.message, created.errors ?? null, created.order_id);
  } catch (err) {
    if (err instanceof AppError) {
      const r = refusalOf(ctx, err);
      return refused(r.code, r.message, r.errors ?? null);
    }
    if (attempt < ATTEMPTS) throw err;
    ctx.log.error({ err }, 'a uniorder job item failed on its last attempt');
    return refused('INTERNAL', translate('error.internal', ctx.lang));
  }
}
