import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { runOperation } from '../../src/platform/catalog/run.ts';
import {
  defineOperation,
  type Caller,
  type Operation,
  type OperationContext,
} from '../../src/platform/catalog/types.ts';
import { AppError } from '../../src/platform/errors.ts';

const caller = (businessId: number | null): Caller => ({
  id: 1,
  name: 'A',
  email: 'a@x',
  role: 'platform_admin',
  businessId,
  tokenHash: 'h',
  via: 'session',
});
const ctxOf = (c: Caller | null) =>
  ({ caller: c, lang: 'en', dryRun: false, requestId: 'r' }) as unknown as OperationContext;

test('an operation that declares business callers answers 403 to a caller without a business, before its handler runs', async () => {
  const seen: number[] = [];
  const op = defineOperation({
    name: 'probe',
    summary: 'probe',
    tag: 'Test',
    roles: ['platform_admin'],
    business: true,
    input: z.object({}),
    output: z.object({ business: z.number() }),
    async handler(_input, ctx) {
      seen.push(ctx.caller.businessId);
      return { business: ctx.caller.businessId };
    },
  }) as Operation;
  await assert.rejects(
    runOperation(op, {}, ctxOf(caller(null))),
    (err) => err instanceof AppError && err.status === 403,
  );
  assert.deepEqual(seen, []);
  assert.deepEqual(await runOperation(op, {}, ctxOf(caller(7))), { business: 7 });
  assert.deepEqual(seen, [7]);
});
