import { errors } from '../errors.ts';
import type { BusinessContext, Operation, OperationContext } from './types.ts';
import { unsafeTextFields } from './text.ts';
import { parseInput } from './validate.ts';

/**
 * The one place where every call is checked, whatever surface it came through:
 * token, availability, role, business switches, then input validation (the text rule for every field first,
 * then the operation's schema), then the handler.
 */
export async function runOperation(op: Operation, raw: unknown, ctx: OperationContext): Promise<unknown> {
  if (op.roles !== 'public') {
    if (!ctx.caller) throw errors.unauthenticated();
    // An ingest key is a narrow machine credential: it opens the ingest operations and nothing else.
    if ((op.auth === 'otep_key') !== (ctx.caller.via === 'otep_key')) throw errors.forbidden();
  }
  await op.available?.(ctx);
  if (op.roles !== 'public') {
    if (!op.roles.includes(ctx.caller!.role)) throw errors.forbidden();
    if (op.guard) await op.guard(ctx as BusinessContext);
  }
  const unsafe = unsafeTextFields(raw);
  if (unsafe.length > 0) throw errors.validation(unsafe);
  const input = parseInput(op.input, raw);
  if (op.business && (!ctx.caller || ctx.caller.businessId === null)) throw errors.forbidden();
  return op.handler(input, ctx);
}
