/**
 * The driver app's side of dispatch (docs/routes.md, "Dispatch and the driver's day"): its open offers and its
 * answers to them (updates of the auto-assign process), and its reports of each step (updates of the route's
 * process `route-<route id>`, started by the first report).
 */
import { WithStartWorkflowOperation } from '@temporalio/client';
import { z } from 'zod';
import { pathId, timeParam } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { errors } from '../../../platform/errors.ts';
import { translate } from '../../../platform/i18n/messages.ts';
import { PROCESS_GONE, refusedAs } from '../../../platform/temporal/refusals.ts';
import {
  autoAssignWorkflowId,
  DISPATCH_QUEUE,
  NOT_YOUR_ROUTE,
  OFFER_EXPIRED,
  OFFER_NOT_YOURS,
  offerAnswerUpdate,
  reportUpdate,
  ROUTE_DAY_WORKFLOW,
  routeDayWorkflowId,
  type DriverReport,
  type RouteDayInput,
} from '../contract.ts';
import { FAILURE_REASONS, NOT_APPLIED_REASONS, REPORT_STEPS } from '../domain.ts';
import { NOT_APPLIED_MESSAGE } from '../messages.ts';
import { openOffersOf } from '../repo/offers.ts';
import { orderOfBusiness } from '../repo/orders.ts';
import { routeOfOrder } from '../repo/reports.ts';
import { refuse } from '../rules.ts';
import { OfferView, OpenOfferView, orderStateOf, OrderStateView } from '../views.ts';
import type { autoAssignWorkflow, routeDayWorkflow } from '../workflows.ts';

const TAG = 'Driver';
/** A device clock may run a little ahead; more than this is a wrong time. */
const CLOCK_SKEW_MS = 5 * 60_000;
const iso = (t: Date | string) => new Date(t).toISOString();

export const driverOffers = defineOperation({
  name: 'driver_offers',
  summary: "The driver's open auto-assign offers, the soonest deadline first.",
  description:
    'The orders auto-assign offers the calling driver now, each with its deadline; answer with driver_offer_accept or driver_offer_reject before it. An offer past its deadline is not listed.',
  tag: TAG,
  roles: ['driver'],
  business: true,
  rest: { method: 'GET', path: '/v1/driver/offers' },
  graphql: { name: 'driverOffers', kind: 'query' },
  input: z.object({}).strict(),
  output: z.object({ result: z.literal(true), offers: z.array(OpenOfferView) }),
  async handler(_input, ctx) {
    const rows = await openOffersOf(ctx.em, ctx.caller.businessId, ctx.caller.id);
    return {
      result: true as const,
      offers: rows.map((r) => ({
        offer_id: r.id,
        order: {
          id: r.orderId,
          order_ref: r.orderRef,
          tracking_number: r.trackingNumber,
          type: r.type,
          scheduled_date: r.scheduledDate,
          recipient_name: r.recipient.name,
          address: r.recipient.address,
        },
        offered_at: iso(r.offeredAt),
        deadline: iso(r.deadline),
      })),
    };
  },
});

/** Sends the driver's answer to the order's auto-assign process. */
async function answerOffer(ctx: BusinessContext, orderId: number, accept: boolean, reason: string | null) {
  if (!(await orderOfBusiness(ctx.em, ctx.caller.businessId, orderId))) throw errors.notFound();
  const handle = ctx.temporal.workflow.getHandle<typeof autoAssignWorkflow>(autoAssignWorkflowId(orderId));
  const offer = await refusedAs(
    handle.executeUpdate(offerAnswerUpdate, { args: [{ driverId: ctx.caller.id, accept, reason }] }),
    {
      [OFFER_NOT_YOURS]: () => refuse('OFFER_NOT_YOURS'),
      [OFFER_EXPIRED]: () => refuse('OFFER_EXPIRED'),
      [PROCESS_GONE]: () => refuse('OFFER_EXPIRED'),
    },
  );
  // The offer ended otherwise than answered (its deadline passed first, the order was cancelled, the driver is no
  // longer active and on duty): the answer came too late.
  if (offer.status !== (accept ? 'accepted' : 'rejected')) throw refuse('OFFER_EXPIRED');
  return {
    result: true as const,
    offer: {
      offer_id: offer.offerId,
      order_id: orderId,
      driver_id: offer.driverId,
      status: offer.status,
      deadline: offer.deadline,
    },
  };
}

const ANSWER_FAILURES = {
  NOT_FOUND: 'No order of the business has this id',
  OFFER_NOT_YOURS: true,
  OFFER_EXPIRED: true,
} as const;

export const driverOfferAccept = defineOperation({
  name: 'driver_offer_accept',
  summary: 'The driver accepts the order auto-assign offers it.',
  description:
    "Accepts the open offer of the order (order.accepted, trail 4001): the order stays on the driver's route and the auto-assign process ends. An order offered to another driver is OFFER_NOT_YOURS; no open offer (answered, past its deadline, or none) OFFER_EXPIRED, and so is an accept that loses to the deadline or to the order's cancellation, or comes from a driver no longer active and on duty (the offer ends timed_out).",
  tag: TAG,
  roles: ['driver'],
  business: true,
  rest: { method: 'POST', path: '/v1/driver/offers/{order_id}/accept' },
  graphql: { name: 'driverOfferAccept', kind: 'mutation' },
  failures: ANSWER_FAILURES,
  input: z.object({ order_id: pathId }).strict(),
  output: z.object({ result: z.literal(true), offer: OfferView }),
  handler: (input, ctx) => answerOffer(ctx, input.order_id, true, null),
});

