import { addingReceiver } from './receiverLock.ts';
import type { Em } from '../../../platform/db/orm.ts';
import { textArray } from '../../../platform/db/pgArray.ts';
import { openSecret, purposeOf, sealSecret, type SealedColumn } from '../../../platform/secretBox.ts';
import type { UrlFormat } from './settings.ts';

export type EndpointKind = 'partner_locker' | 'third_party' | 'ohp';

export interface EndpointRow {
  id: number;
  business_id: number;
  kind: EndpointKind;
  url: string;
  sandbox_url: string | null;
  sandbox_enabled: boolean;
  events: string[];
  format: UrlFormat;
  standard_webhooks: boolean;
  secret: string;
  key_id: string;
  previous_secret: string | null;
  previous_key_id: string | null;
  previous_valid_until: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Both secrets are stored sealed, for one purpose, since a rotation moves the current one to previous_secret. */
export const ENDPOINT_SECRETS: SealedColumn[] = ['secret', 'previous_secret'].map((column) => ({
  table: 'webhook_endpoint',
  column,
  purpose: 'webhook_endpoint.secret',
}));
const seal = (secret: string) => sealSecret(purposeOf(ENDPOINT_SECRETS[0]!), secret);
const open = (stored: string) => openSecret(purposeOf(ENDPOINT_SECRETS[0]!), stored);

/** A row as stored, its secrets opened: rows leave this module's repos so. */
export function openEndpoint(row: EndpointRow): EndpointRow {
  return {
    ...row,
    secret: open(row.secret),
    previous_secret: row.previous_secret === null ? null : open(row.previous_secret),
  };
}

/** The secrets that sign now: the current one first, then the previous one during its grace period. */
export function liveSecrets(
  e: Pick<EndpointRow, 'secret' | 'previous_secret' | 'previous_valid_until'>,
  now = new Date(),
): string[] {
  const previousLive = e.previous_secret && e.previous_valid_until && new Date(e.previous_valid_until) > now;
  return previousLive ? [e.secret, e.previous_secret!] : [e.secret];
}

export async function findProviderEndpoint(
  em: Em,
  businessId: number,
  kind: EndpointKind,
): Promise<EndpointRow | null> {
  const rows = await em.execute<EndpointRow[]>(
    'select * from webhook_endpoint where business_id = ? and kind = ? and revoked_at is null',
    [businessId, kind],
  );
  return rows[0] ? openEndpoint(rows[0]) : null;
}

export interface ProviderEndpointPatch {
  url?: string;
  sandboxUrl?: string | null;
  sandboxEnabled?: boolean;
  events?: string[];
  format?: UrlFormat;
  standardWebhooks?: boolean;
  secret?: string;
  keyId?: string;
}

export async function insertProviderEndpoint(
  em: Em,
  businessId: number,
  kind: EndpointKind,
  p: Required<Pick<ProviderEndpointPatch, 'url' | 'secret' | 'keyId'>> & ProviderEndpointPatch,
): Promise<EndpointRow> {
  const [row] = await addingReceiver(em, businessId, (tx) =>
    tx.execute<EndpointRow[]>(
      `insert into webhook_endpoint (business_id, kind, url, sandbox_url, sandbox_enabled, events, format, standard_webhooks, secret, key_id)
     values (?, ?, ?, ?, coalesce(?::boolean, true), ?::text[], coalesce(?, 'native'), coalesce(?::boolean, false), ?, ?) returning *`,
      [
        businessId,
        kind,
        p.url,
        p.sandboxUrl ?? null,
        p.sandboxEnabled ?? null,
        textArray(p.events ?? []),
        p.format ?? null,
        p.standardWebhooks ?? null,
        seal(p.secret),
        p.keyId,
      ],
    ),
  );
  return openEndpoint(row!);
}

/** Updates the given fields; a new secret replaces the old one at once and ends any rotation grace period. */
export async function updateEndpoint(em: Em, id: number, p: ProviderEndpointPatch): Promise<EndpointRow> {
  const newSecret = p.secret !== undefined;
  const [row] = await em.execute<EndpointRow[]>(
    `update webhook_endpoint e set
       url = coalesce(?, e.url),
       sandbox_url = case when ? then ? else e.sandbox_url end,
       sandbox_enabled = coalesce(?::boolean, e.sandbox_enabled),
       events = coalesce(?::text[], e.events),
       format = coalesce(?, e.format),
       standard_webhooks = coalesce(?::boolean, e.standard_webhooks),
       secret = coalesce(?, e.secret),
       key_id = coalesce(?, e.key_id),
       previous_secret = case when ? then null else e.previous_secret end,
       previous_key_id = case when ? then null else e.previous_key_id end,
       previous_valid_until = case when ? then null else e.previous_valid_until end,
       updated_at = now()
     where id = ? returning *`,
    [
      p.url ?? null,
      p.sandboxUrl !== undefined,
      p.sandboxUrl ?? null,
      p.sandboxEnabled ?? null,
      p.events ? textArray(p.events) : null,
      p.format ?? null,
      p.standardWebhooks ?? null,
      newSecret ? seal(p.secret!) : null,
      p.keyId ?? null,
      newSecret,
      newSecret,
      newSecret,
      id,
    ],
  );
  return openEndpoint(row!);
}

/** Makes `secret` current; the old one keeps signing beside it for `graceHours`. */
export async function rotateEndpointSecret(
  em: Em,
  id: number,
  secret: string,
  keyId: string,
  graceHours: number,
): Promise<EndpointRow> {
  const [row] = await em.execute<EndpointRow[]>(
    `update webhook_endpoint set previous_secret = secret, previous_key_id = key_id, previous_valid_until = now() + make_interval(hours => ?),
       secret = ?, key_id = ?, updated_at = now()
     where id = ? returning *`,
    [graceHours, seal(secret), keyId, id],
  );
  return openEndpoint(row!);
}

/** Live OHP subscriptions one business may hold, and how many of them may share a URL. */
export const MAX_OHP_SUBSCRIPTIONS = 50;
export const MAX_OHP_SUBSCRIPTIONS_PER_URL = 5;

/** Why a new subscription would be refused, or null: checked before the challenge is sent, and again when inserting. */
export type OhpRefusal = 'too_many' | 'too_many_for_url' | 'exists';

/** An event set as stored: sorted and without repeats, so equal sets compare equal. */
export const eventSet = (events: readonly string[]): string[] => [...new Set(events)].sort();

export async function ohpSubscriptionRefusal(
  em: Em,
  businessId: number,
  url: string,
  events: readonly string[],
): Promise<OhpRefusal | null> {
  const [row] = await em.execute<{ total: number; for_url: number; same: number }[]>(
    `select count(*)::int as total, count(*) filter (where url = ?)::int as for_url, count(*) filter (where url = ? and events = ?::text[])::int as same
     from webhook_endpoint where business_id = ? and kind = 'ohp' and revoked_at is null`,
    [url, url, textArray(eventSet(events)), businessId],
  );
  if (row!.same > 0) return 'exists';
  if (row!.total >= MAX_OHP_SUBSCRIPTIONS) return 'too_many';
  if (row!.for_url >= MAX_OHP_SUBSCRIPTIONS_PER_URL) return 'too_many_for_url';
  return null;
}

/**
 * Inserts the subscription unless a limit refuses it. The business's subscriptions are serialised by a
 * transaction lock, so two concurrent creations cannot both pass the counts; the unique index backs the last rule.
 */
export async function insertOhpSubscription(
  em: Em,
  businessId: number,
  s: { url: string; events: string[]; format: UrlFormat; standardWebhooks: boolean; secret: string; keyId: string },
): Promise<EndpointRow | OhpRefusal> {
  return addingReceiver(em, businessId, async (tx) => {
    await tx.execute("select pg_advisory_xact_lock(hashtext('ohp_subscriptions'), ?)", [businessId]);
    const refusal = await ohpSubscriptionRefusal(tx, businessId, s.url, s.events);
    if (refusal) return refusal;
    const [row] = await tx.execute<EndpointRow[]>(
      `insert into webhook_endpoint (business_id, kind, url, events, format, standard_webhooks, secret, key_id)
       values (?, 'ohp', ?, ?::text[], ?, ?, ?, ?) returning *`,
      [businessId, s.url, textArray(eventSet(s.events)), s.format, s.standardWebhooks, seal(s.secret), s.keyId],
    );
    return openEndpoint(row!);
  });
}

export async function listOhpSubscriptions(em: Em, businessId: number): Promise<EndpointRow[]> {
  const rows = await em.execute<EndpointRow[]>(
    "select * from webhook_endpoint where business_id = ? and kind = 'ohp' and revoked_at is null order by id",
    [businessId],
  );
  return rows.map(openEndpoint);
}

export async function revokeOhpSubscription(em: Em, businessId: number, id: number): Promise<boolean> {
  const rows = await em.execute<{ id: number }[]>(
    "update webhook_endpoint set revoked_at = now(), updated_at = now() where id = ? and business_id = ? and kind = 'ohp' and revoked_at is null returning id",
    [id, businessId],
  );
  return rows.length > 0;
}
