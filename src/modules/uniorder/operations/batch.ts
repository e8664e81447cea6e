/** Creating up to 20 orders in one call (docs/uniorder.md, "Batches of 20"), each item judged on its own. */
import type { z } from 'zod';
import { STAFF } from '../../../platform/roles.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { parseInput } from '../../../platform/catalog/validate.ts';
import { AppError } from '../../../platform/errors.ts';
import { BATCH_LIMIT, kindOfRateId, mapLimited, UNIORDER_CARRIER_CONCURRENCY } from '../domain.ts';
import { CreateBatchAnswer, CreateBatchInput, UniorderCreateInput } from '../views.ts';
import { createItem, refusalOf, type CreateItemResult } from './items.ts';

type ItemResult = z.input<typeof CreateBatchAnswer>['results'][number];

export const uniorderCreateBatch = defineOperation({
  name: 'uniorder_create_batch',
  summary: `Create up to ${BATCH_LIMIT} orders at rates of uniorder_rate in one call, each judged on its own.`,
  description: `Each item is a uniorder_create input, created as uniorder_create creates it: its own transactions and its own \`idempotency_key\`. Label purchases run at most ${UNIORDER_CARRIER_CONCURRENCY} at once (so never more than ${UNIORDER_CARRIER_CONCURRENCY} per carrier); local orders are placed one after the other. An item that fails is its own result \`{index, result: false, order_id?, code, message, errors?}\` (a carrier's refusal is LABEL_PURCHASE_FAILED with the \`order_id\` of the order kept in status 60); the others are \`{index, result: true, order}\`. Answers 200 with \`total\`, \`succeeded\` and \`failed\`. The whole call is VALIDATION_FAILED only when \`items\` is missing, empty, holds more than ${BATCH_LIMIT} items or an item that is not an object.`,
  tag: 'Uniorder',
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/uniorder/batch' },
  graphql: { name: 'uniorderCreateBatch', kind: 'mutation' },
  mcp: { scope: 'uniorder:write', risk: 'high' },
  input: CreateBatchInput,
  output: CreateBatchAnswer,
  async handler(input, ctx) {
    const parsed = input.items.map((item, index) => {
      try {
        return { index, input: parseInput(UniorderCreateInput, item) };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return { index, refused: refusalOf(ctx, err) };
      }
    });
    const results: ItemResult[] = new Array(parsed.length);
    const run = async (ctxOf: BusinessContext, index: number, item: UniorderCreateInput) => {
      results[index] = itemResult(index, await createItem(ctxOf, item));
    };
    const labels: { index: number; input: UniorderCreateInput }[] = [];
    for (const p of parsed) {
      if ('refused' in p) results[p.index] = itemResult(p.index, p.refused!);
      else if (kindOfRateId(p.input.rate_id) === 'label') labels.push(p);
      else await run(ctx, p.index, p.input);
    }
    // Each purchase on its own fork of the unit of work: they run side by side. A fork has a connection of its own,
    // outside the call's transaction, so a dry run buys them one after another in its one rolled-back transaction.
    if (ctx.dryRun) for (const p of labels) await run(ctx, p.index, p.input);
    else
      await mapLimited(labels, UNIORDER_CARRIER_CONCURRENCY, (p) =>
        run({ ...ctx, em: ctx.em.fork() }, p.index, p.input),
      );
    const succeeded = results.filter((r) => r.result).length;
    return { result: true as const, total: results.length, succeeded, failed: results.length - succeeded, results };
  },
});

function itemResult(index: number, r: CreateItemResult): ItemResult {
  if (r.ok) return { index, result: true as const, order: r.order };
  const { ok: _ok, ...refusal } = r;
  return { index, result: false as const, ...refusal };
}
