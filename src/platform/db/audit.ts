import type { OperationContext } from '../catalog/types.ts';
import { executeBound, type Em } from './orm.ts';

/** One platform-admin change: who made it, what it was, and the subject's state before and after (null when absent). */
export interface AuditEntry {
  actor: { id: number; email: string };
  /** The operation's name (`app_configure`), so a reader finds what was called. */
  action: string;
  /** What changed, as `kind:key` (`app:demo-customer`, `app:demo-customer/client:DEMO`). */
  subject: string;
  before: unknown;
  after: unknown;
}

/**
 * The platform audit trail (table platform_audit), shared by every module whose operations the platform admin calls.
 * Write it with the change's own `em`, inside the change's transaction, so a change is never kept without its row.
 */
export async function writeAudit(em: Em, entry: AuditEntry): Promise<void> {
  await executeBound(
    em,
    'insert into platform_audit (actor_id, actor_email, action, subject, before, after) values ($1, $2, $3, $4, $5, $6)',
    [
      entry.actor.id,
      entry.actor.email,
      entry.action,
      entry.subject,
      entry.before === null ? null : JSON.stringify(entry.before),
      entry.after === null ? null : JSON.stringify(entry.after),
    ],
  );
}

/**
 * Runs a change made by a signed-in caller (the platform admin's switches and apps, a business admin's price hiding)
 * in one transaction with its audit row, then empties this process's read cache at once (the other processes hear
 * NOTIFY read_cache on commit). `write` answers the subject's state before and after, and the operation's answer.
 */
export async function auditedChange<T>(
  ctx: OperationContext,
  action: string,
  subject: string,
  write: (em: OperationContext['em']) => Promise<{ before: unknown; after: unknown; answer: T }>,
): Promise<T> {
  const answer = await ctx.em.transactional(async (tx) => {
    const r = await write(tx);
    const actor = { id: ctx.caller!.id, email: ctx.caller!.email };
    await writeAudit(tx, { actor, action, subject, before: r.before, after: r.after });
    return r.answer;
  });
  ctx.reads.changed();
  return answer;
}
