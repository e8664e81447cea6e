/**
 * Data access for app registration (table app_registration, docs/apps.md, Registration): SQL only, with typed rows.
 * Writes that decide whether an email may be used hold a transaction-scoped advisory lock on that email, so that two
 * registrations, or a registration and an approval, cannot both take it.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';

export const REGISTRATION_STATUSES = ['awaiting_code', 'pending_approval', 'completed', 'rejected', 'expired'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

export interface RegistrationRow {
  id: string;
  app_id: number;
  business_id: number;
  role: 'customer' | 'driver';
  name: string;
  email: string;
  password_hash: string | null;
  phone: string;
  device_id: string;
  device_platform: string;
  app_version: string | null;
  lang: string;
  idp_issuer: string | null;
  idp_subject: string | null;
  status: RegistrationStatus;
  code_hash: string | null;
  code_length: number;
  code_number: number;
  /** Times as the driver reads them (text); `new Date()` reads them. */
  code_sent_at: string | null;
  expires_at: string | null;
  user_id: number | null;
  decided_by: number | null;
  decided_at: string | null;
  created_at: string;
}

export type NewRegistration = Omit<
  RegistrationRow,
  'code_hash' | 'code_number' | 'code_sent_at' | 'user_id' | 'decided_by' | 'decided_at' | 'created_at' | 'expires_at'
> & { expires_at: Date | null };

/** Serialises, until the transaction ends, every write that decides whether `email` may be used. */
export async function lockEmail(tx: Em, email: string): Promise<void> {
  await executeBound(tx, `select pg_advisory_xact_lock(hashtext('app-registration-email:' || $1))`, [email]);
}

/**
 * Serialises the registrations of one identity provider subject, like lockEmail for an email (taken after it, so two
 * registrations never wait on each other's locks): two registrations with different emails and one identity
 * otherwise both find it free.
 */
export async function lockIdentity(tx: Em, issuer: string, subject: string): Promise<void> {
  await executeBound(tx, `select pg_advisory_xact_lock(hashtext('app-registration-identity:' || $1 || ' ' || $2))`, [
    issuer,
    subject,
  ]);
}

/** Whether an account has the email, or a registration waits for approval with it (or with the identity). */
export async function emailTaken(tx: Em, email: string): Promise<boolean> {
  const rows = await executeBound(
    tx,
    `select 1 from app_user where email = $1
     union all select 1 from app_registration where email = $1 and status = 'pending_approval' limit 1`,
    [email],
  );
  return rows.length > 0;
}

/** Whether the identity is bound to an account or waits for approval in a registration. */
export async function identityTaken(tx: Em, issuer: string, subject: string): Promise<boolean> {
  const rows = await executeBound(
    tx,
    `select 1 from identity_binding where issuer = $1 and subject = $2
     union all select 1 from app_registration where idp_issuer = $1 and idp_subject = $2 and status = 'pending_approval'
     limit 1`,
    [issuer, subject],
  );
  return rows.length > 0;
}

