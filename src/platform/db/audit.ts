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
