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

/** Connects an account; null when the business has this carrier and account number already. */
export async function insertAccount(em: Em, businessId: number, a: NewAccount): Promise<AccountRow | null> {
  const rows = await executeBound<AccountRow>(
    em,
    `insert into carrier_account (business_id, carrier, name, account_number, credentials, currency, default_shipper)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb)
     on conflict (business_id, carrier, account_number) do nothing
     returning ${COLUMNS}`,
    [
      businessId,
      a.carrier,
      a.name,
      a.account_number,
      sealCredentials(a.credentials),
      a.currency,
      a.default_shipper ? JSON.stringify(a.default_shipper) : null,
    ],
  );
  return rows[0] ?? null;
}
