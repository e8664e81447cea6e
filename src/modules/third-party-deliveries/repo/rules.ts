import type { Em } from '../../../platform/db/orm.ts';

export interface RuleRow {
  id: number;
  provider_code: string;
  postal_code_prefix: string | null;
  max_weight_grams: number | null;
  max_side_mm: number | null;
  handover_deadline_hours: number | null;
  created_at: Date;
  ended_at: Date | null;
}

export interface NewRule {
  providerId: number;
  postalCodePrefix: string | null;
  maxWeightGrams: number | null;
  maxSideMm: number | null;
  handoverDeadlineHours: number | null;
}

const SELECT_RULE = `select r.id, p.code as provider_code, r.postal_code_prefix, r.max_weight_grams, r.max_side_mm, r.handover_deadline_hours, r.created_at, r.ended_at
  from third_party_rule r join business p on p.id = r.provider_id`;

export async function insertRule(em: Em, businessId: number, createdBy: number, r: NewRule): Promise<RuleRow> {
  const [row] = await em.execute<{ id: number }[]>(
    `insert into third_party_rule (business_id, provider_id, postal_code_prefix, max_weight_grams, max_side_mm, handover_deadline_hours, created_by)
     values (?, ?, ?, ?, ?, ?, ?) returning id`,
    [businessId, r.providerId, r.postalCodePrefix, r.maxWeightGrams, r.maxSideMm, r.handoverDeadlineHours, createdBy],
  );
  return (await em.execute<RuleRow[]>(`${SELECT_RULE} where r.id = ?`, [row!.id]))[0]!;
}

/** The business's rules, live ones first, each group oldest first (the order they are tried in). */
export function listRules(em: Em, businessId: number): Promise<RuleRow[]> {
  return em.execute<RuleRow[]>(`${SELECT_RULE} where r.business_id = ? order by r.ended_at is not null, r.id`, [
    businessId,
  ]);
}

/** Ends a live rule of the business; null when it has none of this id. */
export async function endRule(em: Em, businessId: number, id: number): Promise<RuleRow | null> {
  const rows = await em.execute<{ id: number }[]>(
    'update third_party_rule set ended_at = now() where business_id = ? and id = ? and ended_at is null returning id',
    [businessId, id],
  );
  return rows.length ? (await em.execute<RuleRow[]>(`${SELECT_RULE} where r.id = ?`, [id]))[0]! : null;
}

/**
 * The first live rule (oldest first) the order matches: its recipient's postal code starts with the prefix (any
 * case, spaces ignored), and every package is known to weigh at most the weight and to measure at most the side
 * on its longest side. A package with no weight, or a size not measured, matches no rule that limits it.
 */
export async function findMatchingRule(
  em: Em,
  businessId: number,
  orderId: number,
  postalCode: string,
): Promise<{ providerId: number; handoverDeadlineHours: number | null } | null> {
  const [row] = await em.execute<{ provider_id: number; handover_deadline_hours: number | null }[]>(
    `select r.provider_id, r.handover_deadline_hours from third_party_rule r
     where r.business_id = ? and r.ended_at is null
       and (r.postal_code_prefix is null or left(upper(replace(?, ' ', '')), length(r.postal_code_prefix)) = r.postal_code_prefix)
       and (r.max_weight_grams is null or not exists (
         select 1 from order_package pk where pk.order_id = ? and (pk.weight_grams is null or pk.weight_grams > r.max_weight_grams)))
       and (r.max_side_mm is null or not exists (
         select 1 from order_package pk where pk.order_id = ?
           and (pk.length_mm is null or pk.width_mm is null or pk.height_mm is null or greatest(pk.length_mm, pk.width_mm, pk.height_mm) > r.max_side_mm)))
     order by r.id limit 1`,
    [businessId, postalCode, orderId, orderId],
  );
  return row ? { providerId: row.provider_id, handoverDeadlineHours: row.handover_deadline_hours } : null;
}
