import { errorCodeDefinition, type ErrorCode } from '../errorCodes.ts';
import type { Operation } from './types.ts';

/** One code an operation can answer, with what it means there. */
export interface Failure {
  code: ErrorCode;
  status: number;
  reason: string;
}

/**
 * Every code an operation can answer through the runner to any caller: those its members imply (a token's, the
 * input's, a rate limit's) and those it declares. The REST body's codes come from the transport and are added by the
 * OpenAPI document; an agent's scope and confirmation only to agents (`declares`).
 */
export function failuresOf(op: Operation): Failure[] {
  let failures = known.get(op);
  if (!failures) known.set(op, (failures = collect(op)));
  return failures;
}

const known = new WeakMap<Operation, Failure[]>();

function collect(op: Operation): Failure[] {
  const found = new Map<ErrorCode, string>();
  const add = (code: ErrorCode, reason: string | true) => {
    if (!found.has(code)) found.set(code, reason === true ? errorCodeDefinition(code).meaning : reason);
  };
  if (op.roles !== 'public') {
    add('UNAUTHENTICATED', 'Missing, expired or revoked token');
    add('FORBIDDEN', 'Role, credential kind or business not allowed');
  }
  add('VALIDATION_FAILED', 'Invalid input; errors name each failing field');
  for (const [code, reason] of Object.entries(op.failures ?? {})) add(code as ErrorCode, reason);
  if (op.limit) add('RATE_LIMITED', 'Rate limit spent: see Retry-After and the RateLimit headers');
  return [...found].map(([code, reason]) => ({ code, status: errorCodeDefinition(code).status, reason }));
}

/**
 * The codes answered to agents only: by a tool, the scope the connection lacks and the confirmation it did not give;
 * by an operation that is no tool (reached through run_graphql_query), FORBIDDEN, public or not.
 */
function agentOnly(op: Operation, code: ErrorCode): boolean {
  if (!op.mcp) return code === 'FORBIDDEN';
  return code === 'MISSING_SCOPE' || (code === 'CONFIRMATION_REQUIRED' && op.mcp.risk === 'high');
}

/**
 * Whether an operation's answer keeps its contract: a code it declares, with the status the registry gives that code
 * (a server error always may happen).
 */
export function declares(op: Operation, code: ErrorCode, status: number, toAgent: boolean): boolean {
  if (status >= 500) return true;
  if (toAgent && agentOnly(op, code)) return status === errorCodeDefinition(code).status;
  return failuresOf(op).some((f) => f.code === code && f.status === status);
}
