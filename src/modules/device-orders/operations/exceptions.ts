/**
 * Staff open, resolve and list a device order's exceptions (docs/device-order-exceptions.md). Opens and resolves
 * go through the order's process; an order whose process has ended gets a resumed run from its read model.
 */
import { WithStartWorkflowOperation } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { z } from 'zod';
import { errors } from '../../../platform/errors.ts';
import { fail } from '../errorCodes.ts';
import { ANY_REFUSAL, refusedAs } from '../../../platform/temporal/refusals.ts';
import { pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { doorTimings } from '../domain.ts';
import {
  CLOSED_STATUSES,
  EXCEPTION_SEVERITIES,
  ExceptionRecord,
  ExceptionView,
  STAFF_EXCEPTION_TYPES,
  STAFF_RESOLUTION_ACTIONS,
} from '../exceptions.ts';
import { findException, listExceptions } from '../repo/exceptions.ts';
import { findDeviceOrder } from '../repo/orders.ts';
import {
  deviceOrderSearchAttributes,
  deviceOrderWorkflowId,
  openExceptionUpdate,
  resolveExceptionUpdate,
  DEVICE_ORDER_WORKFLOW,
  EXCEPTION_ALREADY_OPEN,
  EXCEPTION_NOT_OPEN,
  type ExceptionSnapshot,
  DEVICE_ORDER_QUEUE,
} from '../contract.ts';
import type { deviceOrderWorkflow } from '../workflows.ts';
import { loadOr404 } from './orders.ts';
import { DeviceOrderView } from '../views.ts';

const TAG = 'Device Orders';
const STAFF = ['client_admin', 'employee'] as const;
const ExceptionOutput = z.object({ result: z.literal(true), device_order: DeviceOrderView, exception: ExceptionView });

/**
 * Sends an exception update to the order's process. A process that has ended (after its last exception closed)
 * is resumed from the read model: a new run of the same id, started with the update.
 */
async function sendToProcess<A>(
  ctx: BusinessContext,
  order: DeviceOrderView,
  update: UpdateDefinition<ExceptionSnapshot, [A]>,
  args: A,
): Promise<{ device_order: DeviceOrderView; exception: ExceptionView }> {
  const { businessId } = ctx.caller;
  const startWorkflowOperation = new WithStartWorkflowOperation<typeof deviceOrderWorkflow>(DEVICE_ORDER_WORKFLOW, {
    workflowId: deviceOrderWorkflowId(order.id),
    taskQueue: DEVICE_ORDER_QUEUE,
    args: [
      {
        id: order.id,
        businessId,
        dueAt: order.due_at,
        status: order.status,
        ...doorTimings(ctx.config.lockerTimerScale),
      },
    ],
    typedSearchAttributes: deviceOrderSearchAttributes(businessId, order.device_id, order.order_id, order.status),
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
  });
  const done = await refusedAs(
    ctx.temporal.workflow.executeUpdateWithStart(update, { args: [args], startWorkflowOperation }),
    {
      [EXCEPTION_ALREADY_OPEN]: () => fail('EXCEPTION_ALREADY_OPEN', 'device_order.exception_already_open'),
      [EXCEPTION_NOT_OPEN]: () => fail('EXCEPTION_NOT_OPEN', 'device_order.exception_not_open'),
      // A process started before exceptions went through it has no handler for them.
      [ANY_REFUSAL]: () => fail('PROCESS_OUTDATED', 'device_order.process_outdated'),
    },
  );
  // The process answers its snapshot; the answer presents the rows as the update left them.
  return {
    device_order: (await findDeviceOrder(ctx.em, businessId, order.id))!,
    exception: (await findException(ctx.em, order.id, done.exception.id))!,
  };
}

export const deviceOrderExceptionOpen = defineOperation({
  name: 'device_order_exception_open',
  summary:
    'Staff open an exception on a device order, at any status; its process then stays open until the exception is resolved or dismissed.',
  description:
    'Use it when a parcel needs an operator: a door left open, a parcel missing, damaged or in the wrong compartment. It works at any status, also after the parcel has left (an ended process is resumed), and emits `device_order.exception_opened`. Refuses a second open exception of the same type (EXCEPTION_ALREADY_OPEN), the type `pickup_code_locked`, which only the code check opens (VALIDATION_FAILED), and an order whose process predates exceptions (PROCESS_OUTDATED).',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/device-orders/{id}/exceptions', status: 201 },
  failures: {
    NOT_FOUND: 'No such device order in the business',
    EXCEPTION_ALREADY_OPEN: 'An exception of this type is open already',
    PROCESS_OUTDATED: "The order's process predates exceptions",
  },
  graphql: { name: 'deviceOrderExceptionOpen', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'medium' },
  input: z
    .object({
      id: pathId,
      type: z
        .enum(STAFF_EXCEPTION_TYPES)
        .describe('What went wrong (pickup_code_locked is opened by the code check only)'),
      severity: z.enum(EXCEPTION_SEVERITIES).optional().describe("The type's default severity when absent"),
    })
    .strict(),
  output: ExceptionOutput,
  async handler(input, ctx) {
    const order = await loadOr404(ctx, input.id);
    const opened = await sendToProcess(ctx, order, openExceptionUpdate, {
      type: input.type,
      severity: input.severity,
      actorId: ctx.caller.id,
    });
    return { result: true as const, ...opened };
  },
});

export const deviceOrderExceptionResolve = defineOperation({
  name: 'device_order_exception_resolve',
  summary: 'Staff resolve or dismiss an open exception of a device order, saying what was done.',
  description:
    "`status` `resolved` says the problem was fixed, `dismissed` that there was none; `resolution_action` records what was done (for example `parcel_found`, `recipient_contacted`). Emits `device_order.exception_resolved`; the order's process ends only once the parcel has left and no exception is open. Refuses an exception already closed (EXCEPTION_NOT_OPEN), and an order or exception id the business does not have (NOT_FOUND).",
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/device-orders/{id}/exceptions/{exception_id}/resolve' },
  failures: {
    NOT_FOUND: 'No such device order in the business, or no such exception of it',
    EXCEPTION_NOT_OPEN: 'The exception is closed already',
    PROCESS_OUTDATED: "The order's process predates exceptions",
  },
  graphql: { name: 'deviceOrderExceptionResolve', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'medium' },
  input: z
    .object({
      id: pathId,
      exception_id: pathId,
      status: z.enum(CLOSED_STATUSES).describe('resolved: the problem was fixed; dismissed: there was none'),
      resolution_action: z.enum(STAFF_RESOLUTION_ACTIONS).describe('What was done'),
    })
    .strict(),
  output: ExceptionOutput,
  async handler(input, ctx) {
    const order = await loadOr404(ctx, input.id);
    const exception = await findException(ctx.em, input.id, input.exception_id);
    if (!exception) throw errors.notFound();
    if (exception.status !== 'open') throw fail('EXCEPTION_NOT_OPEN', 'device_order.exception_not_open');
    const closed = await sendToProcess(ctx, order, resolveExceptionUpdate, {
      exceptionId: input.exception_id,
      status: input.status,
      resolutionAction: input.resolution_action,
      actorId: ctx.caller.id,
    });
    return { result: true as const, ...closed };
  },
});

export const deviceOrderExceptionList = defineOperation({
  name: 'device_order_exception_list',
  summary: "List a device order's exceptions, oldest first, open and closed.",
  description:
    'Each entry has its type, severity, status, resolution action and when it was opened and closed, including those the service opened itself (`overdue`, `door_left_open`, `pickup_code_locked`). Not paginated: an order holds few. Refuses an id of another business (NOT_FOUND). Use device_order_exception_open and device_order_exception_resolve to act on them.',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/device-orders/{id}/exceptions' },
  failures: { NOT_FOUND: 'No such device order in the business' },
  graphql: { name: 'deviceOrderExceptions', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low' },
  input: z.object({ id: pathId }).strict(),
  output: z.object({ result: z.literal(true), exceptions: z.array(ExceptionRecord) }),
  async handler(input, ctx) {
    await loadOr404(ctx, input.id);
    return { result: true as const, exceptions: await listExceptions(ctx.em, input.id) };
  },
});
