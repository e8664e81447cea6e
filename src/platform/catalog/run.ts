import { errors } from '../errors.ts';
import { RATE_LIMIT_SUBJECT, spendQuota } from '../rateLimits.ts';
import type { BusinessContext, Operation, OperationContext } from './types.ts';
import { unsafeTextFields } from './text.ts';
import { parseInput } from './validate.ts';
import { inSpan } from '../telemetry/tracing.ts';

/**
 * The one place where every call is checked, whatever surface it came through: a per-address rate limit first
 * (bad input counts too), then token, availability, role, business switches, a per-credential rate limit, then
 * input validation (the text rule for every field first, then the operation's schema), then the handler.
 */
export function runOperation(op: Operation, raw: unknown, ctx: OperationContext): Promise<unknown> {
  return inSpan(`operation ${op.name}`, { attributes: { 'tms.operation': op.name } }, () => checkAndRun(op, raw, ctx));
}

async function checkAndRun(op: Operation, raw: unknown, ctx: OperationContext): Promise<unknown> {
  const limitBy = op.limit && RATE_LIMIT_SUBJECT[op.limit];
  if (limitBy === 'address') await spendQuota(ctx, op.limit!);
  if (op.roles !== 'public') {
    if (!ctx.caller) throw errors.unauthenticated();
    // Machine keys are narrow credentials: each opens the operations that name its kind and nothing else.
    if (![op.auth ?? 'session'].flat().includes(ctx.caller.via)) throw errors.forbidden();
  }
  await op.available?.(ctx);
  if (op.roles !== 'public') {
    if (!op.roles.includes(ctx.caller!.role)) throw errors.forbidden();
    if (op.guard) await op.guard(ctx as BusinessContext);
    if (limitBy === 'credential') await spendQuota(ctx, op.limit!);
  }
  const unsafe = unsafeTextFields(raw);
  if (unsafe.length > 0) throw errors.validation(unsafe);
  const input = parseInput(op.input, raw);
  if (op.business && (!ctx.caller || ctx.caller.businessId === null)) throw errors.forbidden();
  return op.handler(input, ctx);
}
