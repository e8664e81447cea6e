/** A business hands orders to third-party delivery providers; its warehouse hands their packages over (docs/third-party-deliveries.md). */
import { z } from 'zod';
import { errors } from '../../../platform/errors.ts';
import { fail } from '../errorCodes.ts';
import { intParam, timeParam } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { STAFF } from '../../../platform/roles.ts';
import { PROCESS_GONE, refusedAs } from '../../../platform/temporal/refusals.ts';
import { NO_DUPLICATES } from '../../../platform/temporal/startOptions.ts';
import { writeOnceStarted } from '../../../platform/temporal/startWithRows.ts';
import { findDeliveryProvider } from '../../identity/index.ts';
import { actorOf, ASSIGNABLE_STATUS_IDS, lockOrderStatus } from '../../orders/index.ts';
import { writeAssignment } from '../activities.ts';
import {
  ASSIGNMENT_INVALID_STEP,
  cancelUpdate,
  handoverUpdate,
  NOT_THE_ORDERS_PACKAGE,
  THIRD_PARTY_WORKFLOW,
  thirdPartySearchAttributes,
  thirdPartyWorkflowId,
  type StepAnswer,
  type ThirdPartyInput,
  THIRD_PARTY_QUEUE,
} from '../contract.ts';
import { DEFAULT_HANDOVER_HOURS, MAX_HANDOVER_HOURS } from '../domain.ts';
import { findAssignment, findAssignmentById, findAssignTarget, type StoredAssignment } from '../repo/assignments.ts';
import { AssignmentView, presentAssignment } from '../views.ts';
import type { thirdPartyDeliveryWorkflow } from '../workflows.ts';

const TAG = 'Third-party deliveries';
/** How far ahead of this server's clock a warehouse scanner's clock may run, as for distribution scans. */
const CLOCK_SKEW_MS = 5 * 60_000;
export const assignmentNumberParam = z
  .string()
  .trim()
  .regex(/^TPA-[0-9]{8,10}$/, 'assignment number');
export const providerCode = z.string().trim().min(1).max(40);
export const deadlineHours = intParam(MAX_HANDOVER_HOURS)
  .optional()
  .describe(`Hours the warehouse has to hand every package over (default ${DEFAULT_HANDOVER_HOURS})`);
export const deadlineOf = (ctx: BusinessContext, hours: number | undefined) =>
  new Date(Date.now() + (hours ?? DEFAULT_HANDOVER_HOURS) * 3_600_000 * ctx.config.handoverTimerScale).toISOString();

export async function assignmentOr404(
  ctx: BusinessContext,
  owner: { businessId: number } | { providerId: number },
  number: string,
): Promise<StoredAssignment> {
  const found = await findAssignment(ctx.em, owner, number);
  if (!found) throw errors.notFound();
  return found;
}

/**
 * Sends a step to the assignment's process and answers the assignment, and a reassignment's new one: the process
 * answers its own snapshot, the API presents the rows with the status the step left. A handover that completes may
 * be followed at once by the assessment of tracking that came early (delivered); the answer still says what the
 * handover did. A step the status does not allow answers 409, a package not the order's 422.
 */
export async function sendStep(
  ctx: BusinessContext,
  a: StoredAssignment,
  send: (h: ReturnType<typeof ctx.temporal.workflow.getHandle>) => Promise<StepAnswer>,
): Promise<{ assignment: AssignmentView; next: AssignmentView | null }> {
  const owner = { businessId: a.business_id };
  const invalid = async () =>
    fail('INVALID_STEP', 'third_party.invalid_step', {
      status: (await findAssignment(ctx.em, owner, a.number))!.status,
    });
  const answer = await refusedAs(
    send(ctx.temporal.workflow.getHandle<typeof thirdPartyDeliveryWorkflow>(thirdPartyWorkflowId(a.id))),
    {
      [NOT_THE_ORDERS_PACKAGE]: () => errors.field('package_number', 'field.not_a_package_of_order'),
      [ASSIGNMENT_INVALID_STEP]: invalid,
      [PROCESS_GONE]: invalid,
    },
  );
  const next = answer.next && (await findAssignment(ctx.em, owner, answer.next.number));
  return {
    assignment: { ...presentAssignment((await findAssignmentById(ctx.em, a.id))!), status: answer.assignment.status },
    next: next ? presentAssignment(next) : null,
  };
}

