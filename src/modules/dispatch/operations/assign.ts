/**
 * Assignment of an order to a driver by the business's staff (docs/routes.md, "Dispatch and the driver's day"): by
 * hand, or offered to drivers in turn by the auto-assign process.
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { z } from 'zod';
import { intParam } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { errors } from '../../../platform/errors.ts';
import { actorOf } from '../../orders/index.ts';
import { assignManually, unassignManually } from '../assign.ts';
import { AUTO_ASSIGN_WORKFLOW, autoAssignWorkflowId, DISPATCH_QUEUE, type AutoAssignInput } from '../contract.ts';
import { MAX_OFFERS_DEFAULT, OFFER_TIMEOUT_SECONDS } from '../domain.ts';
import { lockDispatchOrder } from '../repo/orders.ts';
import { dispatchRefusal, refuse } from '../rules.ts';
import { AssignmentView, orderStateOf } from '../views.ts';
import type { autoAssignWorkflow } from '../workflows.ts';

const TAG = 'Dispatch';
const ROLES = ['client_admin', 'employee'] as const;
const DISPATCHABLE = {
  ORDER_NOT_DISPATCHABLE: true,
  ORDER_PROVIDER_HELD: true,
  ORDER_CONTRACTOR_HELD: true,
  AUTO_ASSIGN_RUNNING: true,
} as const;

export const dispatchAssign = defineOperation({
  name: 'dispatch_assign',
  summary: "Give an order to a driver: it goes on the driver's route of the order's date.",
  description:
    "Puts the order on the driver's route of its scheduled date (made when the driver has none), taking it off its previous driver's route first: order.unassigned (reason handover, previous_driver_id) then order.assigned (source manual) to the lifecycle receivers, trail rows 3082/3084 and 3083/3081, all in one transaction. The order must wait for dispatch (ORDER_NOT_DISPATCHABLE: on hold, cancelled, delivered, on its way), be carried by the business (ORDER_PROVIDER_HELD, ORDER_CONTRACTOR_HELD), have no open auto-assign offer (AUTO_ASSIGN_RUNNING) and no stop done on its route (ORDER_STOP_STARTED); the driver must be active (DRIVER_NOT_ACTIVE). The same driver again changes nothing (`changed: false`). Another business's order or driver is NOT_FOUND.",
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'POST', path: '/v1/dispatch/assign' },
  graphql: { name: 'dispatchAssign', kind: 'mutation' },
  failures: {
    NOT_FOUND: 'No order or no driver of the business has this id',
    ...DISPATCHABLE,
    ORDER_STOP_STARTED: true,
    DRIVER_NOT_ACTIVE: true,
  },
  input: z.object({ order_id: intParam(), driver_id: intParam() }).strict(),
  output: z.object({ result: z.literal(true), assignment: AssignmentView }),
  async handler(input, ctx) {
    const actor = actorOf(ctx);
    const done = await ctx.em.transactional((tx) =>
      assignManually(tx, ctx.caller.businessId, input.order_id, input.driver_id, actor),
    );
    return {
      result: true as const,
      assignment: {
        order: orderStateOf(done.order.id, done.order.statusId),
        driver_id: done.driverId,
        route_id: done.routeId,
        changed: done.changed,
      },
    };
  },
});

export const dispatchUnassign = defineOperation({
  name: 'dispatch_unassign',
  summary: 'Take an order from its driver: it leaves the route and waits for dispatch again.',
  description:
    "Takes the order off its driver's route (its pending stops go) and from the driver: order.unassigned (reason revoke, previous_driver_id), trail 3084 and 3082, in one transaction. Refused for an order without a driver (ORDER_NOT_ASSIGNED), one not in an assignable status (ORDER_NOT_DISPATCHABLE: under way, delivered, refused, failed), one whose stop is done or has a step reported (ORDER_STOP_STARTED), and while an auto-assign offer of it is open (AUTO_ASSIGN_RUNNING). After a failed attempt (status 12 or 13) its finished stops stay on the route as history. Another business's order is NOT_FOUND.",
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'POST', path: '/v1/dispatch/unassign' },
  graphql: { name: 'dispatchUnassign', kind: 'mutation' },
  failures: {
    NOT_FOUND: 'No order of the business has this id',
    ORDER_NOT_ASSIGNED: true,
    ORDER_NOT_DISPATCHABLE: true,
    ORDER_STOP_STARTED: true,
    AUTO_ASSIGN_RUNNING: true,
  },
  input: z.object({ order_id: intParam() }).strict(),
  output: z.object({ result: z.literal(true), assignment: AssignmentView }),
  async handler(input, ctx) {
    const actor = actorOf(ctx);
    const done = await ctx.em.transactional((tx) => unassignManually(tx, ctx.caller.businessId, input.order_id, actor));
    return {
      result: true as const,
      assignment: {
        order: orderStateOf(done.order.id, done.order.statusId),
        driver_id: null,
        route_id: null,
        changed: true,
      },
    };
  },
});

export const dispatchAutoAssign = defineOperation({
  name: 'dispatch_auto_assign',
  summary: 'Offer an order to the nearest suitable drivers in turn until one accepts.',
  description: `Starts the process auto-assign-<order id> (one at a time per order; another request while it runs is AUTO_ASSIGN_RUNNING) and answers 202. It ranks the business's active, on-duty drivers who have every one of the order's required_skills by the great-circle distance of their newest position to the order (drivers without a position last), and offers the order to the first: the order goes on that driver's route at once (order.assigned, source auto_assign, trail 3085) and the driver has \`offer_timeout_seconds\` (${OFFER_TIMEOUT_SECONDS.min} to ${OFFER_TIMEOUT_SECONDS.max}, ${OFFER_TIMEOUT_SECONDS.default} by default) to answer in the driver app (driver_offer_accept, driver_offer_reject). An accept sends order.accepted and ends the process; a reject sends order.rejected and order.unassigned (reason reject), no answer order.unassigned (reason timeout); then the next driver is offered, up to \`max_offers\` drivers (${MAX_OFFERS_DEFAULT} by default). With none left the process ends exhausted and the order waits for dispatch. An order with a driver already is ORDER_HAS_DRIVER; cancelling the order ends the process.`,
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'POST', path: '/v1/dispatch/auto-assign', status: 202 },
  graphql: { name: 'dispatchAutoAssign', kind: 'mutation' },
  failures: { NOT_FOUND: 'No order of the business has this id', ...DISPATCHABLE, ORDER_HAS_DRIVER: true },
  input: z
    .object({
      order_id: intParam(),
      offer_timeout_seconds: z
        .number()
        .int()
        .min(OFFER_TIMEOUT_SECONDS.min)
        .max(OFFER_TIMEOUT_SECONDS.max)
        .default(OFFER_TIMEOUT_SECONDS.default)
        .describe('How long each driver has to answer the offer'),
      max_offers: z
        .number()
        .int()
        .min(1)
        .max(100)
        .optional()
        .describe(`The most drivers offered; ${MAX_OFFERS_DEFAULT} by default`),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    order_id: z.number().int(),
    workflow_id: z.string().describe('The process auto-assign-<order id>'),
  }),
  async handler(input, ctx) {
    const { businessId } = ctx.caller;
    await ctx.em.transactional(async (tx) => {
      const o = await lockDispatchOrder(tx, businessId, input.order_id);
      if (!o) throw errors.notFound();
      const refusal = dispatchRefusal(o);
      if (refusal) throw refuse(refusal);
      if (o.offerOpen) throw refuse('AUTO_ASSIGN_RUNNING');
      if (o.driverId !== null) throw refuse('ORDER_HAS_DRIVER');
    });
    const workflowId = autoAssignWorkflowId(input.order_id);
    const args: AutoAssignInput = {
      orderId: input.order_id,
      businessId,
      offerTimeoutSeconds: input.offer_timeout_seconds,
      maxOffers: input.max_offers ?? null,
      actorId: ctx.caller.id,
    };
    await ctx.temporal.workflow
      .start<typeof autoAssignWorkflow>(AUTO_ASSIGN_WORKFLOW, {
        workflowId,
        taskQueue: DISPATCH_QUEUE,
        args: [args],
        workflowIdConflictPolicy: 'FAIL',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      })
      .catch((err: unknown) => {
        if (err instanceof WorkflowExecutionAlreadyStartedError) throw refuse('AUTO_ASSIGN_RUNNING');
        throw err;
      });
    return { result: true as const, order_id: input.order_id, workflow_id: workflowId };
  },
});
