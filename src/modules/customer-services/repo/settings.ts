/** A business's customer-services settings (one row once it sets any). */
import { executeBound, type Em } from '../../../platform/db/orm.ts';

export interface CustomerServiceSettings {
  currency: string;
  unpaid_expiry_seconds: number;
  storage_day_seconds: number;
}

export const DEFAULT_SETTINGS: CustomerServiceSettings = {
  currency: 'USD',
  unpaid_expiry_seconds: 86_400,
  storage_day_seconds: 86_400,
};

/** The business's settings, or the defaults when it set none. */
export async function customerServiceSettings(em: Em, businessId: number): Promise<CustomerServiceSettings> {
  const rows = await executeBound<CustomerServiceSettings>(
    em,
    `select currency, unpaid_expiry_seconds, storage_day_seconds from customer_service_settings where business_id = $1`,
    [businessId],
  );
  return rows[0] ?? { ...DEFAULT_SETTINGS };
}

/** Writes the fields given over the current settings (or the defaults); answers the settings after. */
export async function setSettings(
  em: Em,
  businessId: number,
  f: Partial<CustomerServiceSettings>,
): Promise<CustomerServiceSettings> {
  const rows = await executeBound<CustomerServiceSettings>(
    em,
    `insert into customer_service_settings as s (business_id, currency, unpaid_expiry_seconds, storage_day_seconds)
     values ($1, coalesce($2, $5), coalesce($3, $6::int), coalesce($4, $7::int))
     on conflict (business_id) do update set
       currency = coalesce($2, s.currency),
       unpaid_expiry_seconds = coalesce($3, s.unpaid_expiry_seconds),
       storage_day_seconds = coalesce($4, s.storage_day_seconds),
       updated_at = now()
     returning currency, unpaid_expiry_seconds, storage_day_seconds`,
    [
      businessId,
      f.currency ?? null,
      f.unpaid_expiry_seconds ?? null,
      f.storage_day_seconds ?? null,
      DEFAULT_SETTINGS.currency,
      DEFAULT_SETTINGS.unpaid_expiry_seconds,
      DEFAULT_SETTINGS.storage_day_seconds,
    ],
  );
  return rows[0]!;
}
