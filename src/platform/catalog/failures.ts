import { errorCodeDefinition, type ErrorCode } from '../errorCodes.ts';
import type { Operation } from './types.ts';

/** One code an operation can answer, with what it means there. */
export interface Failure {
  code: ErrorCode;
  status: number;
  reason: string;
}

/**
 * Every code an operation can answer through the runner: those its members imply (a token's, the input's, a rate
 * limit's, an agent's scope and confirmation when it is a tool) and those it declares. The REST body's codes come
 * from the transport and are added by the OpenAPI document.
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
  if (op.mcp) {
    add('MISSING_SCOPE', true);
    if (op.mcp.risk === 'high') add('CONFIRMATION_REQUIRED', true);
  }
  return [...found].map(([code, reason]) => ({ code, status: errorCodeDefinition(code).status, reason }));
}

/** Whether an operation's answer with this code keeps its contract (a server error always may happen). */
export function declares(op: Operation, code: ErrorCode, status: number): boolean {
  return status >= 500 || failuresOf(op).some((f) => f.code === code);
}
