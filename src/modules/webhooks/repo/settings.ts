import { addingReceiver } from './receiverLock.ts';
import type { Em } from '../../../platform/db/orm.ts';
import { textArray } from '../../../platform/db/pgArray.ts';
import { openSecret, purposeOf, sealSecret, type SealedColumn } from '../../../platform/secretBox.ts';
import type { UrlField } from '../routing.ts';
import type { PriceFamily } from '../transform.ts';
import type { WebhookFormat } from '../domain.ts';

export type UrlFormat = WebhookFormat;
export interface UrlFormatSetting {
  format: UrlFormat;
  standard_webhooks: boolean;
}

export interface WebhookSettingsRow {
  id: number;
  business_id: number;
  customer_id: number | null;
  sign_secret: string | null;
  urls: Partial<Record<UrlField, string>>;
  url_formats: Record<string, UrlFormatSetting>;
  device_order_events: string | null;
  order_lifecycle_events: string | null;
  driver_location_min_interval_sec: number;
  updated_at: Date;
}

/** The signing secret is stored sealed; rows leave this module's repos with it opened. */
export const SIGN_SECRET: SealedColumn = { table: 'webhook_settings', column: 'sign_secret' };

export function openSettings<T extends Pick<WebhookSettingsRow, 'sign_secret'>>(row: T): T {
  return row.sign_secret === null ? row : { ...row, sign_secret: openSecret(purposeOf(SIGN_SECRET), row.sign_secret) };
}

/** Whether `id` is a customer account of the business (a settings override belongs to one). */
export async function isCustomerOf(em: Em, businessId: number, id: number): Promise<boolean> {
  const [row] = await em.execute<{ n: number }[]>(
    "select count(*)::int as n from app_user where id = ? and business_id = ? and role = 'customer'",
    [id, businessId],
  );
  return row!.n > 0;
}

/** A settings row with what the payload transform needs to know about its receiver. */
export type RecipientSettings = WebhookSettingsRow & { hidden_price_families: PriceFamily[] };

export interface WebhookSettingsPatch {
  signSecret?: string | null;
  urls?: Partial<Record<UrlField, string | null>>;
  urlFormats?: Record<string, UrlFormatSetting> | null;
  deviceOrderEvents?: string | null;
  orderLifecycleEvents?: string | null;
  driverLocationMinIntervalSec?: number;
}

export async function findWebhookSettings(
  em: Em,
  businessId: number,
  customerId: number | null,
): Promise<WebhookSettingsRow | null> {
  const rows = await em.execute<WebhookSettingsRow[]>(
    'select * from webhook_settings where business_id = ? and coalesce(customer_id, 0) = ?',
    [businessId, customerId ?? 0],
  );
  return rows[0] ? openSettings(rows[0]) : null;
}

/**
 * Partial update in one statement: a field absent from the patch keeps its value, null clears it. URL fields
 * merge into the `urls` map; a cleared URL field leaves the map.
 */
export async function upsertWebhookSettings(
  em: Em,
  businessId: number,
  customerId: number | null,
  patch: WebhookSettingsPatch,
): Promise<WebhookSettingsRow> {
  const urls = Object.entries(patch.urls ?? {});
  const set = urls.filter(([, v]) => v).map(([k, v]) => [k, v] as const);
  const cleared = urls.filter(([, v]) => !v).map(([k]) => k);
  const has = (v: unknown) => v !== undefined;
  const [row] = await addingReceiver(em, businessId, (tx) =>
    tx.execute<WebhookSettingsRow[]>(
      `insert into webhook_settings as s (business_id, customer_id, sign_secret, urls, url_formats, device_order_events, order_lifecycle_events, driver_location_min_interval_sec)
     values (?, ?, ?, ?::jsonb, coalesce(?::jsonb, '{}'), ?, ?, coalesce(?::int, 60))
     on conflict (business_id, (coalesce(customer_id, 0))) do update set
       sign_secret = case when ? then excluded.sign_secret else s.sign_secret end,
       urls = (s.urls || excluded.urls) - ?::text[],
       url_formats = case when ? then excluded.url_formats else s.url_formats end,
       device_order_events = case when ? then excluded.device_order_events else s.device_order_events end,
       order_lifecycle_events = case when ? then excluded.order_lifecycle_events else s.order_lifecycle_events end,
       driver_location_min_interval_sec = case when ? then excluded.driver_location_min_interval_sec else s.driver_location_min_interval_sec end,
       updated_at = now()
     returning *`,
      [
        businessId,
        customerId,
        patch.signSecret ? sealSecret(purposeOf(SIGN_SECRET), patch.signSecret) : null,
        JSON.stringify(Object.fromEntries(set)),
        patch.urlFormats ? JSON.stringify(patch.urlFormats) : null,
        patch.deviceOrderEvents ?? null,
        patch.orderLifecycleEvents ?? null,
        patch.driverLocationMinIntervalSec ?? null,
        has(patch.signSecret),
        textArray(cleared),
        has(patch.urlFormats),
        has(patch.deviceOrderEvents),
        has(patch.orderLifecycleEvents),
        has(patch.driverLocationMinIntervalSec),
      ],
    ),
  );
  return openSettings(row!);
}
