/**
 * What the label documents read of an order besides its label (docs/labels.md, getShippingDetail and
 * print_local_label): its packages, the newest event of its timeline, and the facts a local label prints.
 */
import { executeBound, type Em } from '../../../platform/db/orm.ts';

export interface OrderPackage {
  position: number;
  package_number: string;
  weight_grams: number | null;
  length_mm: number | null;
  width_mm: number | null;
  height_mm: number | null;
  carrier_reference: string | null;
}

/** The order's packages in position order. */
export function orderPackages(em: Em, orderId: number): Promise<OrderPackage[]> {
  return executeBound<OrderPackage>(
    em,
    `select position, package_number, weight_grams, length_mm, width_mm, height_mm, carrier_reference
     from order_package where order_id = $1 order by position`,
    [orderId],
  );
}

/**
 * The newest event of the order's timeline as tracking builds it: a carrier's event of one of its packages, or a
 * status change of ours no carrier event caused (`after_status` set, mapped to its OTEP code by the caller).
 */
export interface NewestEvent {
  status_code: string | null;
  after_status: number | null;
  description: string | null;
  occurred_at: Date;
}

export async function newestEventOf(em: Em, orderId: number): Promise<NewestEvent | null> {
  const rows = await executeBound<NewestEvent>(
    em,
    `select * from (
       select te.status_code, null::int as after_status, te.description, te.occurred_at, te.recorded_at, te.id as seq
       from tracking_event te join order_package pk on pk.id = te.package_id where pk.order_id = $1
       union all
       select null, h.after_status, h.operation_description, h.occurred_at, h.occurred_at, h.id
       from order_status_change h where h.order_id = $1 and h.tracking_event_id is null
     ) e order by e.occurred_at desc, e.recorded_at desc, e.seq desc limit 1`,
    [orderId],
  );
  return rows[0] ?? null;
}

/** What a local delivery order's label prints (print_local_label). */
export interface LocalLabelFacts {
  id: number;
  business_name: string;
  type: 'D' | 'P' | 'P2P';
  order_ref: string | null;
  tracking_number: string;
  customer_id: number | null;
  carrier_provider_id: number | null;
  /** YYYY-MM-DD. */
  scheduled_date: string;
  recipient: {
    name: string;
    phone?: string | null;
    address: { line1: string; line2?: string | null; city: string; postal_code: string; country: string };
  };
  is_label_order: boolean;
  /** The route the order is planned on (the newest one not cancelled) and its stop's number there. */
  route_id: number | null;
  stop_number: number | null;
}

export async function localLabelFacts(em: Em, businessId: number, orderId: number): Promise<LocalLabelFacts | null> {
  const rows = await executeBound<LocalLabelFacts>(
    em,
    `select o.id, b.name as business_name, o.type, o.order_ref, o.tracking_number, o.customer_id, o.carrier_provider_id,
       to_char(o.scheduled_date, 'YYYY-MM-DD') as scheduled_date, o.recipient,
       exists (select 1 from label_order l where l.order_id = o.id) as is_label_order,
       s.route_id, s.stop_number
     from delivery_order o join business b on b.id = o.business_id
     left join lateral (
       select r.id as route_id,
         (select count(*)::int from route_stop x where x.route_id = r.id and x.kind <> 'break' and x.seq <= rs.seq)
           as stop_number
       from route_stop rs join route r on r.id = rs.route_id
       where rs.order_id = o.id and r.status <> 'cancelled' and rs.released_at is null
       order by r.route_date desc, r.id desc limit 1
     ) s on true
     where o.business_id = $1 and o.id = $2`,
    [businessId, orderId],
  );
  return rows[0] ?? null;
}
