/**
 * Data access: SQL only, with typed rows (tables sms_campaign, sms_campaign_recipient, sms_opt_out). Every query an
 * operation makes names the caller's business; the activities go by the campaign id their process was given.
 */
import { executeBound, type Em } from '../../platform/db/orm.ts';

export type CampaignState = 'draft' | 'running' | 'paused' | 'done' | 'cancelled';

export interface CampaignRow {
  id: number;
  business_id: number;
  name: string;
  body: string;
  send_at: Date | null;
  per_minute: number;
  quiet_start: number;
  quiet_end: number;
  state: CampaignState;
  total: number;
  sent: number;
  failed: number;
  skipped_opted_out: number;
  created_by: number | null;
  created_at: Date;
  started_at: Date | null;
  ended_at: Date | null;
}

const COLUMNS = `id, business_id, name, body, send_at, per_minute, quiet_start, quiet_end, state, total, sent, failed,
  skipped_opted_out, created_by, created_at, started_at, ended_at`;

export async function insertCampaign(
  em: Em,
  c: {
    businessId: number;
    name: string;
    body: string;
    sendAt: Date | null;
    perMinute: number;
    quietStart: number;
    quietEnd: number;
    createdBy: number;
  },
): Promise<CampaignRow> {
  const [row] = await executeBound<CampaignRow>(
    em,
    `insert into sms_campaign (business_id, name, body, send_at, per_minute, quiet_start, quiet_end, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${COLUMNS}`,
    [c.businessId, c.name, c.body, c.sendAt, c.perMinute, c.quietStart, c.quietEnd, c.createdBy],
  );
  return row!;
}

/** The business's campaign, or null; `lock` takes its row lock for a state change. */
export async function campaignOf(em: Em, businessId: number, id: number, lock = false): Promise<CampaignRow | null> {
  const [row] = await executeBound<CampaignRow>(
    em,
    `select ${COLUMNS} from sms_campaign where business_id = $1 and id = $2${lock ? ' for update' : ''}`,
    [businessId, id],
  );
  return row ?? null;
}

export async function listCampaigns(
  em: Em,
  businessId: number,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: CampaignRow[] }> {
  const [count] = await executeBound<{ n: number }>(
    em,
    'select count(*)::int as n from sms_campaign where business_id = $1',
    [businessId],
  );
  const rows = await executeBound<CampaignRow>(
    em,
    `select ${COLUMNS} from sms_campaign where business_id = $1 order by id desc limit $2 offset $3`,
    [businessId, limit, offset],
  );
  return { total: count!.n, rows };
}

/** The phone numbers of the business's order recipients, as written, with the country of each address. */
export async function audienceOf(em: Em, businessId: number): Promise<{ phone: string; country: string | null }[]> {
  return executeBound(
    em,
    `select distinct recipient->>'phone' as phone, upper(recipient->'address'->>'country') as country
     from delivery_order
     where business_id = $1 and coalesce(recipient->>'phone', '') <> ''`,
    [businessId],
  );
}

export async function businessTimezone(em: Em, businessId: number): Promise<string> {
  const [row] = await executeBound<{ timezone: string }>(em, 'select timezone from business where id = $1', [
    businessId,
  ]);
  return row?.timezone ?? 'UTC';
}

/** Fixes the audience and marks the campaign running; in the start's transaction, with the row locked. */
export async function startCampaign(em: Em, id: number, phones: readonly string[]): Promise<void> {
  for (let i = 0; i < phones.length; i += 5_000)
    await executeBound(
      em,
      `insert into sms_campaign_recipient (campaign_id, phone) select $1, unnest($2::text[]) on conflict do nothing`,
      [id, phones.slice(i, i + 5_000)],
    );
  await executeBound(
    em,
    `update sms_campaign set state = 'running', total = $2, started_at = now(), updated_at = now() where id = $1`,
    [id, phones.length],
  );
}

/** A campaign never started ends here (no process to tell). */
export async function cancelDraft(em: Em, id: number): Promise<void> {
  await executeBound(
    em,
    `update sms_campaign set state = 'cancelled', ended_at = now(), updated_at = now() where id = $1 and state = 'draft'`,
    [id],
  );
}

