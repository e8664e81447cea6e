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

/**
 * The label order of this order (any business: the caller found it already), with `lock` held for the caller's
 * transaction.
 */
export async function labelOrderById(em: Em, orderId: number, lock = false): Promise<LabelOrderRow | null> {
  const rows = await executeBound<LabelOrderRow>(
    em,
    `select ${COLUMNS} from label_order l where l.order_id = $1${lock ? ' for update' : ''}`,
    [orderId],
  );
  return rows[0] ?? null;
}

/** The label order, locked for the caller's transaction. */
export const lockLabelOrder = (em: Em, orderId: number): Promise<LabelOrderRow | null> =>
  labelOrderById(em, orderId, true);

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

/**
 * A failed purchase tried again: state pending, at the shipment given (a new rate's, or the order's own). The label
 * keeps its service, and its first rate_id, which names the purchase an idempotency key repeats.
 */
export async function restartPurchase(em: Em, orderId: number, shipment: LabelShipment): Promise<void> {
  await executeBound(
    em,
    `update label_order set state = 'pending', pending_since = now(), shipment = $2::jsonb, updated_at = now()
     where order_id = $1`,
    [orderId, JSON.stringify(shipment)],
  );
}

/** The label voided (a voided label, or a failed purchase cancelled): state voided, now. */
export async function markVoided(em: Em, orderId: number): Promise<void> {
  await executeBound(
    em,
    `update label_order set state = 'voided', voided_at = now(), pending_since = null, updated_at = now()
     where order_id = $1`,
    [orderId],
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

/** The label orders of the business among these orders (docs/labels.md, "submitShippingInformation"). */
export function labelOrdersOf(em: Em, businessId: number, orderIds: readonly number[]): Promise<LabelOrderRow[]> {
  return executeBound<LabelOrderRow>(
    em,
    `select ${COLUMNS} from label_order l where l.business_id = $1 and l.order_id = any($2::int[]) order by l.order_id`,
    [businessId, orderIds],
  );
}

/** The business's open labels (purchased or submitted), of these carriers when given, by account and order id. */
export function openLabelOrders(em: Em, businessId: number, carriers?: readonly string[]): Promise<LabelOrderRow[]> {
  return executeBound<LabelOrderRow>(
    em,
    `select ${COLUMNS} from label_order l
     where l.business_id = $1 and l.state in ('purchased', 'submitted') and ($2::text[] is null or l.carrier = any($2))
     order by l.carrier_account_id, l.order_id`,
    [businessId, carriers ?? null],
  );
}

/** Purchased labels whose data the carrier took: state submitted. Answers those it moved (still purchased). */
export async function markSubmitted(
  em: Em,
  orderIds: readonly number[],
): Promise<{ order_id: number; submitted_at: Date }[]> {
  return executeBound<{ order_id: number; submitted_at: Date }>(
    em,
    `update label_order set state = 'submitted', submitted_at = now(), updated_at = now()
     where order_id = any($1::int[]) and state = 'purchased' returning order_id, submitted_at`,
    [orderIds],
  );
}

/**
 * Open labels put on a manifest: state manifested with its id. Answers those it moved with the state they had, so
 * that only the labels not handed over before (purchased) are told now.
 */
export async function markManifested(
  em: Em,
  orderIds: readonly number[],
  manifestId: number,
): Promise<{ order_id: number; was: LabelState }[]> {
  return executeBound<{ order_id: number; was: LabelState }>(
    em,
    `with open as (
       select order_id, state from label_order
       where order_id = any($1::int[]) and state in ('purchased', 'submitted') order by order_id for update)
     update label_order l set state = 'manifested', manifest_id = $2, updated_at = now()
     from open where l.order_id = open.order_id returning l.order_id, open.state as was`,
    [orderIds, manifestId],
  );
}

/**
 * The business's orders these numbers name (each the order's tracking number, a package number or a carrier
 * tracking number), as `number -> order id`; a number naming none is absent.
 */
export async function orderIdsByNumbers(
  em: Em,
  businessId: number,
  numbers: readonly string[],
): Promise<Map<string, number>> {
  const rows = await executeBound<{ number: string; id: number }>(
    em,
    `select o.tracking_number as number, o.id from delivery_order o
       where o.business_id = $1 and o.tracking_number = any($2::text[])
     union select p.package_number, p.order_id from order_package p
       where p.business_id = $1 and p.package_number = any($2::text[])
     union select p.carrier_reference, p.order_id from order_package p
       where p.business_id = $1 and p.carrier_reference = any($2::text[])`,
    [businessId, numbers],
  );
  return new Map(rows.map((r) => [r.number, r.id]));
}
