/**
 * The writes of the auto-assign process (docs/routes.md): the ranking, an offer (the order on the driver's route at
 * once, order.assigned source auto_assign, trail 3085) and its end. Lifecycle event ids are OLC-O<offer id>.<event>.
 */
import type { Em } from '../../platform/db/orm.ts';
import { insertOutboxEvents } from '../../platform/db/outbox.ts';
import { planningDrivers } from '../drivers/index.ts';
import {
  appendOrderTrail,
  ORDER_OPERATION,
  orderLifecycleEvent,
  SYSTEM_ACTOR,
  type OrderActor,
} from '../orders/index.ts';
import type { MadeOffer } from './contract.ts';
import { rankCandidates } from './domain.ts';
import { giveToDriver, takeFromDriver } from './assign.ts';
import { closeOffer, insertOffer, lockOffer, offerOfStep, type OfferRow, type OfferStatus } from './repo/offers.ts';
import { firstPlaceOf, lockDispatchOrder } from './repo/orders.ts';
import { dispatchRefusal } from './rules.ts';

/** The process acts for the account that started it. */
const processActor = (actorId: number | null): OrderActor => ({ ...SYSTEM_ACTOR, userId: actorId });

const snapshotOf = (f: OfferRow) => ({
  offerId: f.id,
  driverId: f.driverId,
  deadline: new Date(f.deadline).toISOString(),
  status: f.status,
});

/** The active, on-duty drivers with every skill the order requires, nearest first; null: not dispatchable. */
export async function rankDrivers(tx: Em, businessId: number, orderId: number): Promise<number[] | null> {
  const o = await lockDispatchOrder(tx, businessId, orderId);
  if (!o || dispatchRefusal(o)) return null;
  const drivers = (await planningDrivers(tx, businessId)).filter(
    (d) => d.status === 'active' && d.onDuty && o.requiredSkills.every((s) => d.skills.includes(s)),
  );
  return rankCandidates(drivers, firstPlaceOf(o));
}

export async function makeOffer(
  tx: Em,
  input: {
    orderId: number;
    businessId: number;
    driverId: number;
    runId: string;
    seq: number;
    timeoutSeconds: number;
    actorId: number;
  },
): Promise<MadeOffer> {
  const o = await lockDispatchOrder(tx, input.businessId, input.orderId);
  if (!o) return 'not_dispatchable';
  const made = await offerOfStep(tx, input.runId, input.seq);
  if (made) return snapshotOf(made);
  if (dispatchRefusal(o) || o.offerOpen || o.driverId !== null) return 'not_dispatchable';
  const [driver] = await planningDrivers(tx, input.businessId, [input.driverId]);
  if (!driver || driver.status !== 'active' || !driver.onDuty) return 'driver_unavailable';
  const offer = await insertOffer(tx, input);
  await giveToDriver(tx, o, input.driverId, 'auto_assign', `O${offer.id}`, processActor(input.actorId));
  return snapshotOf(offer);
}

/**
 * Writes how the offer ended and answers the offer's final status: an offer no longer open (withdrawn by a
 * cancellation, or a retried activity) is left as it is and answers its status; an accept from a driver no longer
 * active and on duty is timed_out.
 */
export async function settleOffer(
  tx: Em,
  offerId: number,
  asked: 'accepted' | 'rejected' | 'timed_out' | 'withdrawn',
  reason: string | null,
): Promise<Exclude<OfferStatus, 'open'>> {
  const f = await lockOffer(tx, offerId);
  if (!f) return 'withdrawn';
  if (f.status !== 'open') return f.status;
  let outcome = asked;
  if (outcome === 'accepted') {
    const [d] = await planningDrivers(tx, f.businessId, [f.driverId]);
    if (!d || d.status !== 'active' || !d.onDuty) outcome = 'timed_out';
  }
  await closeOffer(tx, offerId, outcome, outcome === 'timed_out' ? null : reason);
  if (outcome === 'withdrawn') return outcome;
  const o = await lockDispatchOrder(tx, f.businessId, f.orderId);
  if (!o) return outcome;
  const driver: OrderActor = { userId: f.driverId, role: 'driver', source: 'api', ip: null };
  if (outcome === 'accepted' || outcome === 'rejected') {
    const accepted = outcome === 'accepted';
    await appendOrderTrail(tx, [
      {
        orderId: o.id,
        businessId: o.businessId,
        operationType: accepted ? ORDER_OPERATION.DRIVER_ACCEPTED : ORDER_OPERATION.DRIVER_REJECTED,
        actor: driver,
        beforeStatus: o.statusId,
        afterStatus: o.statusId,
        details: { offer_id: f.id, driver_id: f.driverId, ...(reason ? { reason } : {}) },
      },
    ]);
    await insertOutboxEvents(tx, [
      accepted
        ? orderLifecycleEvent(o, 'order.accepted', `OLC-O${f.id}.accepted`, { driver_id: f.driverId })
        : orderLifecycleEvent(o, 'order.rejected', `OLC-O${f.id}.rejected`, { driver_id: f.driverId, reason }),
    ]);
    if (accepted) return outcome;
  }
  // The order leaves the driver's route unless it is with someone else by now.
  if (o.driverId !== f.driverId) return outcome;
  await takeFromDriver(
    tx,
    o,
    outcome === 'rejected' ? 'reject' : 'timeout',
    `O${f.id}`,
    outcome === 'rejected' ? driver : SYSTEM_ACTOR,
  );
  return outcome;
}
