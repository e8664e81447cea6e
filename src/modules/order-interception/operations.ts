/**
 * Order interception's operations (docs/orders.md, "Interception"): request an interception of an order in transit
 * with the outcome wanted, read it, withdraw it, and (the business's staff) carry out its outcome once the parcel is
 * held at a warehouse. The order is found as the caller may see it (`visibleOrder`): the business's staff any order
 * of the business, a customer account its own orders; any other order answers NOT_FOUND. Every step is taken by the
 * order's process `order-interception-<order id>`, in one transaction with its status change, trail and event.
 */
import { WithStartWorkflowOperation } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { addressInput, pathId } from '../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../platform/catalog/types.ts';
import { fail as failPlatform } from '../../platform/errorCodes.ts';
import { errors } from '../../platform/errors.ts';
import { STAFF } from '../../platform/roles.ts';
import { PROCESS_GONE, refusalOf, refusedAs } from '../../platform/temporal/refusals.ts';
import { actorOf, visibleOrder } from '../orders/index.ts';
import {
  executeUpdate,
  INTERCEPT_OUTCOMES,
  INTERCEPTION_ENDING,
  INTERCEPTION_NOT_HELD,
  INTERCEPTION_NOT_OPEN,
  INTERCEPTION_QUEUE,
  INTERCEPTION_WORKFLOW,
  interceptionSearchAttributes,
  interceptionWorkflowId,
  requestUpdate,
  withdrawUpdate,
  type InterceptionInput,
  type InterceptionRequest,
  type RequestChannel,
  type StepActor,
} from './contract.ts';
import { HOLD_DEADLINE_HOURS } from './domain.ts';
import { fail } from './errorCodes.ts';
import * as repo from './repo.ts';
import { InterceptionView, presentInterception } from './views.ts';
import type { orderInterceptionWorkflow } from './workflows.ts';

const TAG = 'Order interception';
const REQUESTERS = [...STAFF, 'customer'] as const;
const NOT_FOUND = { NOT_FOUND: 'No such order for the caller, or it has never been intercepted' } as const;
const NOT_OPEN = { INVALID_TRANSITION: 'The order has no open interception' } as const;
const WHO =
  "For the business's client admins and employees (any order of the business) and for a customer account (the orders placed by or for it); any other order answers NOT_FOUND.";

const answer = z.object({ result: z.literal(true), interception: InterceptionView });

const EXAMPLE = {
  id: 31,
  order_id: 1042,
  state: 'in_effect' as const,
  outcome: 'return_to_sender' as const,
  new_address: null,
  requested_via: 'back_office' as const,
  reason: 'The buyer cancelled after dispatch',
  end_reason: null,
  end_message: null,
  status_before: 2,
  status_after: 48,
  hold_deadline: '2026-12-04T10:00:00.000Z',
  held_at: null,
  workflow_id: 'order-interception-1042',
  created_at: '2026-12-01T10:00:00.000Z',
  ended_at: null,
};

/**
 * Which channel a call is: a customer account is the API's (6012-6014), as is any call through an MCP agent; the
 * business's staff signed in (the console, or their own integration over REST or GraphQL) are the back office.
 */
export function channelOf(ctx: BusinessContext): RequestChannel {
  if (ctx.caller.role === 'customer') return 'customer';
  return ctx.agent ? 'api' : 'back_office';
}

const stepActor = (ctx: BusinessContext): StepActor => ({ ...actorOf(ctx), channel: channelOf(ctx) });

async function orderOr404(ctx: BusinessContext, id: number) {
  const order = await visibleOrder(
    ctx.em,
    { businessId: ctx.caller.businessId, userId: ctx.caller.id, role: ctx.caller.role },
    id,
  );
  if (!order) throw errors.notFound();
  return order;
}

async function present(ctx: BusinessContext, orderId: number) {
  const row = await repo.newestOf(ctx.em, orderId);
  if (!row) throw errors.notFound();
  return { result: true as const, interception: presentInterception(row, ctx.caller.role !== 'customer', ctx.lang) };
}

/** Tries of a request that found the order's previous interception ending, 100 ms apart. */
const ENDING_TRIES = 50;