export async function insertRegistration(tx: Em, r: NewRegistration): Promise<void> {
  await executeBound(
    tx,
    `insert into app_registration (id, app_id, business_id, role, name, email, password_hash, phone, device_id,
       device_platform, app_version, lang, idp_issuer, idp_subject, status, code_length, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
    [
      r.id,
      r.app_id,
      r.business_id,
      r.role,
      r.name,
      r.email,
      r.password_hash,
      r.phone,
      r.device_id,
      r.device_platform,
      r.app_version,
      r.lang,
      r.idp_issuer,
      r.idp_subject,
      r.status,
      r.code_length,
      r.expires_at,
    ],
  );
}

/** The registration, locked for the rest of the transaction when `lock`. */
export async function registrationById(em: Em, id: string, lock = false): Promise<RegistrationRow | null> {
  const rows = await executeBound<RegistrationRow>(
    em,
    `select * from app_registration where id = $1${lock ? ' for update' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * Keeps the hash of code `codeNumber` of a registration still waiting for a code and not yet past its expiry, and
 * answers where to send it; null, with nothing written, otherwise (nothing is sent after the expiry).
 */
export async function storeCode(
  em: Em,
  id: string,
  codeNumber: number,
  codeHash: (length: number) => string,
): Promise<{ phone: string; lang: string; code_length: number; display_name: string } | null> {
  return em.transactional(async (tx) => {
    const [row] = await executeBound<{ phone: string; lang: string; code_length: number; display_name: string }>(
      tx,
      `select r.phone, r.lang, r.code_length, coalesce(a.config->'branding'->>'display_name', a.name) as display_name
       from app_registration r join platform_app a on a.id = r.app_id
       where r.id = $1 and r.status = 'awaiting_code' and r.code_number <= $2
         and (r.expires_at is null or r.expires_at > now())
       for update of r`,
      [id, codeNumber],
    );
    if (!row) return null;
    await executeBound(
      tx,
      `update app_registration set code_hash = $2, code_number = $3, code_sent_at = now(), updated_at = now() where id = $1`,
      [id, codeHash(row.code_length), codeNumber],
    );
    return row;
  });
}

/** Expires a registration still waiting for its code; whether it did. */
export async function expireRegistrationRow(em: Em, id: string): Promise<boolean> {
  const rows = await executeBound(
    em,
    `update app_registration set status = 'expired', code_hash = null, password_hash = null, updated_at = now()
     where id = $1 and status = 'awaiting_code' returning id`,
    [id],
  );
  return rows.length > 0;
}

/** Moves the registration on: the secrets it kept are dropped once it no longer needs them. */
export async function settleRegistration(
  tx: Em,
  id: string,
  status: 'pending_approval' | 'completed' | 'rejected',
  opts: { userId?: number; decidedBy?: number } = {},
): Promise<void> {
  await executeBound(
    tx,
    `update app_registration set status = $2::varchar, code_hash = null,
       password_hash = case when $2::varchar = 'pending_approval' then password_hash end,
       user_id = coalesce($3::int, user_id), decided_by = coalesce($4::int, decided_by),
       decided_at = case when $4::int is null then decided_at else now() end, updated_at = now()
     where id = $1`,
    [id, status, opts.userId ?? null, opts.decidedBy ?? null],
  );
}

/** Creates the account; null when an account has the email already. */
export async function insertAccount(
  tx: Em,
  a: { businessId: number; email: string; name: string; role: string; passwordHash: string },
): Promise<{ id: number; name: string; email: string } | null> {
  const rows = await executeBound<{ id: number; name: string; email: string }>(
    tx,
    `insert into app_user (business_id, email, name, role, password_hash, created_at, updated_at)
     values ($1, $2, $3, $4, $5, now(), now()) on conflict (email) do nothing returning id, name, email`,
    [a.businessId, a.email, a.name, a.role, a.passwordHash],
  );
  return rows[0] ?? null;
}

export interface RegistrationListRow extends RegistrationRow {
  app_code: string;
}

export async function listRegistrations(
  em: Em,
  businessId: number,
  status: RegistrationStatus,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: RegistrationListRow[] }> {
  const [count] = await executeBound<{ n: number }>(
    em,
    'select count(*)::int as n from app_registration where business_id = $1 and status = $2',
    [businessId, status],
  );
  const rows = await executeBound<RegistrationListRow>(
    em,
    `select r.*, a.code as app_code from app_registration r join platform_app a on a.id = r.app_id
     where r.business_id = $1 and r.status = $2 order by r.created_at desc, r.id limit $3 offset $4`,
    [businessId, status, limit, offset],
  );
  return { total: count!.n, rows };
}

/** The business's registration, with its app's code; locked when `lock`. */
export async function businessRegistration(
  em: Em,
  businessId: number,
  id: string,
  lock = false,
): Promise<RegistrationListRow | null> {
  const rows = await executeBound<RegistrationListRow>(
    em,
    `select r.*, a.code as app_code from app_registration r join platform_app a on a.id = r.app_id
     where r.id = $1 and r.business_id = $2${lock ? ' for update of r' : ''}`,
    [id, businessId],
  );
  return rows[0] ?? null;
}