/** Starts the assignment's process while its rows are written; they commit only once it has (writeOnceStarted). */
export async function startAssignment(
  ctx: BusinessContext,
  process: ThirdPartyInput,
  source: 'manual' | 'rule',
): Promise<StoredAssignment> {
  const started = ctx.temporal.workflow.start<typeof thirdPartyDeliveryWorkflow>(THIRD_PARTY_WORKFLOW, {
    workflowId: thirdPartyWorkflowId(process.id),
    taskQueue: THIRD_PARTY_QUEUE,
    args: [process],
    typedSearchAttributes: thirdPartySearchAttributes(process),
    ...NO_DUPLICATES,
  });
  return writeOnceStarted(
    ctx.em,
    started,
    async (tx) => {
      // Checked again under the order's lock: a hold, a cancellation or an interception may have committed since.
      const status = await lockOrderStatus(tx, process.orderId);
      if (status === null || !ASSIGNABLE_STATUS_IDS.includes(status))
        throw fail('ORDER_NOT_ASSIGNABLE', 'assignment.not_assignable_status');
      const written = await writeAssignment(tx, { ...process, source, createdBy: ctx.caller.id });
      // Another assignment of the order committed first.
      if (!written) throw fail('ORDER_HELD', 'assignment.carrier_held');
      return written;
    },
    ctx.log,
    'third-party assignment',
  );
}

export const thirdPartyAssign = defineOperation({
  name: 'third_party_assignment_create',
  summary:
    'Hand an order to a third-party delivery provider: it leaves the planning pool until the provider delivers it, cancels it, or the warehouse misses the handover deadline.',
  description:
    "Starts the assignment's process with a handover deadline (24 hours unless `handover_deadline_hours` says otherwise) and sends `delivery.assignment.created` to the provider's webhook endpoint. Use it for one order; third-party rules assign new orders as they are created. Refuses an order on a route (ORDER_ROUTED), not assignable (ORDER_NOT_ASSIGNABLE), held by a provider (ORDER_HELD) or with a contractor (ORDER_WITH_CONTRACTOR); an unknown order or provider code answers VALIDATION_FAILED.",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/third-party-assignments', status: 201 },
  failures: {
    ORDER_ROUTED: 'The order is on a route',
    ORDER_NOT_ASSIGNABLE: 'The order is not in an assignable status',
    ORDER_HELD: 'The order is held by a provider already',
    ORDER_WITH_CONTRACTOR: 'The order is assigned to a contractor',
  },
  graphql: { name: 'thirdPartyAssign', kind: 'mutation' },
  input: z
    .object({ order_id: intParam(), provider_code: providerCode, handover_deadline_hours: deadlineHours })
    .strict(),
  output: z.object({ result: z.literal(true), assignment: AssignmentView }),
  async handler(input, ctx) {
    const { businessId } = ctx.caller;
    const target = await findAssignTarget(ctx.em, businessId, input.order_id);
    const providerId = await findDeliveryProvider(ctx.em, input.provider_code);
    if (!target.order) throw errors.field('order_id', 'field.unknown_order');
    if (providerId === null) throw errors.field('provider_code', 'field.not_a_delivery_provider');
    if (target.order.onRoute) throw fail('ORDER_ROUTED', 'assignment.on_route');
    if (!ASSIGNABLE_STATUS_IDS.includes(target.order.statusId))
      throw fail('ORDER_NOT_ASSIGNABLE', 'assignment.not_assignable_status');
    if (target.order.held) throw fail('ORDER_HELD', 'assignment.carrier_held');
    if (target.order.contractorAssigned) throw fail('ORDER_WITH_CONTRACTOR', 'third_party.order_with_contractor');

    const process: ThirdPartyInput = {
      id: target.nextId,
      businessId,
      orderId: target.order.id,
      providerId,
      handoverDeadline: deadlineOf(ctx, input.handover_deadline_hours),
    };
    return { result: true as const, assignment: presentAssignment(await startAssignment(ctx, process, 'manual')) };
  },
});

