/**
 * The hand-over's rows (docs/labels.md, "endofday"): end-of-day manifests, the business's end-of-day schedule
 * (`label_settings`), and the lock that runs one end of day of a business at a time.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';

export interface ManifestRow {
  id: number;
  business_id: number;
  carrier_account_id: number;
  carrier: string;
  carrier_manifest_id: string;
  /** YYYY-MM-DD. */
  ship_date: string;
  order_ids: number[];
  document: Buffer;
  created_at: Date;
}

const COLUMNS = `id, business_id, carrier_account_id, carrier, carrier_manifest_id,
  to_char(ship_date, 'YYYY-MM-DD') as ship_date, order_ids, document, created_at`;

export type NewManifest = Omit<ManifestRow, 'id' | 'created_at'>;

export async function insertManifest(em: Em, m: NewManifest): Promise<ManifestRow> {
  const rows = await executeBound<ManifestRow>(
    em,
    `insert into label_manifest (business_id, carrier_account_id, carrier, carrier_manifest_id, ship_date, order_ids,
       document)
     values ($1, $2, $3, $4, $5::date, $6::int[], $7) returning ${COLUMNS}`,
    [m.business_id, m.carrier_account_id, m.carrier, m.carrier_manifest_id, m.ship_date, m.order_ids, m.document],
  );
  return rows[0]!;
}

/** A manifest of the business; null for none (another business's included). */
export async function manifestOf(em: Em, businessId: number, id: number): Promise<ManifestRow | null> {
  const rows = await executeBound<ManifestRow>(
    em,
    `select ${COLUMNS} from label_manifest where business_id = $1 and id = $2`,
    [businessId, id],
  );
  return rows[0] ?? null;
}

/** What an end of day needs of its business: the name the manifest names as shipper, and today in its timezone. */
export async function endOfDayBusiness(
  em: Em,
  businessId: number,
): Promise<{ name: string; timezone: string; today: string }> {
  const rows = await executeBound<{ name: string; timezone: string; today: string }>(
    em,
    "select name, timezone, to_char(now() at time zone timezone, 'YYYY-MM-DD') as today from business where id = $1",
    [businessId],
  );
  if (!rows[0]) throw new Error(`no business ${businessId}`);
  return rows[0];
}

/**
 * Runs `work` while holding the business's end-of-day lock, so that two ends of day of one business (a call and the
 * schedule's run, or two calls) never put one order on two manifests: the second waits for the first. The lock is a
 * transaction-scoped advisory lock held by a transaction of its own that does nothing else, so `work` calls the
 * carriers outside any transaction and commits each manifest by itself; it is released when `work` ends, however.
 */
export async function withEndOfDayLock<T>(em: Em, businessId: number, work: () => Promise<T>): Promise<T> {
  // A fork has a connection of its own: the lock does not join a transaction the caller may be in.
  return em.fork().transactional(async (holder) => {
    await executeBound(holder, "select pg_advisory_xact_lock(hashtext('label-end-of-day'), $1)", [businessId]);
    return work();
  });
}

export interface EndOfDaySettings {
  enabled: boolean;
  /** HH:MM in the business's timezone; null when never set. */
  time: string | null;
  /** ISO weekdays, 1 Monday to 7 Sunday, ascending. */
  weekdays: number[];
}

export async function endOfDaySettings(em: Em, businessId: number): Promise<EndOfDaySettings | null> {
  const rows = await executeBound<EndOfDaySettings>(
    em,
    `select eod_enabled as enabled, eod_time as time, eod_weekdays::int[] as weekdays
     from label_settings where business_id = $1`,
    [businessId],
  );
  return rows[0] ?? null;
}

export async function storeEndOfDaySettings(em: Em, businessId: number, s: EndOfDaySettings): Promise<void> {
  await executeBound(
    em,
    `insert into label_settings (business_id, eod_enabled, eod_time, eod_weekdays)
     values ($1, $2, $3, $4::smallint[])
     on conflict (business_id) do update set eod_enabled = excluded.eod_enabled, eod_time = excluded.eod_time,
       eod_weekdays = excluded.eod_weekdays, updated_at = now()`,
    [businessId, s.enabled, s.time, s.weekdays],
  );
}
