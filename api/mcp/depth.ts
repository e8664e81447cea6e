/**
 * The nesting limit of every request's JSON (MAX_JSON_DEPTH, the runner's for REST and GraphQL too), applied to an MCP
 * request before the SDK reads it. The SDK serialises the parsed body again (toWebRequest) by recursion, and a few
 * thousand levels overflowed the stack there: a bare 500 "Internal server error" with the cause kept to itself.
 *
 * The answer is JSON-RPC's Invalid Request (-32600) with HTTP 400, as the transport's other refusals: the message as a
 * whole is refused before any method is dispatched, whatever it is (a request, a notification, a batch), so there is
 * no method whose params (-32602) were judged. The id is echoed when the message has a readable one.
 */
import type Koa from 'koa';
import { MAX_JSON_DEPTH, nestsDeeperThan, isObject } from '../../src/platform/json.ts';
import type { State } from '../middleware/context.ts';

export const TOO_DEEP_MESSAGE = `Invalid Request: the JSON nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; at most ${MAX_JSON_DEPTH} are allowed`;

/** Answers a request nested deeper than the limit, logging it once (never its body); false when it is within it. */
export function refusedTooDeep(ctx: Koa.ParameterizedContext<State>): boolean {
  const body = ctx.request.body;
  if (!nestsDeeperThan(body, MAX_JSON_DEPTH)) return false;
  ctx.state.log.warn({ limit: MAX_JSON_DEPTH }, 'MCP request refused: its JSON nests deeper than the limit');
  const id = isObject(body) && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null;
  ctx.status = 400;
  ctx.body = { jsonrpc: '2.0', error: { code: -32600, message: TOO_DEEP_MESSAGE }, id };
  return true;
}
