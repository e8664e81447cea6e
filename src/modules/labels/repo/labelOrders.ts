/**
 * Label orders (docs/labels.md, "Label states"): the label of an order, 1:1 with delivery_order, from the purchase
 * to the hand-over; its documents.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { LabelShipment, PurchasedLabel } from '../carriers/adapter.ts';
import type { LabelError, LabelFormat, LabelState } from '../domain.ts';

export interface LabelOrderRow {
  order_id: number;
  business_id: number;
  carrier_account_id: number;
  carrier: string;
  service: string;
  rate_id: string | null;
  shipment: LabelShipment;
  formats: LabelFormat[];
  idempotency_key: string | null;
  state: LabelState;
  attempt: number;
  label_error: LabelError | null;
  carrier_shipment_id: string | null;
  carrier_tracking_numbers: string[];
  pending_since: Date | null;
  purchased_at: Date | null;
  submitted_at: Date | null;
  manifest_id: number | null;
  voided_at: Date | null;
  tracking_started_at: Date | null;
}

const COLUMNS = `l.order_id, l.business_id, l.carrier_account_id, l.carrier, l.service, l.rate_id, l.shipment, l.formats,
  l.idempotency_key, l.state, l.attempt, l.label_error, l.carrier_shipment_id, l.carrier_tracking_numbers,
  l.pending_since, l.purchased_at, l.submitted_at, l.manifest_id, l.voided_at, l.tracking_started_at`;

export type NewLabelOrder = Pick<
  LabelOrderRow,
  | 'order_id'
  | 'business_id'
  | 'carrier_account_id'
  | 'carrier'
  | 'service'
  | 'rate_id'
  | 'shipment'
  | 'formats'
  | 'idempotency_key'
>;

/** Writes the label order `pending`; false when the business has a purchase of this idempotency key already. */
export async function insertLabelOrder(em: Em, row: NewLabelOrder): Promise<boolean> {
  const rows = await executeBound(
    em,
    `insert into label_order (order_id, business_id, carrier_account_id, carrier, service, rate_id, shipment, formats,
       idempotency_key, state, pending_since)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, 'pending', now())
     on conflict (business_id, idempotency_key) do nothing returning order_id`,
    [
      row.order_id,
      row.business_id,
      row.carrier_account_id,
      row.carrier,
      row.service,
      row.rate_id,
      JSON.stringify(row.shipment),
      row.formats,
      row.idempotency_key,
    ],
  );
  return rows.length === 1;
}

export async function labelOrderOf(em: Em, businessId: number, orderId: number): Promise<LabelOrderRow | null> {
  const rows = await executeBound<LabelOrderRow>(
    em,
    `select ${COLUMNS} from label_order l where l.business_id = $1 and l.order_id = $2`,
    [businessId, orderId],
  );
  return rows[0] ?? null;
}

export async function labelOrderByKey(em: Em, businessId: number, key: string): Promise<LabelOrderRow | null> {
  const rows = await executeBound<LabelOrderRow>(
    em,
    `select ${COLUMNS} from label_order l where l.business_id = $1 and l.idempotency_key = $2`,
    [businessId, key],
  );
  return rows[0] ?? null;
}

/** The label order, locked for the caller's transaction (any business: the caller found it already). */
export async function lockLabelOrder(em: Em, orderId: number): Promise<LabelOrderRow | null> {
  const rows = await executeBound<LabelOrderRow>(
    em,
    `select ${COLUMNS} from label_order l where l.order_id = $1 for update`,
    [orderId],
  );
  return rows[0] ?? null;
}

/** Keeps the bought label: its documents, its carrier numbers on the order's packages, state purchased. */
export async function markPurchased(em: Em, orderId: number, label: PurchasedLabel): Promise<void> {
  await executeBound(
    em,
    `update label_order set state = 'purchased', carrier_shipment_id = $2, carrier_tracking_numbers = $3,
       label_error = null, pending_since = null, purchased_at = now(), updated_at = now()
     where order_id = $1`,
    [orderId, label.carrier_shipment_id, label.tracking_numbers],
  );
  await executeBound(
    em,
    `update order_package p set carrier_reference = n.number
     from unnest($2::text[]) with ordinality as n(number, position)
     where p.order_id = $1 and p.position = n.position`,
    [orderId, label.tracking_numbers],
  );
  const docs = (['PDF', 'ZPL'] as const).flatMap((format) => {
    const doc = label.documents[format];
    return doc === undefined ? [] : [{ format, content: typeof doc === 'string' ? Buffer.from(doc) : doc }];
  });
  for (const d of docs)
    await executeBound(
      em,
      `insert into label_document (order_id, format, content, sha256, pages)
       values ($1, $2, $3, encode(sha256($3), 'hex'), $4)
       on conflict (order_id, format) do update set content = excluded.content, sha256 = excluded.sha256, pages = excluded.pages`,
      [orderId, d.format, d.content, label.tracking_numbers.length || 1],
    );
}

/** Keeps the carrier's refusal: state failed; the attempt goes up unless the failure may pass unchanged. */
export async function markFailed(em: Em, orderId: number, error: LabelError): Promise<void> {
  await executeBound(
    em,
    `update label_order set state = 'failed', label_error = $2::jsonb, pending_since = null, updated_at = now(),
       attempt = attempt + case when $3 then 0 else 1 end
     where order_id = $1`,
    [orderId, JSON.stringify(error), error.retryable],
  );
}

/** A failed purchase tried again: state pending, at the service and shipment given (a new rate, or the order's own). */
export async function restartPurchase(
  em: Em,
  orderId: number,
  at: { service: string; shipment: LabelShipment; rate_id: string | null },
): Promise<void> {
  await executeBound(
    em,
    `update label_order set state = 'pending', pending_since = now(), service = $2, shipment = $3::jsonb,
       rate_id = coalesce($4, rate_id), updated_at = now()
     where order_id = $1`,
    [orderId, at.service, JSON.stringify(at.shipment), at.rate_id],
  );
}

/** Purchases left `pending` for longer than `olderThanMs`: an interrupted purchase, which the sweep finishes. */
export async function stalePurchases(em: Em, olderThanMs: number, limit = 100): Promise<number[]> {
  const rows = await executeBound<{ order_id: number }>(
    em,
    `select order_id from label_order where state = 'pending' and pending_since < now() - make_interval(secs => $1)
     order by pending_since limit $2`,
    [olderThanMs / 1000, limit],
  );
  return rows.map((r) => r.order_id);
}

export async function labelDocument(
  em: Em,
  orderId: number,
  format: LabelFormat,
): Promise<{ content: Buffer; sha256: string; pages: number } | null> {
  const rows = await executeBound<{ content: Buffer; sha256: string; pages: number }>(
    em,
    'select content, sha256, pages from label_document where order_id = $1 and format = $2',
    [orderId, format],
  );
  return rows[0] ?? null;
}

/** Notes that the label's tracking process was started (the sweep starts those of purchases that have none). */
export async function noteTrackingStarted(em: Em, orderId: number): Promise<void> {
  await executeBound(
    em,
    'update label_order set tracking_started_at = now() where order_id = $1 and tracking_started_at is null',
    [orderId],
  );
}
