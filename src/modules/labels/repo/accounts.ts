/**
 * Carrier accounts (docs/labels.md, "Carrier accounts"): a business's connections to carriers. Credentials are
 * sealed at rest (carrier_account.credentials, docs/secrets.md) and opened only for a carrier call.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import { openSecret, purposeOf, sealSecret, type SealedColumn } from '../../../platform/secretBox.ts';
import type { CarrierAccount, LabelParty } from '../carriers/adapter.ts';

export const SEALED_CREDENTIALS: SealedColumn = { table: 'carrier_account', column: 'credentials' };
const PURPOSE = purposeOf(SEALED_CREDENTIALS);

export interface AccountRow {
  id: number;
  business_id: number;
  carrier: string;
  name: string;
  account_number: string;
  credentials: string;
  currency: string;
  default_shipper: LabelParty | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'id, business_id, carrier, name, account_number, credentials, currency, default_shipper, active, created_at, updated_at';

/** The account as a carrier call gets it: its credentials opened. */
export function openAccount(row: AccountRow): CarrierAccount {
  return {
    id: row.id,
    account_number: row.account_number,
    currency: row.currency,
    test_mode: row.carrier.startsWith('sandbox_'),
    credentials: JSON.parse(openSecret(PURPOSE, row.credentials)) as Record<string, string>,
  };
}

export const sealCredentials = (credentials: Record<string, string>): string =>
  sealSecret(PURPOSE, JSON.stringify(credentials));

/** The names of the credentials set, never their values. */
export const credentialFields = (row: AccountRow): string[] =>
  Object.keys(JSON.parse(openSecret(PURPOSE, row.credentials)) as object).sort();

/** The business's active accounts, of these carriers when given, oldest first. */
export function activeAccounts(em: Em, businessId: number, carriers?: readonly string[]): Promise<AccountRow[]> {
  return executeBound<AccountRow>(
    em,
    `select ${COLUMNS} from carrier_account
     where business_id = $1 and active and ($2::text[] is null or carrier = any($2)) order by id`,
    [businessId, carriers ?? null],
  );
}

/** Every account of the business, active or not. */
export function businessAccounts(em: Em, businessId: number): Promise<AccountRow[]> {
  return executeBound<AccountRow>(em, `select ${COLUMNS} from carrier_account where business_id = $1 order by id`, [
    businessId,
  ]);
}

export async function accountById(em: Em, businessId: number, id: number): Promise<AccountRow | null> {
  const rows = await executeBound<AccountRow>(
    em,
    `select ${COLUMNS} from carrier_account where business_id = $1 and id = $2`,
    [businessId, id],
  );
  return rows[0] ?? null;
}

export interface NewAccount {
  carrier: string;
  name: string;
  account_number: string;
  credentials: Record<string, string>;
  currency: string;
  default_shipper: LabelParty | null;
}

/**
 * Connects an account; null when the business has this carrier and account number connected already. An account
 * disconnected before is connected again with the fields given (the unique key keeps its row and its labels).
 * `seal: false` (the demo seed, which may run where no key is installed) leaves the credentials for the start-up
 * step to seal (secrets module, sealPlainSecrets) before any request reads them.
 */
export async function insertAccount(
  em: Em,
  businessId: number,
  a: NewAccount,
  { seal = true } = {},
): Promise<AccountRow | null> {
  const rows = await executeBound<AccountRow>(
    em,
    `insert into carrier_account (business_id, carrier, name, account_number, credentials, currency, default_shipper)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb)
     on conflict (business_id, carrier, account_number) do update set name = excluded.name,
       credentials = excluded.credentials, currency = excluded.currency, default_shipper = excluded.default_shipper,
       active = true, updated_at = now()
     where not carrier_account.active
     returning ${COLUMNS}`,
    [
      businessId,
      a.carrier,
      a.name,
      a.account_number,
      seal ? sealCredentials(a.credentials) : JSON.stringify(a.credentials),
      a.currency,
      a.default_shipper ? JSON.stringify(a.default_shipper) : null,
    ],
  );
  return rows[0] ?? null;
}

export type AccountChanges = Partial<NewAccount>;

/**
 * Changes the fields given of an active account (credentials replace the whole set); null when the business has no
 * such active account, 'taken' when the change collides with another of its accounts (carrier and account number).
 */
export async function updateAccount(
  em: Em,
  businessId: number,
  id: number,
  c: AccountChanges,
): Promise<AccountRow | 'taken' | null> {
  const rows = await executeBound<AccountRow>(
    em,
    `update carrier_account a set
       name = coalesce($3, a.name), account_number = coalesce($4, a.account_number),
       credentials = coalesce($5, a.credentials), currency = coalesce($6, a.currency),
       default_shipper = case when $7::boolean then $8::jsonb else a.default_shipper end, updated_at = now()
     where a.business_id = $1 and a.id = $2 and a.active
       and not exists (select 1 from carrier_account o where o.business_id = $1 and o.id <> $2
         and o.carrier = a.carrier and o.account_number = coalesce($4, a.account_number))
     returning ${COLUMNS}`,
    [
      businessId,
      id,
      c.name ?? null,
      c.account_number ?? null,
      c.credentials ? sealCredentials(c.credentials) : null,
      c.currency ?? null,
      c.default_shipper !== undefined,
      c.default_shipper ? JSON.stringify(c.default_shipper) : null,
    ],
  );
  if (rows[0]) return rows[0];
  const current = await accountById(em, businessId, id);
  return current?.active ? 'taken' : null;
}

/** Disconnects an active account (no new rates; its labels stay readable); null when there is none. */
export async function deactivateAccount(em: Em, businessId: number, id: number): Promise<AccountRow | null> {
  const rows = await executeBound<AccountRow>(
    em,
    `update carrier_account set active = false, updated_at = now()
     where business_id = $1 and id = $2 and active returning ${COLUMNS}`,
    [businessId, id],
  );
  return rows[0] ?? null;
}
