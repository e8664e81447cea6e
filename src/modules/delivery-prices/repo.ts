/** Data access of local delivery prices, SQL only with typed rows: the business's price model (delivery_price_model). */
import { executeBound, type Em } from '../../platform/db/orm.ts';
import type { PriceModel } from './domain.ts';

interface ModelRow extends Omit<PriceModel, 'origin'> {
  origin_lat: number;
  origin_lng: number;
  updated_at: Date;
}

export type StoredPriceModel = PriceModel & { updated_at: Date };

// Numeric columns come back as text, exactly as stored; trailing zeros of the scale are kept, the API trims nothing.
const MODEL_COLUMNS = `trim(currency) as currency, base_fee::text as base_fee, per_km::text as per_km, per_kg::text as per_kg,
  included_weight_kg::text as included_weight_kg, p2p_surcharge::text as p2p_surcharge,
  time_window_surcharge::text as time_window_surcharge, extra_package_surcharge::text as extra_package_surcharge,
  tax_rate::text as tax_rate, origin_lat, origin_lng, updated_at`;

const modelOf = ({ origin_lat, origin_lng, ...rest }: ModelRow): StoredPriceModel => ({
  ...rest,
  origin: { lat: origin_lat, lng: origin_lng },
});

/** The business's price model, or null when it has none. */
export async function findPriceModel(em: Em, businessId: number): Promise<StoredPriceModel | null> {
  const rows = await executeBound<ModelRow>(
    em,
    `select ${MODEL_COLUMNS} from delivery_price_model where business_id = $1`,
    [businessId],
  );
  return rows[0] ? modelOf(rows[0]) : null;
}

/** Writes the business's price model whole (created or replaced); answers it as stored. */
export async function savePriceModel(
  em: Em,
  businessId: number,
  m: PriceModel,
  updatedBy: number,
): Promise<StoredPriceModel> {
  const [row] = await executeBound<ModelRow>(
    em,
    `insert into delivery_price_model as p (business_id, currency, base_fee, per_km, per_kg, included_weight_kg, p2p_surcharge,
       time_window_surcharge, extra_package_surcharge, tax_rate, origin_lat, origin_lng, updated_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     on conflict (business_id) do update set currency = excluded.currency, base_fee = excluded.base_fee,
       per_km = excluded.per_km, per_kg = excluded.per_kg, included_weight_kg = excluded.included_weight_kg,
       p2p_surcharge = excluded.p2p_surcharge, time_window_surcharge = excluded.time_window_surcharge,
       extra_package_surcharge = excluded.extra_package_surcharge, tax_rate = excluded.tax_rate,
       origin_lat = excluded.origin_lat, origin_lng = excluded.origin_lng, updated_by = excluded.updated_by,
       updated_at = now()
     returning ${MODEL_COLUMNS}`,
    [
      businessId,
      m.currency,
      m.base_fee,
      m.per_km,
      m.per_kg,
      m.included_weight_kg,
      m.p2p_surcharge,
      m.time_window_surcharge,
      m.extra_package_surcharge,
      m.tax_rate,
      m.origin.lat,
      m.origin.lng,
      updatedBy,
    ],
  );
  return modelOf(row!);
}
