/** Who changed an order, as its audit trail records it (docs/orders.md, "Audit trail"). */
import type { OperationContext } from '../../platform/catalog/types.ts';

/**
 * The entry a change came through: a person's or an app's session over REST or GraphQL (`api`), an AI agent over MCP
 * (`mcp`), a carrier's ingest key, a locker's device key, a hub's scanner key, or the service itself (`system`:
 * workflows, schedules, rules).
 */
export type OrderChangeSource = 'api' | 'mcp' | 'carrier' | 'device' | 'scanner' | 'system';

export interface OrderActor {
  /** The account that made the change; null for a machine key's or the service's own change. */
  userId: number | null;
  role: string | null;
  source: OrderChangeSource;
  /** The client's address; null when the service itself made the change. */
  ip: string | null;
}

export const SYSTEM_ACTOR: OrderActor = { userId: null, role: null, source: 'system', ip: null };

const SOURCE_OF_CREDENTIAL = { otep_key: 'carrier', device_key: 'device', scanner_key: 'scanner' } as const;

/** The caller of an operation as the trail records it. */
export function actorOf(ctx: Pick<OperationContext, 'caller' | 'agent' | 'clientAddress'>): OrderActor {
  const caller = ctx.caller;
  if (!caller) return { ...SYSTEM_ACTOR, ip: ctx.clientAddress };
  const machine = caller.via === 'session' ? null : SOURCE_OF_CREDENTIAL[caller.via];
  return {
    userId: machine ? null : caller.id,
    role: machine ? null : caller.role,
    source: machine ?? (ctx.agent ? 'mcp' : 'api'),
    ip: ctx.clientAddress,
  };
}