export const interceptionRequest = defineOperation({
  name: 'order_intercept_request',
  summary: 'Ask for an order in transit to be intercepted, with what is then to be done with its parcel.',
  description: `\`outcome\`: \`return_to_sender\`, \`hold_at_warehouse\` (kept there for pickup) or \`redeliver\` (to \`new_address\`, given with this outcome only). Answers 201 with the interception once it is judged: \`in_effect\` (the order is now in status 48, operation type 3043 from the back office, 6012 through the API or from a customer account) or \`rejected\` with its \`end_reason\` (delivered, cancelled, returned_to_sender, refused_by_recipient, not_in_transit for an order not yet gone out, already_intercepted while another interception of the order is open, carrier_held for an order a delivery provider carries (the provider stops it; cancel its assignment first to intercept it here), cancel_pending while a request to cancel the order waits for its provider), with \`end_message\` in your language. The parcel then has ${HOLD_DEADLINE_HOURS} hours to be held at a warehouse (a warehouse scan, or its carrier received it at a facility), or the interception fails and the order goes back to its status. Every step is sent as order.intercept.* to \`order_intercept_webhook_url\`, the customer's own override included. ${WHO}`,
  tag: TAG,
  roles: REQUESTERS,
  business: true,
  rest: { method: 'POST', path: '/v1/orders/{id}/interception', status: 201 },
  graphql: { name: 'orderInterceptionRequest', kind: 'mutation' },
  failures: {
    NOT_FOUND: 'No such order for the caller',
    INVALID_TRANSITION: "The order's previous interception is still ending; try again",
  },
  input: z
    .object({
      id: pathId,
      outcome: z.enum(INTERCEPT_OUTCOMES).describe('What is done with the parcel once it is held'),
      new_address: addressInput().nullish().describe('Where the parcel goes: with redeliver, and only with it'),
      reason: z.string().trim().min(1).max(500).nullish().describe('Why, in a few words (sent with the events)'),
    })
    .strict(),
  output: answer,
  examples: {
    input: { id: 1042, outcome: 'return_to_sender', reason: EXAMPLE.reason },
    output: { result: true, interception: EXAMPLE },
  },
  async handler(input, ctx) {
    const order = await orderOr404(ctx, input.id);
    if ((input.outcome === 'redeliver') !== (input.new_address != null))
      throw errors.field('new_address', 'interception.address_only_for_redeliver');
    const request: InterceptionRequest = {
      outcome: input.outcome,
      newAddress: input.new_address
        ? {
            line1: input.new_address.line1,
            line2: input.new_address.line2 ?? null,
            city: input.new_address.city,
            postal_code: input.new_address.postal_code,
            country: input.new_address.country,
            lat: input.new_address.lat ?? null,
            lng: input.new_address.lng ?? null,
          }
        : null,
      reason: input.reason ?? null,
      actor: stepActor(ctx),
    };
    const process: InterceptionInput = {
      orderId: order.id,
      businessId: order.businessId,
      holdDeadlineMs: Math.max(1, Math.round(HOLD_DEADLINE_HOURS * 3_600_000 * ctx.config.interceptionTimerScale)),
    };
    for (let tries = 1; ; tries++) {
      // A running process takes the request (USE_EXISTING): it rejects it while its interception is open.
      const startWorkflowOperation = new WithStartWorkflowOperation<typeof orderInterceptionWorkflow>(
        INTERCEPTION_WORKFLOW,
        {
          workflowId: interceptionWorkflowId(order.id),
          taskQueue: INTERCEPTION_QUEUE,
          args: [process],
          typedSearchAttributes: interceptionSearchAttributes(process),
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        },
      );
      try {
        const snap = await ctx.temporal.workflow.executeUpdateWithStart(requestUpdate, {
          args: [request],
          startWorkflowOperation,
        });
        const row = snap.interceptionId === null ? null : await repo.interceptionById(ctx.em, snap.interceptionId);
        if (!row) throw errors.notFound();
        return {
          result: true as const,
          interception: presentInterception(row, ctx.caller.role !== 'customer', ctx.lang),
        };
      } catch (err) {
        // The order's last interception has ended and its process is closing (or closed between the start and the
        // update): the next run takes the request.
        const refusal = refusalOf(err);
        if (refusal !== INTERCEPTION_ENDING && refusal !== PROCESS_GONE) throw err;
        if (tries >= ENDING_TRIES) throw failPlatform('INVALID_TRANSITION', 'interception.busy');
        await sleep(100);
      }
    }
  },
});

export const interceptionGet = defineOperation({
  name: 'order_intercept_get',
  summary: "The order's newest interception and the step it is at.",
  description: `Read from the interception's read model, which each step writes in the transaction of its status change and event: \`state\` (requested, in_effect, held_at_warehouse, outcome_executed, withdrawn, rejected, failed), the outcome, where and when the parcel was held, the deadline, and the workflow id to open in the Temporal UI. An order never intercepted answers NOT_FOUND. ${WHO}`,
  tag: TAG,
  roles: REQUESTERS,
  business: true,
  rest: { method: 'GET', path: '/v1/orders/{id}/interception' },
  graphql: { name: 'orderInterception', kind: 'query' },
  failures: NOT_FOUND,
  input: z.object({ id: pathId }).strict(),
  output: answer,
  examples: { input: { id: 1042 }, output: { result: true, interception: EXAMPLE } },
  async handler(input, ctx) {
    const order = await orderOr404(ctx, input.id);
    return present(ctx, order.id);
  },
});