export const driverOfferReject = defineOperation({
  name: 'driver_offer_reject',
  summary: 'The driver rejects the order auto-assign offers it, with an optional reason.',
  description:
    "Rejects the open offer of the order: order.rejected with the reason (trail 4002) and order.unassigned (reason reject); the order leaves the driver's route and the next driver is offered. An order offered to another driver is OFFER_NOT_YOURS; no open offer OFFER_EXPIRED.",
  tag: TAG,
  roles: ['driver'],
  business: true,
  rest: { method: 'POST', path: '/v1/driver/offers/{order_id}/reject' },
  graphql: { name: 'driverOfferReject', kind: 'mutation' },
  failures: ANSWER_FAILURES,
  input: z
    .object({
      order_id: pathId,
      reason: z.string().trim().min(1).max(500).optional().describe('Why, in the driver’s words'),
    })
    .strict(),
  output: z.object({ result: z.literal(true), offer: OfferView }),
  handler: (input, ctx) => answerOffer(ctx, input.order_id, false, input.reason ?? null),
});

/** The end of the day after the route's date (UTC): the route's process ends then at the latest. */
const dayEndsOf = (routeDate: string) => new Date(Date.parse(`${routeDate}T00:00:00Z`) + 2 * 86_400_000).toISOString();

export const driverReport = defineOperation({
  name: 'driver_order_report',
  summary:
    'The driver reports a step of an order on its route: pickup started, picked up, on the way, completed, failed, ready.',
  description:
    "Judged by the route's process route-<route id> against the order's stops: an applied step changes the order's status (pickup_started 6, picked_up 7, on_the_way 2, completed 3, failed 13/12/14 by `failure_reason` or 4 without one, ready unchanged) with order.status_change, the OTEP timeline, the audit trail (4011-4016), the lifecycle event and, for picked_up, completed and failed, tracking.event with the stop's proof files, in one transaction. A step that repeats one applied (`repeated`), goes back (`backwards`), comes for a finished stop (`stop_finished`), for an order whose offer is not accepted yet (`offer_open`) or is a delivery step (on_the_way, completed) of a P2P order not picked up yet (`pickup_pending`) answers 200 with `applied: false`, the reason and its message, and changes nothing. An order not on the caller's route is NOT_FOUND.",
  tag: TAG,
  roles: ['driver'],
  business: true,
  rest: { method: 'POST', path: '/v1/driver/orders/{id}/report' },
  graphql: { name: 'driverOrderReport', kind: 'mutation' },
  failures: { NOT_FOUND: "No order on the caller's route has this id" },
  input: z
    .object({
      id: pathId,
      step: z.enum(REPORT_STEPS),
      failure_reason: z.enum(FAILURE_REASONS).optional().describe('With step failed only'),
      occurred_at: timeParam().optional().describe('When it happened on the device; now by default'),
      lat: z.number().min(-90).max(90).optional(),
      lng: z.number().min(-180).max(180).optional(),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    applied: z.boolean(),
    reason: z.enum(NOT_APPLIED_REASONS).nullable().describe('Why nothing changed; null when applied'),
    message: z.string().nullable(),
    order: OrderStateView,
  }),
  async handler(input, ctx) {
    if (input.failure_reason && input.step !== 'failed')
      throw errors.field('failure_reason', 'dispatch.failure_reason_without_failed');
    if ((input.lat === undefined) !== (input.lng === undefined))
      throw errors.field(input.lat === undefined ? 'lat' : 'lng', 'field.required');
    const occurredAt = input.occurred_at ? new Date(input.occurred_at) : new Date();
    if (occurredAt.getTime() > Date.now() + CLOCK_SKEW_MS)
      throw errors.field('occurred_at', 'field.recorded_in_future');
    const { businessId, id: driverId } = ctx.caller;
    const route = await routeOfOrder(ctx.em, businessId, input.id);
    if (!route || route.driverId !== driverId) throw errors.notFound();
    const report: DriverReport = {
      orderId: input.id,
      driverId,
      step: input.step,
      failureReason: input.failure_reason ?? null,
      occurredAt: occurredAt.toISOString(),
      lat: input.lat ?? null,
      lng: input.lng ?? null,
    };
    const start: RouteDayInput = { routeId: route.routeId, businessId, driverId, dayEnds: dayEndsOf(route.routeDate) };
    const outcome = await refusedAs(
      ctx.temporal.workflow.executeUpdateWithStart(reportUpdate, {
        args: [report],
        startWorkflowOperation: new WithStartWorkflowOperation<typeof routeDayWorkflow>(ROUTE_DAY_WORKFLOW, {
          workflowId: routeDayWorkflowId(route.routeId),
          taskQueue: DISPATCH_QUEUE,
          args: [start],
          workflowIdConflictPolicy: 'USE_EXISTING',
        }),
      }),
      { [NOT_YOUR_ROUTE]: () => errors.notFound() },
    );
    // The order left the caller's route meanwhile (a handover, a cancellation): as documented, 404.
    if (!outcome.applied && outcome.reason === 'not_on_route') throw errors.notFound();
    return {
      result: true as const,
      applied: outcome.applied,
      reason: outcome.applied ? null : outcome.reason,
      message: outcome.applied ? null : translate(NOT_APPLIED_MESSAGE[outcome.reason], ctx.lang),
      order: orderStateOf(input.id, outcome.statusId ?? route.statusId),
    };
  },
});
