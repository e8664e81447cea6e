import type { NewOutboxEvent } from '../../platform/db/outbox.ts';
import { insertOutboxEvents } from '../../platform/db/outbox.ts';
import type { WorkerDeps } from '../../platform/module.ts';
import {
  appendOrderTrail,
  carrierHeld,
  priceFamilyOf,
  changeOrderStatuses,
  ORDER_OPERATION,
  ORDER_STATUS,
  orderSummaryOf,
  SYSTEM_ACTOR,
  type OrderActor,
  type OrderTrailEntry,
} from '../orders/index.ts';
import { followNewestEvents } from '../tracking/index.ts';
import {
  isOpen,
  type InterceptionActivities,
  type InterceptionSnapshot,
  type InterceptionState,
  type StepActor,
} from './contract.ts';
import {
  appliedOperation,
  endOperation,
  NOT_HELD_IN_TIME,
  requestRejection,
  statusAfterOutcome,
  statusAfterRelease,
} from './domain.ts';
import * as repo from './repo.ts';

/** An order in one of these statuses has its parcel at a warehouse. */
const AT_WAREHOUSE: ReadonlySet<number> = new Set([ORDER_STATUS.AT_WAREHOUSE, ORDER_STATUS.CARRIER_AT_WAREHOUSE]);

const snapshotOf = (row: repo.InterceptionRow): InterceptionSnapshot => ({
  interceptionId: row.id,
  state: row.state,
  reason: row.end_reason,
});

const orderActor = (a: StepActor | null): OrderActor =>
  a ? { userId: a.userId, role: a.role, source: a.source, ip: a.ip } : SYSTEM_ACTOR;

/** The event of one step, id ICP-<interception id>.<step>: a step is taken once, so its event is written once. */
export function interceptEvent(
  order: repo.LockedOrder,
  statusId: number,
  row: repo.InterceptionRow,
  step: InterceptionState,
  occurredAt: Date,
  operationType?: number,
): NewOutboxEvent {
  const eventId = `ICP-${row.id}.${step}`;
  const event = `order.intercept.${step}`;
  const ended = step === 'rejected' || step === 'failed';
  return {
    businessId: row.business_id,
    customerId: order.customerId,
    eventId,
    eventType: event,
    referenceType: 'order',
    referenceId: String(order.id),
    family: priceFamilyOf(order),
    carrierHeld: carrierHeld(order),
    payload: {
      event_id: eventId,
      event,
      business_id: row.business_id,
      occurred_at: occurredAt.toISOString(),
      data: {
        order: orderSummaryOf({ ...order, statusId }),
        interception: {
          id: row.id,
          state: step,
          requested_via: row.channel,
          outcome: row.outcome,
          new_address: row.new_address,
          reason: ended ? row.end_reason : row.request_reason,
          held_at: row.held_at
            ? {
                place: row.held_place,
                package_number: row.held_package,
                source: row.held_source,
                occurred_at: new Date(row.held_at).toISOString(),
              }
            : null,
        },
        ...(operationType === undefined ? {} : { operation_type: operationType }),
      },
    },
  };
}

/** A step that moves no status, on the audit trail (3046). */
const stepTrail = (
  row: repo.InterceptionRow,
  step: InterceptionState,
  actor: OrderActor,
  statusId: number,
  occurredAt: Date,
  details: Record<string, unknown> = {},
): OrderTrailEntry => ({
  orderId: row.order_id,
  businessId: row.business_id,
  operationType: ORDER_OPERATION.INTERCEPT_STEP,
  actor,
  beforeStatus: statusId,
  afterStatus: statusId,
  details: { description: `interception ${step.replaceAll('_', ' ')}`, interception_id: row.id, step, ...details },
  occurredAt,
});