export const interceptionWithdraw = defineOperation({
  name: 'order_intercept_withdraw',
  summary: "Withdraw the order's open interception: the order leaves status 48 and goes on.",
  description: `The order goes back to the status it had before, or, once its parcel is held, to the warehouse's (29, or 33 when a carrier holds the order); operation type 3045 from the back office, 6014 through the API or from a customer account. The business's staff may withdraw any interception of the business; a customer account only one it asked for itself (FORBIDDEN otherwise). Refuses an order without an open interception (INVALID_TRANSITION). ${WHO}`,
  tag: TAG,
  roles: REQUESTERS,
  business: true,
  rest: { method: 'POST', path: '/v1/orders/{id}/interception/withdraw' },
  graphql: { name: 'orderInterceptionWithdraw', kind: 'mutation' },
  failures: { ...NOT_FOUND, ...NOT_OPEN },
  input: z.object({ id: pathId }).strict(),
  output: answer,
  examples: {
    input: { id: 1042 },
    output: {
      result: true,
      interception: { ...EXAMPLE, state: 'withdrawn', status_after: 2, ended_at: '2026-12-01T11:00:00.000Z' },
    },
  },
  async handler(input, ctx) {
    const order = await orderOr404(ctx, input.id);
    const newest = await repo.newestOf(ctx.em, order.id);
    if (!newest || !['requested', 'in_effect', 'held_at_warehouse'].includes(newest.state))
      throw failPlatform('INVALID_TRANSITION', 'interception.not_open');
    if (ctx.caller.role === 'customer' && newest.requested_by !== ctx.caller.id) throw errors.forbidden();
    const notOpen = () => failPlatform('INVALID_TRANSITION', 'interception.not_open');
    await refusedAs(
      ctx.temporal.workflow
        .getHandle<typeof orderInterceptionWorkflow>(interceptionWorkflowId(order.id))
        .executeUpdate(withdrawUpdate, { args: [stepActor(ctx)] }),
      { [INTERCEPTION_NOT_OPEN]: notOpen, [PROCESS_GONE]: notOpen },
    );
    return present(ctx, order.id);
  },
});

export const interceptionExecute = defineOperation({
  name: 'order_intercept_execute',
  summary: "Carry out the interception's outcome, once its parcel is held at a warehouse.",
  description: `return_to_sender ends the order in RETURNED_TO_SENDER (15); hold_at_warehouse puts it on HOLD (8) for the recipient to collect (release_order returns it to NEW_ORDER); redeliver makes \`new_address\` the recipient's address (the old one is kept on the audit trail) and puts the order back at the warehouse (29) to be planned again. Operation type 3044 for an interception asked from the back office, 6013 for one asked through the API or by a customer account. Refuses while the parcel is not held yet (INTERCEPTION_NOT_HELD) and an order without an open interception (INVALID_TRANSITION). For the business's client admins and employees; any other account gets FORBIDDEN, an order of another business NOT_FOUND.`,
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/orders/{id}/interception/execute' },
  graphql: { name: 'orderInterceptionExecute', kind: 'mutation' },
  failures: { ...NOT_FOUND, ...NOT_OPEN, INTERCEPTION_NOT_HELD: true },
  input: z.object({ id: pathId }).strict(),
  output: answer,
  examples: {
    input: { id: 1042 },
    output: {
      result: true,
      interception: {
        ...EXAMPLE,
        state: 'outcome_executed',
        status_after: 15,
        held_at: {
          place: 'WH-1',
          package_number: 'TMS3F9A2C1B7D01',
          source: 'scan',
          occurred_at: '2026-12-01T16:00:00.000Z',
        },
        ended_at: '2026-12-02T09:00:00.000Z',
      },
    },
  },
  async handler(input, ctx) {
    const order = await orderOr404(ctx, input.id);
    const newest = await repo.newestOf(ctx.em, order.id);
    if (!newest || !['requested', 'in_effect', 'held_at_warehouse'].includes(newest.state))
      throw failPlatform('INVALID_TRANSITION', 'interception.not_open');
    const notOpen = () => failPlatform('INVALID_TRANSITION', 'interception.not_open');
    await refusedAs(
      ctx.temporal.workflow
        .getHandle<typeof orderInterceptionWorkflow>(interceptionWorkflowId(order.id))
        .executeUpdate(executeUpdate, { args: [stepActor(ctx)] }),
      {
        [INTERCEPTION_NOT_OPEN]: notOpen,
        [PROCESS_GONE]: notOpen,
        [INTERCEPTION_NOT_HELD]: () => fail('INTERCEPTION_NOT_HELD', 'interception.not_held'),
      },
    );
    return present(ctx, order.id);
  },
});

export const INTERCEPTION_OPERATIONS = [
  interceptionRequest,
  interceptionGet,
  interceptionWithdraw,
  interceptionExecute,
];
