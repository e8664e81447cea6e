import { AppError, errors } from '../errors.ts';
import { RATE_LIMIT_SUBJECT, spendQuota } from '../rateLimits.ts';
import type { AgentGrant, BusinessContext, Operation, OperationContext } from './types.ts';
import { unsafeTextFields } from './text.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../json.ts';
import { parseInput } from './validate.ts';
import { inSpan } from '../telemetry/tracing.ts';
import { declares } from './failures.ts';

/** Whether a grant holds a tool's scope (`a + b` needs both); a public tool needs none. */
export const holdsScope = (scopes: AgentGrant['scopes'], scope: string | null | undefined): boolean =>
  !scope || scopes === '*' || scope.split(' + ').every((s) => scopes.includes(s));

/** Refuses a grant that lacks a tool's scope, naming the scope. */
export function requireScope(scopes: AgentGrant['scopes'], scope: string | null | undefined): void {
  if (!holdsScope(scopes, scope))
    throw new AppError(403, 'MISSING_SCOPE', 'error.missing_scope', { params: { scope: scope! } });
}

/** An agent's call needs the tool's scope, and a high-risk tool its explicit confirmation (docs/mcp.md). */
function checkAgent(op: Operation, agent: AgentGrant): void {
  if (!op.mcp) throw errors.forbidden();
  requireScope(agent.scopes, op.mcp.scope);
  if (op.mcp.risk === 'high' && !agent.confirmed)
    throw new AppError(428, 'CONFIRMATION_REQUIRED', 'error.confirmation_required');
}

/**
 * The one place where every call is checked, whatever surface it came through: a per-address rate limit first
 * (bad input counts too), then token, availability, role, business switches, a per-credential rate limit, then
 * input validation (the nesting limit, the text rule for every field, then the operation's schema), then the handler.
 */
export function runOperation(op: Operation, raw: unknown, ctx: OperationContext): Promise<unknown> {
  return inSpan(`operation ${op.name}`, { attributes: { 'tms.operation': op.name } }, () =>
    checkAndRun(op, raw, ctx).catch((err: unknown) => {
      throw keptToContract(op, err, ctx);
    }),
  );
}

/**
 * An error code the operation does not declare is a broken contract: logged always, and answered as a server
 * error under STRICT_ERROR_CODES (the test suite's setting), so the test that meets it fails.
 */
function keptToContract(op: Operation, err: unknown, ctx: OperationContext): unknown {
  if (!(err instanceof AppError) || declares(op, err.code, err.status, !!ctx.agent)) return err;
  ctx.log.error({ operation: op.name, code: err.code }, 'operation answered an error code it does not declare');
  return ctx.config.strictErrorCodes
    ? new AppError(500, 'INTERNAL', 'error.internal', { extra: { undeclared_code: err.code } })
    : err;
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
    if (!op.roles.includes(ctx.caller!.role)) {
      // A customer's operation says so to the client account that calls it (get_account_credits, the specification).
      throw errors.forbidden(op.roles.every((r) => r === 'customer') ? 'error.customer_only' : undefined);
    }
    if (op.guard) await op.guard(ctx as BusinessContext);
    if (limitBy === 'credential') await spendQuota(ctx, op.limit!);
  }
  if (ctx.agent) checkAgent(op, ctx.agent);
  // Depth first: the walks after it (the text rule's, the schema's) cost more the deeper the input goes.
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) throw errors.field('(body)', 'field.too_deep', { limit: MAX_JSON_DEPTH });
  const unsafe = unsafeTextFields(raw);
  if (unsafe.length > 0) throw errors.validation(unsafe);
  const input = parseInput(op.input, raw);
  if (op.business && (!ctx.caller || ctx.caller.businessId === null)) throw errors.forbidden();
  return op.handler(input, ctx);
}
