import type { Em } from '../../../platform/db/orm.ts';
import type { DeliveryRow } from './deliveries.ts';

export interface DeliveryFilter {
  businessId: number;
  ids?: number[];
  event?: string;
  status?: DeliveryRow['status'];
  referenceType?: string;
  referenceId?: string;
  from?: Date;
  to?: Date;
}

export interface LoggedDelivery extends DeliveryRow {
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
  retry_workflow_id: string | null;
}

export interface LoggedAttempt {
  id: number;
  attempt: number;
  url: string;
  request_headers: Record<string, string>;
  body_sha256: string;
  body_bytes: number;
  response_status: number | null;
  latency_ms: number;
  error: string | null;
  attempted_at: Date;
}

/** The where clause of a filter; the business is always part of it. Times bound the delivery's creation. */
function where(f: DeliveryFilter): { sql: string; params: unknown[] } {
  const parts = ['business_id = ?'];
  const params: unknown[] = [f.businessId];
  const add = (sql: string, value: unknown) => {
    parts.push(sql);
    params.push(value);
  };
  if (f.ids) add('id in (?)', f.ids.length ? f.ids : [0]);
  if (f.event) add('event_type = ?', f.event);
  if (f.status) add('status = ?', f.status);
  if (f.referenceType) add('reference_type = ?', f.referenceType);
  if (f.referenceId) add('reference_id = ?', f.referenceId);
  if (f.from) add('created_at >= ?', f.from);
  if (f.to) add('created_at < ?', f.to);
  return { sql: parts.join(' and '), params };
}

export async function listDeliveries(
  em: Em,
  f: DeliveryFilter,
  page: number,
  perPage: number,
): Promise<{ total: number; rows: LoggedDelivery[] }> {
  const w = where(f);
  const [count] = await em.execute<{ total: string }[]>(
    `select count(*) as total from webhook_delivery where ${w.sql}`,
    w.params,
  );
  const rows = await em.execute<LoggedDelivery[]>(
    `select * from webhook_delivery where ${w.sql} order by id desc limit ? offset ?`,
    [...w.params, perPage, (page - 1) * perPage],
  );
  return { total: Number(count!.total), rows };
}

export async function findDelivery(
  em: Em,
  businessId: number,
  id: number,
): Promise<{ delivery: LoggedDelivery; attempts: LoggedAttempt[] } | null> {
  const [delivery] = await em.execute<LoggedDelivery[]>(
    'select * from webhook_delivery where id = ? and business_id = ?',
    [id, businessId],
  );
  if (!delivery) return null;
  const attempts = await em.execute<LoggedAttempt[]>(
    `select id, attempt, url, request_headers, body_sha256, body_bytes, response_status, latency_ms, error, attempted_at
     from webhook_attempt where delivery_id = ? order by attempt`,
    [id],
  );
  return { delivery, attempts };
}

/**
 * Opens a new round of attempts on finished deliveries (a replay: delivered or dead; a resend: dead only),
 * with the same ids and as many attempts as the first round had. Returns what a workflow must now drive.
 */
export async function reopenDeliveries(
  em: Em,
  f: DeliveryFilter,
  statuses: DeliveryRow['status'][],
  limit: number,
): Promise<LoggedDelivery[]> {
  const w = where(f);
  return em.execute<LoggedDelivery[]>(
    `update webhook_delivery d set status = 'retrying', round = d.round + 1, round_base = d.attempts,
       max_attempts = d.attempts + (d.max_attempts - d.round_base), retry_workflow_id = null, locked_until = null, updated_at = now()
     where d.id in (select id from webhook_delivery where ${w.sql} and status in (?) order by id limit ? for update skip locked)
     returning d.*`,
    [...w.params, statuses, limit],
  );
}

/** Removes what the retention period has passed: finished deliveries with their log, old attempts, and published events nobody references. */
export async function pruneWebhookLog(
  em: Em,
  retentionDays: number,
  batch: number,
): Promise<{ deliveries: number; attempts: number; events: number }> {
  const cutoff = [retentionDays];
  const deleted = async (sql: string) => {
    let total = 0;
    for (;;) {
      const rows = await em.execute<{ n: number }[]>(
        `with gone as (${sql} returning 1) select count(*)::int as n from gone`,
        [...cutoff, batch],
      );
      total += rows[0]!.n;
      if (rows[0]!.n < batch) return total;
    }
  };
  const attempts = await deleted(`delete from webhook_attempt where id in (
    select id from webhook_attempt where attempted_at < now() - make_interval(days => ?) limit ?)`);
  const deliveries = await deleted(`delete from webhook_delivery where id in (
    select id from webhook_delivery where status in ('delivered', 'dead') and updated_at < now() - make_interval(days => ?) limit ?)`);
  const events = await deleted(`delete from outbox_event where id in (
    select o.id from outbox_event o where o.published_at < now() - make_interval(days => ?)
      and not exists (select 1 from webhook_delivery d where d.outbox_event_id = o.id) limit ?)`);
  return { deliveries, attempts, events };
}
