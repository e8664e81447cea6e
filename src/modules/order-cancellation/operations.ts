/**
 * Cancel an order, answer a cancellation as the delivery provider holding the order, read a cancellation, and
 * delete an order for good (docs/orders.md, "Cancellation and deletion").
 */
import { WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import { z } from 'zod';
import { pathId } from '../../platform/catalog/schemas.ts';
import { defineOperation } from '../../platform/catalog/types.ts';
import { insertOutboxEvents } from '../../platform/db/outbox.ts';
import { errors } from '../../platform/errors.ts';
import { translate } from '../../platform/i18n/messages.ts';
import { STAFF } from '../../platform/roles.ts';
import { PROCESS_GONE, refusedAs } from '../../platform/temporal/refusals.ts';
import {
  actorOf,
  appendOrderTrail,
  carrierHeld,
  ORDER_OPERATION,
  priceFamilyOf,
  visibleOrder,
} from '../orders/index.ts';
import {
  CANCELLATION_ANSWERED,
  cancellationSearchAttributes,
  ORDER_CANCELLATION_QUEUE,
  ORDER_CANCELLATION_WORKFLOW,
  orderCancellationWorkflowId,
  providerAnswerUpdate,
  type CancellationInput,
} from './contract.ts';
import {
  CANCEL_PROVIDER_TIMEOUT_MINUTES,
  CANCEL_REFUSAL_REPEAT_MINUTES,
  cancelRefusal,
  DELETABLE_STATUS_IDS,
  type CancelRefusalCode,
} from './domain.ts';
import { fail } from './errorCodes.ts';
import { cancelRequestedEvent } from './events.ts';
import { REFUSAL_MESSAGE } from './messages.ts';
import { writeCancelled, writeRefusal } from './outcomes.ts';
import {
  deleteOrderRows,
  findAssignmentFacts,
  findCancellation,
  findProviderCancellation,
  insertCancellation,
  latestCancellation,
  lockCancelTarget,
  lockDeleteTarget,
  repeatsRecentRefusal,
} from './repo.ts';
import { CancellationView, OrderStateView, orderStateOf, presentCancellation } from './views.ts';
import type { orderCancellationWorkflow } from './workflows.ts';

const TAG = 'Client';
const PROVIDER_TAG = 'Third-party deliveries (provider)';
const assignmentNumberParam = z
  .string()
  .trim()
  .regex(/^TPA-[0-9]{8,10}$/, 'assignment number');

const CancelOutput = z.object({ result: z.literal(true), order: OrderStateView, cancellation: CancellationView });
type CancelOutput = z.input<typeof CancelOutput>;

const awaitingExample: CancelOutput = {
  result: true,
  order: { id: 42, status_id: 29, status: 'AT_WAREHOUSE' },
  cancellation: {
    id: 7,
    order_id: 42,
    status: 'awaiting_provider',
    reason: 'Customer changed their mind',
    refusal_code: null,
    message: null,
    provider_code: 'FASTCO',
    assignment_number: 'TPA-00000012',
    requested_at: '2026-12-01T09:00:00.000Z',
    answer_deadline: '2026-12-01T09:30:00.000Z',
    ended_at: null,
    workflow_id: 'order-cancellation-42',
  },
};

export const orderCancel = defineOperation({
  name: 'cancel_order',
  summary:
    'Cancel an order that has not gone out; an order a delivery provider holds is cancelled once the provider accepts.',
  description: `Cancels the order at once (status CANCELLED, operation type 3041, order.status_change and order.cancelled): it leaves its warehouse distribution, its contractor assignment and any hold. An order handed to a delivery provider is cancelled only if the provider accepts: the answer is then 202 with the request \`awaiting_provider\`, the provider has ${CANCEL_PROVIDER_TIMEOUT_MINUTES} minutes to accept or refuse, and no answer counts as a refusal; read the outcome with get_order_cancellation or wait for order.status_change (cancelled) or order.cancel_failed. An order on its way, with a driver after a failed attempt, or at pickup (ORDER_GONE_OUT), delivered, refused by its recipient or returned to its sender (ORDER_FINISHED), cancelled already (ORDER_ALREADY_CANCELLED) or intercepted (ORDER_UNDER_INTERCEPTION) is refused, and the refusal is also sent as order.cancel_failed (operation type 3042 in the audit trail); the same refusal repeated within ${CANCEL_REFUSAL_REPEAT_MINUTES} minutes is answered the same and sent only once. A carrier label order (docs/labels.md) is cancelled by voiding its label, with cancel_shipping_label or uniorder_cancel: here it is refused CANCEL_BY_VOID. A customer account cancels only its own orders. Another business's order answers NOT_FOUND.`,
  tag: TAG,
  roles: ['client_admin', 'employee', 'customer'],
  business: true,
  rest: {
    method: 'POST',
    path: '/v1/orders/{id}/cancel',
    accepted: {
      when: (out: CancelOutput) => out.cancellation.status === 'awaiting_provider',
      description:
        'Accepted: the delivery provider holding the order decides (`cancellation.status` awaiting_provider until `answer_deadline`)',
      example: awaitingExample,
    },
  },
  graphql: { name: 'orderCancel', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'high' },
  failures: {
    NOT_FOUND: 'No order of the business (of the customer, for a customer account) has this id',
    ORDER_GONE_OUT: true,
    ORDER_FINISHED: true,
    ORDER_ALREADY_CANCELLED: true,
    ORDER_UNDER_INTERCEPTION: true,
    CANCEL_PENDING: true,
    CANCEL_BY_VOID: true,
  },
  input: z
    .object({
      id: pathId,
      reason: z
        .string()
        .trim()
        .min(1)
        .max(255)
        .optional()
        .describe('Why, kept with the request and in the audit trail'),
    })
    .strict(),
  output: CancelOutput,
  async handler(input, ctx) {
    const { businessId, role } = ctx.caller;
    const viewer = { businessId, userId: ctx.caller.id, role };
    if (!(await visibleOrder(ctx.em, viewer, input.id))) throw errors.notFound();
    const actor = actorOf(ctx);
    const reason = input.reason ?? null;
    let started: WorkflowHandle | null = null;
    // The request's process starts inside the transaction that writes the request, after the order's row is locked:
    // it waits for that lock, so it acts only on a committed request and ends at once if the commit fails.
    const startProcess = async (process: CancellationInput) => {
      started = await ctx.temporal.workflow
        .start<typeof orderCancellationWorkflow>(ORDER_CANCELLATION_WORKFLOW, {
          workflowId: orderCancellationWorkflowId(process.orderId),
          taskQueue: ORDER_CANCELLATION_QUEUE,
          args: [process],
          typedSearchAttributes: cancellationSearchAttributes(
            process,
            process.providerId === null ? 'cancelled' : 'awaiting_provider',
          ),
          workflowIdConflictPolicy: 'FAIL',
          workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        })
        .catch((err: unknown) => {
          if (err instanceof WorkflowExecutionAlreadyStartedError)
            throw fail('CANCEL_PENDING', 'order_cancellation.pending');
          throw err;
        });
    };
    const outcome = await ctx.em
      .transactional(async (tx): Promise<{ refused: CancelRefusalCode } | { id: number; statusId: number }> => {
        const o = await lockCancelTarget(tx, businessId, input.id);
        if (!o) throw errors.notFound();
        if (o.pendingId !== null) throw fail('CANCEL_PENDING', 'order_cancellation.pending');
        const refused = cancelRefusal(o.statusId);
        if (refused) {
          // The same refusal again, shortly after: answered the same, nothing new written or sent.
          if (await repeatsRecentRefusal(tx, o.id, refused, CANCEL_REFUSAL_REPEAT_MINUTES)) return { refused };
          const message = translate(REFUSAL_MESSAGE[refused], 'en');
          const base = { orderId: o.id, businessId, actor, reason, refusalCode: refused, message };
          const id = await insertCancellation(tx, { ...base, status: 'refused' });
          await writeRefusal(tx, o, id, { code: refused, message }, actor, reason ? { reason } : {});
          return { refused };
        }
        // A label order's carrier holds a label for it: voiding that label is what cancels it (docs/labels.md).
        if (o.hasLabel) throw fail('CANCEL_BY_VOID', 'order_cancellation.by_void');
        if (o.assignment) {
          const deadline = CANCEL_PROVIDER_TIMEOUT_MINUTES * 60_000 * ctx.config.cancelProviderTimerScale;
          const answerDeadline = new Date(Date.now() + deadline).toISOString();
          const id = await insertCancellation(tx, {
            orderId: o.id,
            businessId,
            status: 'awaiting_provider',
            providerId: o.assignment.providerId,
            assignmentId: o.assignment.id,
            reason,
            actor,
            answerDeadline,
          });
          const facts = await findAssignmentFacts(tx, o.assignment.id);
          await insertOutboxEvents(tx, [
            cancelRequestedEvent(businessId, o.assignment.providerId, o.assignment.id, facts, o.id, id, answerDeadline),
          ]);
          await startProcess({
            cancellationId: id,
            orderId: o.id,
            businessId,
            providerId: o.assignment.providerId,
            assignmentId: o.assignment.id,
            answerDeadline,
          });
          return { id, statusId: o.statusId };
        }
        const id = await insertCancellation(tx, { orderId: o.id, businessId, status: 'cancelled', reason, actor });
        // The hooks' work after the commit is the process's: it runs once the commit is done, and is retried until
        // it is, so a failure or a crash after the commit loses none of it.
        await writeCancelled(
          tx,
          o,
          id,
          { em: ctx.em, temporal: ctx.temporal, config: ctx.config, log: ctx.log, actor },
          reason ? { reason } : {},
        );
        await startProcess({
          cancellationId: id,
          orderId: o.id,
          businessId,
          providerId: null,
          assignmentId: null,
          answerDeadline: null,
        });
        return { id, statusId: 5 };
      })
      .catch(async (err: unknown) => {
        // Not committed: the process just started ends now rather than when it finds no request.
        const handle = started as WorkflowHandle | null;
        if (handle)
          await handle
            .terminate('cancellation request not written')
            .catch((e: unknown) =>
              ctx.log.warn({ err: e, workflowId: handle.workflowId }, 'could not end the process'),
            );
        throw err;
      });
    if ('refused' in outcome) throw fail(outcome.refused, REFUSAL_MESSAGE[outcome.refused]);
    return {
      result: true as const,
      order: orderStateOf(input.id, outcome.statusId),
      cancellation: presentCancellation((await findCancellation(ctx.em, outcome.id))!, role),
    };
  },
});

export const orderCancellationGet = defineOperation({
  name: 'get_order_cancellation',
  summary: "The order's newest cancellation request and its outcome.",
  description:
    "Answers the newest request to cancel the order: `cancelled`, `refused` or `timed_out` with the refusal's code and message, or `awaiting_provider` with the provider's deadline and the workflow id. Use it after cancel_order answered 202. A customer account reads only its own orders' requests, and reads a delivery provider's refusal as ORDER_CANCEL_REFUSED. NOT_FOUND for an order the caller cannot see, or one never asked to be cancelled.",
  tag: TAG,
  roles: [...STAFF, 'customer'],
  business: true,
  rest: { method: 'GET', path: '/v1/orders/{id}/cancellation' },
  graphql: { name: 'orderCancellation', kind: 'query' },
  failures: { NOT_FOUND: 'No order the caller can see has this id, or none was asked to be cancelled' },
  input: z.object({ id: pathId }).strict(),
  output: z.object({ result: z.literal(true), cancellation: CancellationView }),
  async handler(input, ctx) {
    const { businessId, role } = ctx.caller;
    if (!(await visibleOrder(ctx.em, { businessId, userId: ctx.caller.id, role }, input.id))) throw errors.notFound();
    const c = await latestCancellation(ctx.em, input.id);
    if (!c) throw errors.notFound();
    return { result: true as const, cancellation: presentCancellation(c, role) };
  },
});

export const providerCancelAnswer = defineOperation({
  name: 'provider_cancel_request_answer',
  summary: "The delivery provider accepts or refuses the business's request to cancel an order handed to it.",
  description:
    'Answer a `delivery.assignment.cancel_requested` before its `answer_deadline`. `accept: true`: the order is cancelled and the assignment ends `cancelled` (`delivery.assignment.cancelled`, reason cancelled); stop the parcel at your carrier. `accept: false` with your own `refusal_code` (capitals, digits and underscores, for example IN_LINEHAUL) and a `message`: the order goes on, and the business receives order.cancel_failed with your code. The answer comes once the outcome is written; `status` says it (an acceptance may still be `refused` when the order moved on meanwhile, for example was delivered). A request answered already, or past its deadline, answers CANCEL_ANSWERED; an assignment of another provider, or one never asked about, NOT_FOUND.',
  tag: PROVIDER_TAG,
  roles: ['delivery_provider'],
  business: true,
  rest: { method: 'POST', path: '/v1/provider/third-party-assignments/{number}/cancel-request' },
  graphql: { name: 'providerCancelRequestAnswer', kind: 'mutation' },
  failures: {
    NOT_FOUND: 'No cancellation was asked of this provider about an assignment of this number',
    CANCEL_ANSWERED: true,
  },
  input: z
    .object({
      number: assignmentNumberParam,
      accept: z.boolean(),
      refusal_code: z
        .string()
        .trim()
        .regex(/^[A-Z][A-Z0-9_]{1,39}$/, 'refusal code')
        .optional()
        .describe('Your own code for a refusal; CARRIER_REFUSED when absent'),
      message: z.string().trim().min(1).max(500).optional(),
    })
    .strict(),
  output: z.object({ result: z.literal(true), cancellation: CancellationView }),
  async handler(input, ctx) {
    const c = await findProviderCancellation(ctx.em, ctx.caller.businessId, input.number);
    if (!c) throw errors.notFound();
    const answered = () => fail('CANCEL_ANSWERED', 'order_cancellation.answered');
    if (c.status !== 'awaiting_provider') throw answered();
    const handle = ctx.temporal.workflow.getHandle<typeof orderCancellationWorkflow>(
      orderCancellationWorkflowId(c.order_id),
    );
    const args = {
      cancellationId: c.id,
      providerId: ctx.caller.businessId,
      accept: input.accept,
      refusalCode: input.accept ? null : (input.refusal_code ?? null),
      message: input.message ?? null,
      actorId: ctx.caller.id,
    };
    await refusedAs(handle.executeUpdate(providerAnswerUpdate, { args: [args] }), {
      [CANCELLATION_ANSWERED]: answered,
      [PROCESS_GONE]: answered,
    });
    return {
      result: true as const,
      cancellation: presentCancellation((await findCancellation(ctx.em, c.id))!, ctx.caller.role),
    };
  },
});

export const orderDelete = defineOperation({
  name: 'delete_order',
  summary: 'Delete a cancelled or finished order for good; order.deleted is sent.',
  description:
    "For the business's administrators. The order, its packages, status history, tracking events, distribution and assignments are deleted in one transaction, and every read of it answers NOT_FOUND from then on; order.deleted (event id ODL-<order id>) is sent. What must outlive it stays: the audit trail (operation type 3051 records the deletion, by whom and from where) and the webhook delivery log with the events sent about it. Refuses an order that is not cancelled or finished (delivered, refused by its recipient, returned to its sender), or that a process still holds (a delivery provider's live assignment, a cancellation awaiting its provider, a parcel stored in a locker, a package still on its way through a distribution): ORDER_NOT_DELETABLE. Another business's order answers NOT_FOUND.",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'DELETE', path: '/v1/orders/{id}' },
  graphql: { name: 'orderDelete', kind: 'mutation' },
  failures: {
    NOT_FOUND: 'No order of the business has this id',
    ORDER_NOT_DELETABLE: true,
  },
  input: z.object({ id: pathId }).strict(),
  output: z.object({ result: z.literal(true), order_id: z.number().int(), deleted_at: z.string() }),
  async handler(input, ctx) {
    const { businessId } = ctx.caller;
    const actor = actorOf(ctx);
    const deletedAt = new Date();
    await ctx.em.transactional(async (tx) => {
      const o = await lockDeleteTarget(tx, businessId, input.id);
      if (!o) throw errors.notFound();
      if (!DELETABLE_STATUS_IDS.includes(o.statusId) || o.held)
        throw fail('ORDER_NOT_DELETABLE', 'order_cancellation.not_deletable');
      await appendOrderTrail(tx, [
        {
          orderId: o.id,
          businessId,
          operationType: ORDER_OPERATION.DELETED,
          actor,
          beforeStatus: o.statusId,
          details: { description: 'order deleted', order_ref: o.orderRef ?? null, tracking_number: o.trackingNumber },
          occurredAt: deletedAt,
        },
      ]);
      const eventId = `ODL-${o.id}`;
      await insertOutboxEvents(tx, [
        {
          businessId,
          customerId: o.customerId,
          eventId,
          eventType: 'order.deleted',
          referenceType: 'order',
          referenceId: String(o.id),
          family: priceFamilyOf(o),
          carrierHeld: carrierHeld(o),
          payload: {
            event_id: eventId,
            event: 'order.deleted',
            business_id: businessId,
            occurred_at: deletedAt.toISOString(),
            data: {
              order: { id: o.id, order_ref: o.orderRef ?? null, tracking_number: o.trackingNumber },
              deleted_at: deletedAt.toISOString(),
            },
          },
        },
      ]);
      await deleteOrderRows(tx, o.id);
    });
    return { result: true as const, order_id: input.id, deleted_at: deletedAt.toISOString() };
  },
});

export const ORDER_CANCELLATION_OPERATIONS = [orderCancel, orderCancellationGet, providerCancelAnswer, orderDelete];
