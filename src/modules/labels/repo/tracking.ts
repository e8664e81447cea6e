/** What a label's tracking process and the sweep read (docs/labels.md, "Tracking of sandbox labels"). */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { LabelState } from '../domain.ts';

/** The label's state and when the carrier got its parcel (submitted, or on a manifest); null when it has not. */
export async function handOverOf(
  em: Em,
  orderId: number,
): Promise<{ state: LabelState; handed_over_at: Date | null } | null> {
  const rows = await executeBound<{ state: LabelState; handed_over_at: Date | null }>(
    em,
    `select l.state, coalesce(l.submitted_at, m.created_at) as handed_over_at
     from label_order l left join label_manifest m on m.id = l.manifest_id
     where l.order_id = $1`,
    [orderId],
  );
  return rows[0] ?? null;
}

/**
 * Bought labels whose tracking process was never noted as started (the API died between the purchase's commit and
 * the start) for longer than `olderThanMs`, oldest first.
 */
export async function untrackedLabels(
  em: Em,
  olderThanMs: number,
  limit = 100,
): Promise<{ order_id: number; business_id: number }[]> {
  return executeBound<{ order_id: number; business_id: number }>(
    em,
    `select order_id, business_id from label_order
     where tracking_started_at is null and state in ('purchased', 'submitted', 'manifested')
       and purchased_at < now() - make_interval(secs => $1)
     order by purchased_at limit $2`,
    [olderThanMs / 1000, limit],
  );
}

/** The order's packages by their carrier tracking numbers: the number a carrier's event names to ours. */
export async function packagesByCarrierNumber(em: Em, orderId: number): Promise<Map<string, string>> {
  const rows = await executeBound<{ carrier_reference: string; package_number: string }>(
    em,
    `select carrier_reference, package_number from order_package
     where order_id = $1 and carrier_reference is not null order by position`,
    [orderId],
  );
  return new Map(rows.map((r) => [r.carrier_reference, r.package_number]));
}
