/**
 * Data access: SQL only, with typed rows (tables platform_setting and business_switch; business for codes and the
 * assignment module's column; app_user for a customer's hidden price families).
 */
import { executeBound, type Em } from '../../platform/db/orm.ts';
import type { PriceFamily } from '../../platform/db/outbox.ts';
import type { OptInFamily } from './domain.ts';

/** A business's switches as stored: a business without a business_switch row has every default. */
export interface SwitchRow {
  order_chat: boolean;
  sms_marketing: boolean;
  ai_agent: boolean;
  sms_marketing_migrated: boolean;
  sms_marketing_revoked_at: Date | null;
  sms_marketing_revoked_reason: string | null;
  ai_agent_daily_turn_cap: number | null;
}

export interface BusinessRow extends SwitchRow {
  id: number;
  code: string;
  name: string;
  assignment_module_enabled: boolean;
}

const SWITCH_COLUMNS = `coalesce(s.order_chat, false) as order_chat, coalesce(s.sms_marketing, false) as sms_marketing,
  coalesce(s.ai_agent, false) as ai_agent, coalesce(s.sms_marketing_migrated, false) as sms_marketing_migrated,
  s.sms_marketing_revoked_at, s.sms_marketing_revoked_reason, s.ai_agent_daily_turn_cap`;
const BUSINESS_COLUMNS = `b.id, b.code, b.name, b.assignment_module_enabled, ${SWITCH_COLUMNS}`;

/** The business's switches (the defaults when it has no row, or when there is no such business). */
export async function switchesOf(em: Em, businessId: number): Promise<SwitchRow> {
  const rows = await executeBound<SwitchRow>(
    em,
    `select ${SWITCH_COLUMNS} from (select 1) one left join business_switch s on s.business_id = $1`,
    [businessId],
  );
  return rows[0]!;
}

/** The business with its switches, locked for the rest of the transaction when `lock`. */
export async function businessByCode(em: Em, code: string, lock = false): Promise<BusinessRow | null> {
  if (lock) await executeBound(em, 'select id from business where code = $1 for update', [code]);
  const rows = await executeBound<BusinessRow>(
    em,
    `select ${BUSINESS_COLUMNS} from business b left join business_switch s on s.business_id = b.id where b.code = $1`,
    [code],
  );
  return rows[0] ?? null;
}

export async function countBusinesses(em: Em): Promise<number> {
  return (await executeBound<{ n: number }>(em, 'select count(*)::int as n from business', []))[0]!.n;
}

export async function listBusinesses(em: Em, offset: number, limit: number): Promise<BusinessRow[]> {
  return executeBound<BusinessRow>(
    em,
    `select ${BUSINESS_COLUMNS} from business b left join business_switch s on s.business_id = b.id
     order by b.code limit $1 offset $2`,
    [limit, offset],
  );
}

export async function setAssignmentModule(em: Em, businessId: number, enabled: boolean): Promise<void> {
  await executeBound(em, 'update business set assignment_module_enabled = $2, updated_at = now() where id = $1', [
    businessId,
    enabled,
  ]);
}

/** The business_switch columns an operation may write, by what they hold: never a name the caller sent. */
const COLUMN = {
  order_chat: 'order_chat',
  sms_marketing: 'sms_marketing',
  ai_agent: 'ai_agent',
  migrated: 'sms_marketing_migrated',
  cap: 'ai_agent_daily_turn_cap',
} as const satisfies Record<OptInFamily | 'migrated' | 'cap', string>;

/** Writes one switch of the business, creating its row with the defaults for the others. */
export async function setSwitch(
  em: Em,
  businessId: number,
  which: keyof typeof COLUMN,
  value: boolean | number | null,
): Promise<void> {
  const column = COLUMN[which];
  await executeBound(
    em,
    `insert into business_switch (business_id, ${column}) values ($1, $2)
     on conflict (business_id) do update set ${column} = excluded.${column}, updated_at = now()`,
    [businessId, value],
  );
}

/** Revokes SMS Marketing (keeping the first revocation's time) with its reason, or lifts the revocation. */
export async function setSmsRevocation(em: Em, businessId: number, revoked: boolean, reason: string | null) {
  await executeBound(
    em,
    `insert into business_switch (business_id, sms_marketing_revoked_at, sms_marketing_revoked_reason)
       values ($1, case when $2::boolean then now() end, case when $2::boolean then $3::varchar end)
     on conflict (business_id) do update set
       sms_marketing_revoked_at = case when $2::boolean then coalesce(business_switch.sms_marketing_revoked_at, now()) end,
       sms_marketing_revoked_reason = excluded.sms_marketing_revoked_reason, updated_at = now()`,
    [businessId, revoked, reason],
  );
}

/** A platform setting's stored value, or null when the platform admin never set it. */
export async function settingOf(em: Em, key: string): Promise<unknown> {
  const rows = await executeBound<{ value: unknown }>(em, 'select value from platform_setting where key = $1', [key]);
  return rows[0]?.value ?? null;
}

/** Stores a platform setting, or removes it (null) so that its default applies again. */
export async function setSetting(em: Em, key: string, value: unknown): Promise<void> {
  if (value === null) {
    await executeBound(em, 'delete from platform_setting where key = $1', [key]);
    return;
  }
  await executeBound(
    em,
    `insert into platform_setting (key, value) values ($1, $2::jsonb)
     on conflict (key) do update set value = excluded.value, updated_at = now()`,
    [key, JSON.stringify(value)],
  );
}

/** Serialises the changes of one platform setting (the row may not exist yet). */
export async function lockSetting(em: Em, key: string): Promise<void> {
  await executeBound(em, 'select pg_advisory_xact_lock(hashtext($1))', [`platform_setting:${key}`]);
}

export interface CustomerRow {
  id: number;
  hidden_price_families: PriceFamily[];
}

/** A customer account of the business, locked for the rest of the transaction when `lock`; null for anyone else. */
export async function customerOf(em: Em, businessId: number, id: number, lock = false): Promise<CustomerRow | null> {
  const rows = await executeBound<CustomerRow>(
    em,
    `select id, coalesce(hidden_price_families, '{}') as hidden_price_families from app_user
     where id = $1 and business_id = $2 and role = 'customer'${lock ? ' for update' : ''}`,
    [id, businessId],
  );
  return rows[0] ?? null;
}

export async function setHiddenPriceFamilies(em: Em, id: number, families: readonly PriceFamily[]): Promise<void> {
  await executeBound(em, 'update app_user set hidden_price_families = $2::text[], updated_at = now() where id = $1', [
    id,
    families,
  ]);
}

export async function businessCode(em: Em, businessId: number): Promise<string> {
  const rows = await executeBound<{ code: string }>(em, 'select code from business where id = $1', [businessId]);
  return rows[0]!.code;
}
