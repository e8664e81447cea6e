import type { Em } from '../../platform/db/orm.ts';
import type { NotificationStatus } from './domain.ts';

export interface NotificationRow {
  id: string;
  reference_type: string;
  reference_id: string;
  channel: string;
  recipient: string | null;
  template: string;
  status: NotificationStatus;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

export interface NotificationKey {
  /** Unique per message owed: an attempt again finds its row. */
  key: string;
  businessId: number;
  referenceType: string;
  referenceId: string;
  template: string;
  recipient: string | null;
}

/** The row of this message, written when first owed; its status tells whether anything is left to do. */
export async function findOrCreateNotification(
  em: Em,
  n: NotificationKey,
): Promise<{ id: string; status: NotificationStatus }> {
  const [row] = await em.execute<{ id: string; status: NotificationStatus }[]>(
    `with created as (
       insert into notification (business_id, key, reference_type, reference_id, channel, recipient, template, status)
       values (?, ?, ?, ?, 'email', ?, ?, 'pending') on conflict (key) do nothing returning id, status)
     select id::text, status from created union all select id::text, status from notification where key = ?`,
    [n.businessId, n.key, n.referenceType, n.referenceId, n.recipient, n.template, n.key],
  );
  return row!;
}

/** Counts an attempt and records how it ended: the new status, and the error of a failed try (never the message). */
export async function recordAttempt(
  em: Em,
  id: string,
  status: NotificationStatus,
  error: string | null,
  counted = true,
): Promise<void> {
  await em.execute(
    `update notification set status = ?, attempts = attempts + ?, last_error = ?, updated_at = now(), sent_at = case when ? = 'sent' then now() else sent_at end
     where id = ? and status = 'pending'`,
    [status, counted ? 1 : 0, error === null ? null : error.slice(0, 500), status, id],
  );
}

/** Gives a message up after its last attempt. */
export async function abandonNotice(em: Em, key: string, error: string): Promise<void> {
  await em.execute(
    "update notification set status = 'failed', last_error = ?, updated_at = now() where key = ? and status = 'pending'",
    [error.slice(0, 500), key],
  );
}

export interface NotificationFilter {
  businessId?: number;
  referenceType?: string;
  referenceId?: string;
  status?: NotificationStatus;
  limit: number;
  offset: number;
}

export async function listNotifications(
  em: Em,
  f: NotificationFilter,
): Promise<{ total: number; items: NotificationRow[] }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.businessId !== undefined) {
    where.push('business_id = ?');
    params.push(f.businessId);
  }
  if (f.referenceType !== undefined) {
    where.push('reference_type = ?');
    params.push(f.referenceType);
  }
  if (f.referenceId !== undefined) {
    where.push('reference_id = ?');
    params.push(f.referenceId);
  }
  if (f.status) {
    where.push('status = ?');
    params.push(f.status);
  }
  const clause = where.length > 0 ? `where ${where.join(' and ')}` : '';
  const [count] = await em.execute<{ n: number }[]>(`select count(*)::int as n from notification ${clause}`, params);
  const items = await em.execute<NotificationRow[]>(
    `select id::text, reference_type, reference_id, channel, recipient, template, status, attempts, last_error, created_at, sent_at
     from notification ${clause} order by id desc limit ? offset ?`,
    [...params, f.limit, f.offset],
  );
  return { total: count!.n, items };
}
