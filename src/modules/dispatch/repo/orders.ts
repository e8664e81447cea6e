/** The order as dispatch reads it, locked for the caller's transaction. */
import type { Em } from '../../../platform/db/orm.ts';
import type { OrderFacts, Recipient } from '../../orders/index.ts';
import type { OrderToRoute } from '../../routes/index.ts';

export type DispatchOrder = OrderFacts & {
  type: 'D' | 'P' | 'P2P';
  customerId: number | null;
  driverId: number | null;
  routeId: number | null;
  scheduledDate: string;
  selfDelivery: boolean;
  requiredSkills: string[];
  recipient: Recipient;
  pickup: Recipient | null;
  /** Actively assigned to a contractor. */
  contractorHeld: boolean;
  /** An auto-assign offer of the order waits for its driver's answer. */
  offerOpen: boolean;
};

/** The business's order, its row locked until the caller's transaction ends; null when it has none of that id. */
export async function lockDispatchOrder(em: Em, businessId: number, orderId: number): Promise<DispatchOrder | null> {
  const rows = await em.execute<DispatchOrder[]>(
    `select o.id, o.business_id as "businessId", o.order_ref as "orderRef", o.tracking_number as "trackingNumber",
       o.type, o.status_id as "statusId", o.carrier_provider_id as "carrierProviderId", o.customer_id as "customerId",
       o.driver_id as "driverId", o.route_id as "routeId", o.scheduled_date::text as "scheduledDate",
       o.self_delivery as "selfDelivery", o.required_skills as "requiredSkills", o.recipient, o.pickup,
       exists (select 1 from broker_order_assignment a where a.order_id = o.id and a.status = 'active') as "contractorHeld",
       exists (select 1 from dispatch_offer f where f.order_id = o.id and f.status = 'open') as "offerOpen"
     from delivery_order o where o.id = ? and o.business_id = ? for update of o`,
    [orderId, businessId],
  );
  return rows[0] ?? null;
}

const coordinates = (r: Recipient | null) =>
  r?.address.lat != null && r.address.lng != null ? { lat: r.address.lat, lng: r.address.lng } : null;

/** The order as the routes module places it on a route. */
export const toRoute = (o: DispatchOrder): OrderToRoute => ({
  id: o.id,
  businessId: o.businessId,
  type: o.type,
  statusId: o.statusId,
  pickupAt: coordinates(o.pickup),
  deliverAt: coordinates(o.recipient),
});

/** Where the driver goes first for the order: a P2P order's pickup place, else the recipient's address. */
export const firstPlaceOf = (o: DispatchOrder) =>
  (o.type === 'P2P' ? coordinates(o.pickup) : null) ?? coordinates(o.recipient);

/** The newest status change of the order (its id is the OTEP event's `osc-<id>` and the tracking event's id). */
export async function newestStatusChangeId(em: Em, orderId: number): Promise<number> {
  const [row] = await em.execute<{ id: number }[]>(
    'select id from order_status_change where order_id = ? order by id desc limit 1',
    [orderId],
  );
  return Number(row!.id);
}

/** Records a manual assignment or unassignment; its id keys its lifecycle events. */
export async function insertDispatchChange(
  em: Em,
  change: {
    businessId: number;
    orderId: number;
    kind: 'assign' | 'unassign';
    driverId: number | null;
    previousDriverId: number | null;
    actorId: number | null;
  },
): Promise<number> {
  const [row] = await em.execute<{ id: number }[]>(
    `insert into dispatch_change (business_id, order_id, kind, driver_id, previous_driver_id, actor_id)
     values (?, ?, ?, ?, ?, ?) returning id`,
    [change.businessId, change.orderId, change.kind, change.driverId, change.previousDriverId, change.actorId],
  );
  return row!.id;
}

/** The order keeps no driver (it was on no route). */
export async function clearDriver(em: Em, businessId: number, orderId: number): Promise<void> {
  await em.execute(
    'update delivery_order set driver_id = null where id = ? and business_id = ? and driver_id is not null',
    [orderId, businessId],
  );
}

/** Whether the business has an order of that id. */
export async function orderOfBusiness(em: Em, businessId: number, orderId: number): Promise<boolean> {
  const rows = await em.execute<{ id: number }[]>('select id from delivery_order where id = ? and business_id = ?', [
    orderId,
    businessId,
  ]);
  return rows.length > 0;
}