export const thirdPartyAssignmentGet = defineOperation({
  name: 'third_party_assignment_get',
  summary: "A third-party assignment of the business: its status, provider and each package's handover.",
  description:
    "Answers the status, the provider, each package with when it was handed over, the legs the provider reported, the handover deadline, the cancel reason and the workflow id to open in the Temporal UI. For the business's staff; the provider reads its own with `provider_assignment_get`. An unknown number, or one of another business, answers NOT_FOUND.",
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/third-party-assignments/{number}' },
  failures: { NOT_FOUND: 'No assignment of the business has this number' },
  graphql: { name: 'thirdPartyAssignment', kind: 'query' },
  input: z.object({ number: assignmentNumberParam }).strict(),
  output: z.object({ result: z.literal(true), assignment: AssignmentView }),
  async handler(input, ctx) {
    return {
      result: true as const,
      assignment: presentAssignment(await assignmentOr404(ctx, { businessId: ctx.caller.businessId }, input.number)),
    };
  },
});

export const thirdPartyHandover = defineOperation({
  name: 'third_party_handover',
  summary:
    'The warehouse scans a package over to the provider; once every package of the order is, the assignment is handed over.',
  description:
    "Records one package as handed over at `scanned_at`; the same package again changes nothing. With the order's last package the assignment becomes `handed_over` and the provider receives `delivery.assignment.handed_over`. Refuses an assignment no longer awaiting packages (INVALID_STEP), a package not of the order or a `scanned_at` over 5 minutes ahead (VALIDATION_FAILED), and an unknown number (NOT_FOUND).",
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'POST', path: '/v1/third-party-assignments/{number}/handovers' },
  failures: {
    NOT_FOUND: 'No assignment of the business has this number',
    INVALID_STEP: 'The assignment is no longer awaiting its packages',
  },
  graphql: { name: 'thirdPartyHandover', kind: 'mutation' },
  input: z
    .object({
      number: assignmentNumberParam,
      package_number: z.string().trim().min(1).max(40),
      scanned_at: timeParam(),
    })
    .strict(),
  output: z.object({ result: z.literal(true), assignment: AssignmentView }),
  async handler(input, ctx) {
    if (Date.parse(input.scanned_at) > Date.now() + CLOCK_SKEW_MS)
      throw errors.field('scanned_at', 'field.recorded_in_future');
    const a = await assignmentOr404(ctx, { businessId: ctx.caller.businessId }, input.number);
    const args = {
      packageNumber: input.package_number,
      scannedAt: new Date(input.scanned_at).toISOString(),
      actorId: ctx.caller.id,
      actor: actorOf(ctx),
    };
    const answer = await sendStep(ctx, a, (h) => h.executeUpdate(handoverUpdate, { args: [args] }));
    return { result: true as const, assignment: answer.assignment };
  },
});

export const thirdPartyReassign = defineOperation({
  name: 'third_party_reassign',
  summary:
    'Until its last package is handed over, move the order to another provider: this assignment ends as reassigned and a new one starts.',
  description:
    "Allowed while the assignment is `assigned`, that is until its last package is handed over. The old provider receives `delivery.assignment.cancelled` (reason `reassigned`), the new one `delivery.assignment.created` with a fresh deadline, and the answer carries both assignments (`next` is the new one). Refuses an assignment handed over or ended (INVALID_STEP), an unknown number (NOT_FOUND) and a code that is not a delivery provider's (VALIDATION_FAILED).",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/third-party-assignments/{number}/reassign' },
  failures: {
    NOT_FOUND: 'No assignment of the business has this number',
    INVALID_STEP: 'Its last package was handed over already, or it has ended',
  },
  graphql: { name: 'thirdPartyReassign', kind: 'mutation' },
  input: z
    .object({ number: assignmentNumberParam, provider_code: providerCode, handover_deadline_hours: deadlineHours })
    .strict(),
  output: z.object({ result: z.literal(true), assignment: AssignmentView, next: AssignmentView }),
  async handler(input, ctx) {
    const a = await assignmentOr404(ctx, { businessId: ctx.caller.businessId }, input.number);
    const providerId = await findDeliveryProvider(ctx.em, input.provider_code);
    if (providerId === null) throw errors.field('provider_code', 'field.not_a_delivery_provider');
    const to = { providerId, handoverDeadline: deadlineOf(ctx, input.handover_deadline_hours) };
    const answer = await sendStep(ctx, a, (h) =>
      h.executeUpdate(cancelUpdate, { args: [{ reason: 'reassigned', actorId: ctx.caller.id, to }] }),
    );
    return { result: true as const, assignment: answer.assignment, next: answer.next! };
  },
});