export function createInterceptionActivities(deps: Pick<WorkerDeps, 'orm'>): InterceptionActivities {
  return {
    async beginInterception({ orderId, businessId, requestKey, primary, holdDeadlineMs, workflowId, request }) {
      return deps.orm.em.fork().transactional(async (tx) => {
        const done = await repo.byRequestKey(tx, requestKey);
        if (done) return snapshotOf(done);
        const order = await repo.lockOrder(tx, orderId);
        // Deleted for good between the request and its step.
        if (order?.businessId !== businessId)
          return { interceptionId: null, state: 'rejected' as const, reason: 'order_gone' };
        const now = new Date();
        const actor = orderActor(request.actor);
        const rejection = primary
          ? requestRejection({
              statusId: order.statusId,
              carrierProviderId: order.carrierProviderId ?? null,
              cancelPending: await repo.cancelPending(tx, orderId),
            })
          : 'already_intercepted';
        const base = {
          businessId,
          orderId,
          customerId: order.customerId,
          requestKey,
          workflowId,
          outcome: request.outcome,
          newAddress: request.newAddress,
          channel: request.actor.channel,
          requestedBy: request.actor.userId,
          requesterRole: request.actor.role,
          requestReason: request.reason,
          statusBefore: order.statusId,
        };
        if (rejection) {
          const row = await repo.insertInterception(tx, {
            ...base,
            state: 'rejected',
            endReason: rejection,
            statusAfter: null,
            holdDeadline: null,
          });
          await appendOrderTrail(tx, [
            stepTrail(row, 'requested', actor, order.statusId, now, { outcome: row.outcome }),
            stepTrail(row, 'rejected', SYSTEM_ACTOR, order.statusId, now, { reason: rejection }),
          ]);
          await insertOutboxEvents(tx, [
            interceptEvent(order, order.statusId, row, 'requested', now),
            interceptEvent(order, order.statusId, row, 'rejected', now),
          ]);
          return snapshotOf(row);
        }
        const row = await repo.insertInterception(tx, {
          ...base,
          state: 'in_effect',
          endReason: null,
          statusAfter: ORDER_STATUS.INTERCEPTED,
          holdDeadline: new Date(now.getTime() + holdDeadlineMs),
        });
        await appendOrderTrail(tx, [
          stepTrail(row, 'requested', actor, order.statusId, now, {
            outcome: row.outcome,
            ...(row.new_address ? { new_address: row.new_address } : {}),
          }),
        ]);
        const operationType = appliedOperation(row.channel);
        await changeOrderStatuses(tx, [
          {
            order: { ...order, statusId: ORDER_STATUS.INTERCEPTED },
            change: {
              before: order.statusId,
              after: ORDER_STATUS.INTERCEPTED,
              operationType,
              description: 'interception in effect',
              actor,
              details: { interception_id: row.id, step: 'in_effect', outcome: row.outcome },
            },
            occurredAt: now,
          },
        ]);
        const events = [
          interceptEvent(order, order.statusId, row, 'requested', now),
          interceptEvent(order, ORDER_STATUS.INTERCEPTED, row, 'in_effect', now, operationType),
        ];
        // At a warehouse already (29, or the carrier's 33): no scan is to come, the parcel is held now.
        if (!AT_WAREHOUSE.has(order.statusId)) {
          await insertOutboxEvents(tx, events);
          return snapshotOf(row);
        }
        const held = await repo.markHeld(tx, row.id, {
          at: now,
          place: null,
          packageNumber: order.trackingNumber,
          source: 'status',
        });
        await appendOrderTrail(tx, [
          stepTrail(held, 'held_at_warehouse', SYSTEM_ACTOR, ORDER_STATUS.INTERCEPTED, now, {
            source: 'status',
            status: order.statusId,
          }),
        ]);
        await insertOutboxEvents(tx, [
          ...events,
          interceptEvent(order, ORDER_STATUS.INTERCEPTED, held, 'held_at_warehouse', now),
        ]);
        return snapshotOf(held);
      });
    },

    async recordHeld({ interceptionId, report }) {
      return deps.orm.em.fork().transactional(async (tx) => {
        const seen = await repo.lockInterception(tx, interceptionId);
        if (!seen) return { interceptionId, state: 'failed' as const, reason: 'order_gone' };
        if (seen.state !== 'in_effect') return snapshotOf(seen);
        const order = await repo.lockOrder(tx, seen.order_id);
        if (!order) return snapshotOf(seen);
        const at = new Date(report.occurredAt);
        const row = await repo.markHeld(tx, interceptionId, {
          at,
          place: report.place,
          packageNumber: report.packageNumber,
          source: report.source,
        });
        const actor: OrderActor = {
          ...SYSTEM_ACTOR,
          source: report.source === 'scan' ? 'scanner' : report.source === 'carrier' ? 'carrier' : 'system',
        };
        const now = new Date();
        await appendOrderTrail(tx, [
          stepTrail(row, 'held_at_warehouse', actor, order.statusId, now, {
            place: report.place,
            package_number: report.packageNumber,
            source: report.source,
          }),
        ]);
        await insertOutboxEvents(tx, [interceptEvent(order, order.statusId, row, 'held_at_warehouse', now)]);
        return snapshotOf(row);
      });
    },

    async endInterception({ interceptionId, step, actor }) {
      return deps.orm.em.fork().transactional(async (tx) => {
        const seen = await repo.lockInterception(tx, interceptionId);
        if (!seen) return { interceptionId, state: step, reason: 'order_gone' };
        if (!isOpen(seen.state)) return snapshotOf(seen);
        if (step === 'failed' && seen.state !== 'in_effect') return snapshotOf(seen);
        if (step === 'outcome_executed' && seen.state !== 'held_at_warehouse') return snapshotOf(seen);
        const order = await repo.lockOrder(tx, seen.order_id);
        if (!order) return snapshotOf(seen);
        const now = new Date();
        const held = seen.state === 'held_at_warehouse';
        const after =
          step === 'outcome_executed'
            ? statusAfterOutcome(seen.outcome)
            : statusAfterRelease(seen.status_before ?? ORDER_STATUS.ON_THE_WAY, held, order.carrierProviderId != null);
        const operationType = endOperation(step, seen.channel, actor?.channel ?? null);
        const who = orderActor(actor);
        const reason = step === 'failed' ? NOT_HELD_IN_TIME : null;
        // Another change took the order out of 48 meanwhile (a cancellation): the step is recorded, the status kept.
        const moves = order.statusId === ORDER_STATUS.INTERCEPTED;
        if (moves) {
          const redeliver = step === 'outcome_executed' && seen.outcome === 'redeliver' && seen.new_address;
          if (redeliver) await repo.readdressOrder(tx, order.id, seen.new_address!);
          await changeOrderStatuses(tx, [
            {
              order: { ...order, statusId: after },
              change: {
                before: order.statusId,
                after,
                operationType,
                description: `interception ${step.replaceAll('_', ' ')}`,
                actor: who,
                details: {
                  interception_id: seen.id,
                  step,
                  outcome: seen.outcome,
                  ...(reason ? { reason } : {}),
                  ...(redeliver ? { old_address: order.address, new_address: seen.new_address } : {}),
                },
              },
              occurredAt: now,
            },
          ]);
        }
        const row = await repo.markEnded(tx, interceptionId, {
          state: step,
          statusAfter: moves ? after : null,
          reason,
          endedBy: actor?.userId ?? null,
        });
        if (!moves)
          await appendOrderTrail(tx, [
            stepTrail(row, step, who, order.statusId, now, {
              order_left_intercepted: true,
              ...(reason ? { reason } : {}),
            }),
          ]);
        await insertOutboxEvents(tx, [
          interceptEvent(order, moves ? after : order.statusId, row, step, now, moves ? operationType : undefined),
        ]);
        // The order goes on: a delivery provider that holds it now (an assignment that committed after the request
        // judged the order free) and sent events while it was in 48 had them recorded without moving it; it follows
        // its newest events now, as the ingest would have done (CARRIER_STATUS_PUSH, with the event). An outcome
        // carried out is the staff's decision on a held parcel and stands.
        if (moves && step !== 'outcome_executed' && order.carrierProviderId != null)
          if (await repo.carrierEventsSince(tx, order.id, new Date(seen.created_at)))
            await followNewestEvents(tx, [{ ...order, statusId: after }], { ...SYSTEM_ACTOR, source: 'carrier' });
        return snapshotOf(row);
      });
    },
  };
}
