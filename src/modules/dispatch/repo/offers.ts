/** Auto-assign offers (dispatch_offer): at most one open per order. */
import type { Em } from '../../../platform/db/orm.ts';

export type OfferStatus = 'open' | 'accepted' | 'rejected' | 'timed_out' | 'withdrawn';

export interface OfferRow {
  id: number;
  businessId: number;
  orderId: number;
  driverId: number;
  status: OfferStatus;
  reason: string | null;
  offeredAt: Date;
  deadline: Date;
  answeredAt: Date | null;
}

const OFFER_COLUMNS = `f.id, f.business_id as "businessId", f.order_id as "orderId", f.driver_id as "driverId", f.status,
  f.reason, f.offered_at as "offeredAt", f.deadline, f.answered_at as "answeredAt"`;

/** The process's offer number `seq`, if written already (a retried activity). */
export async function offerOfStep(em: Em, runId: string, seq: number): Promise<OfferRow | null> {
  const [row] = await em.execute<OfferRow[]>(
    `select ${OFFER_COLUMNS} from dispatch_offer f where run_id = ? and seq = ?`,
    [runId, seq],
  );
  return row ?? null;
}

export async function insertOffer(
  em: Em,
  o: { businessId: number; orderId: number; driverId: number; runId: string; seq: number; timeoutSeconds: number },
): Promise<OfferRow> {
  const [row] = await em.execute<OfferRow[]>(
    `insert into dispatch_offer as f (business_id, order_id, driver_id, run_id, seq, deadline)
     values (?, ?, ?, ?, ?, now() + make_interval(secs => ?)) returning ${OFFER_COLUMNS}`,
    [o.businessId, o.orderId, o.driverId, o.runId, o.seq, o.timeoutSeconds],
  );
  return row!;
}

/** The offer, locked for the caller's transaction. */
export async function lockOffer(em: Em, offerId: number): Promise<OfferRow | null> {
  const [row] = await em.execute<OfferRow[]>(`select ${OFFER_COLUMNS} from dispatch_offer f where id = ? for update`, [
    offerId,
  ]);
  return row ?? null;
}

export async function closeOffer(em: Em, offerId: number, status: Exclude<OfferStatus, 'open'>, reason: string | null) {
  await em.execute(
    `update dispatch_offer set status = ?, reason = ?, answered_at = now() where id = ? and status = 'open'`,
    [status, reason, offerId],
  );
}

/** Withdraws the order's open offer (the order was cancelled); answers whether there was one. */
export async function withdrawOpenOffer(em: Em, orderId: number): Promise<boolean> {
  const rows = await em.execute<{ id: number }[]>(
    `update dispatch_offer set status = 'withdrawn', answered_at = now() where order_id = ? and status = 'open' returning id`,
    [orderId],
  );
  return rows.length > 0;
}

/** The driver's open offers whose deadline has not passed, soonest deadline first, with their orders. */
export function openOffersOf(em: Em, businessId: number, driverId: number) {
  return em.execute<
    (OfferRow & {
      orderRef: string | null;
      trackingNumber: string;
      type: string;
      scheduledDate: string;
      recipient: { name: string; address: Record<string, unknown> };
    })[]
  >(
    `select ${OFFER_COLUMNS}, o.order_ref as "orderRef", o.tracking_number as "trackingNumber", o.type,
       o.scheduled_date::text as "scheduledDate", o.recipient
     from dispatch_offer f join delivery_order o on o.id = f.order_id
     where f.business_id = ? and f.driver_id = ? and f.status = 'open' and f.deadline > now()
     order by f.deadline, f.id`,
    [businessId, driverId],
  );
}

/** The order's open offer, if any. */
export async function openOfferOf(em: Em, businessId: number, orderId: number): Promise<OfferRow | null> {
  const [row] = await em.execute<OfferRow[]>(
    `select ${OFFER_COLUMNS} from dispatch_offer f where f.business_id = ? and f.order_id = ? and f.status = 'open'`,
    [businessId, orderId],
  );
  return row ?? null;
}