/** The process's state write; an ended campaign stays ended. */
export async function setState(em: Em, id: number, state: 'running' | 'paused' | 'done' | 'cancelled'): Promise<void> {
  await executeBound(
    em,
    `update sms_campaign set state = $2::text, updated_at = now(),
       ended_at = case when $2::text in ('done', 'cancelled') then now() else ended_at end
     where id = $1 and state in ('running', 'paused')`,
    [id, state],
  );
}

/**
 * The campaign for its process. Read with a share lock, so that a first batch that comes while the start's
 * transaction still holds the row waits for its commit and finds the audience written.
 */
export async function campaignById(em: Em, id: number): Promise<CampaignRow | null> {
  const [row] = await executeBound<CampaignRow>(em, `select ${COLUMNS} from sms_campaign where id = $1 for share`, [
    id,
  ]);
  return row ?? null;
}

/** The next recipients still pending after `after`, in number order. */
export async function nextPending(em: Em, campaignId: number, after: string, limit: number): Promise<string[]> {
  const rows = await executeBound<{ phone: string }>(
    em,
    `select phone from sms_campaign_recipient where campaign_id = $1 and phone > $2 and status = 'pending'
     order by phone limit $3`,
    [campaignId, after, limit],
  );
  return rows.map((r) => r.phone);
}

export async function isOptedOut(em: Em, businessId: number, phone: string): Promise<boolean> {
  const rows = await executeBound(em, 'select 1 from sms_opt_out where business_id = $1 and phone = $2', [
    businessId,
    phone,
  ]);
  return rows.length > 0;
}

export type Outcome = 'sent' | 'failed' | 'skipped_opted_out';

/**
 * A recipient's outcome and the campaign's counter, together (call in a transaction). A recipient already handled
 * (a retried batch) is left as it is and counted once.
 */
export async function recordOutcome(
  em: Em,
  campaignId: number,
  phone: string,
  outcome: Outcome,
  providerMessageId: string | null,
): Promise<void> {
  const changed = await executeBound(
    em,
    `update sms_campaign_recipient set status = $3, provider_message_id = $4, handled_at = now()
     where campaign_id = $1 and phone = $2 and status = 'pending' returning 1`,
    [campaignId, phone, outcome, providerMessageId],
  );
  if (changed.length === 0) return;
  // The column is one of three fixed names, never input.
  await executeBound(em, `update sms_campaign set ${outcome} = ${outcome} + 1, updated_at = now() where id = $1`, [
    campaignId,
  ]);
}

export interface OptOutRow {
  phone: string;
  source: 'staff' | 'reply';
  created_at: Date;
}

/** Records the opt-out; one already recorded is kept as it was. Answers the row and whether it is new. */
export async function insertOptOut(
  em: Em,
  o: { businessId: number; phone: string; source: 'staff' | 'reply'; recordedBy: number | null },
): Promise<{ row: OptOutRow; created: boolean }> {
  const [inserted] = await executeBound<OptOutRow>(
    em,
    `insert into sms_opt_out (business_id, phone, source, recorded_by) values ($1, $2, $3, $4)
     on conflict (business_id, phone) do nothing returning phone, source, created_at`,
    [o.businessId, o.phone, o.source, o.recordedBy],
  );
  if (inserted) return { row: inserted, created: true };
  const [existing] = await executeBound<OptOutRow>(
    em,
    'select phone, source, created_at from sms_opt_out where business_id = $1 and phone = $2',
    [o.businessId, o.phone],
  );
  return { row: existing!, created: false };
}

export async function listOptOuts(
  em: Em,
  businessId: number,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: OptOutRow[] }> {
  const [count] = await executeBound<{ n: number }>(
    em,
    'select count(*)::int as n from sms_opt_out where business_id = $1',
    [businessId],
  );
  const rows = await executeBound<OptOutRow>(
    em,
    `select phone, source, created_at from sms_opt_out where business_id = $1
     order by created_at desc, phone limit $2 offset $3`,
    [businessId, limit, offset],
  );
  return { total: count!.n, rows };
}
