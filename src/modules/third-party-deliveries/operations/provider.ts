/** A delivery provider reads the orders handed to it and reports a cancellation at its carrier. */
import { z } from 'zod';
import { offsetOf, pageOf, pageOutput, pageParams } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { cancelUpdate } from '../contract.ts';
import { ASSIGNMENT_STATUSES } from '../domain.ts';
import { assignmentNumberParam, assignmentOr404, sendStep } from './assignments.ts';
import { errors } from '../../../platform/errors.ts';
import { fail } from '../errorCodes.ts';
import { findAssignmentById, insertLeg, listProviderAssignments } from '../repo/assignments.ts';
import { AssignmentView, presentAssignment } from '../views.ts';

const TAG = 'Third-party deliveries (provider)';
const PROVIDER = ['delivery_provider'] as const;

export const providerAssignmentList = defineOperation({
  name: 'provider_assignment_list',
  summary: 'The orders handed to this provider, newest first, by status.',
  description:
    "For a delivery provider account: every assignment made to it, by any business, optionally of one `status`, paginated with `page` and `per_page` (at most 200). Use it to pick up new work (`assigned`) or to catch up after missed webhooks; `provider_assignment_get` reads one by its number. Another provider's assignments are never listed.",
  tag: TAG,
  roles: PROVIDER,
  business: true,
  rest: { method: 'GET', path: '/v1/provider/third-party-assignments' },
  graphql: { name: 'providerAssignments', kind: 'query' },
  input: z.object({ status: z.enum(ASSIGNMENT_STATUSES).optional(), ...pageParams }).strict(),
  output: pageOutput('assignments', AssignmentView),
  async handler(input, ctx) {
    const page = await listProviderAssignments(
      ctx.em,
      ctx.caller.businessId,
      input.status ?? null,
      input.per_page,
      offsetOf(input),
    );
    return pageOf(input, 'assignments', page.total, page.items.map(presentAssignment));
  },
});

export const providerAssignmentGet = defineOperation({
  name: 'provider_assignment_get',
  summary: 'One order handed to this provider.',
  description:
    "Answers the order's reference and tracking number, each package with its handover time, the legs reported so far, the deadline, the status and the cancel reason. Use it after a `delivery.assignment.*` webhook to see the whole state. An unknown number, or an assignment of another provider, answers NOT_FOUND.",
  tag: TAG,
  roles: PROVIDER,
  business: true,
  rest: { method: 'GET', path: '/v1/provider/third-party-assignments/{number}' },
  failures: { NOT_FOUND: 'No assignment of this provider has this number' },
  graphql: { name: 'providerAssignment', kind: 'query' },
  input: z.object({ number: assignmentNumberParam }).strict(),
  output: z.object({ result: z.literal(true), assignment: AssignmentView }),
  async handler(input, ctx) {
    return {
      result: true as const,
      assignment: presentAssignment(await assignmentOr404(ctx, { providerId: ctx.caller.businessId }, input.number)),
    };
  },
});

export const providerAssignmentCancel = defineOperation({
  name: 'provider_assignment_cancel',
  summary:
    "The provider reports the order cancelled at its carrier: the assignment ends (reason cancelled) and the order goes back to the business's own delivery.",
  description:
    "Use it when the carrier cannot take or finish the order; allowed while the assignment is `assigned`, `handed_over` or `partial_delivered`. The order leaves the provider's hold and the business can plan it, or hand it to a provider, again; `delivery.assignment.cancelled` (reason `cancelled`) goes to the provider's webhook endpoint. Refuses an assignment already delivered or cancelled (INVALID_STEP) and one of another provider (NOT_FOUND).",
  tag: TAG,
  roles: PROVIDER,
  business: true,
  rest: { method: 'POST', path: '/v1/provider/third-party-assignments/{number}/cancel' },
  failures: {
    NOT_FOUND: 'No assignment of this provider has this number',
    INVALID_STEP: 'The assignment has ended',
  },
  graphql: { name: 'providerAssignmentCancel', kind: 'mutation' },
  input: z.object({ number: assignmentNumberParam }).strict(),
  output: z.object({ result: z.literal(true), assignment: AssignmentView }),
  async handler(input, ctx) {
    const a = await assignmentOr404(ctx, { providerId: ctx.caller.businessId }, input.number);
    const answer = await sendStep(ctx, a, (h) =>
      h.executeUpdate(cancelUpdate, { args: [{ reason: 'cancelled', actorId: ctx.caller.id }] }),
    );
    return { result: true as const, assignment: answer.assignment };
  },
});

export const providerAssignmentLegCreate = defineOperation({
  name: 'provider_assignment_leg_create',
  summary:
    'The provider reports an order it placed with its carrier for some of the packages (a leg; one per package when that carrier has no multi-piece shipments).',
  description:
    "Report one leg per carrier order, with the packages it carries, so the business and the `delivery.assignment.partial_delivered` events show which carrier order holds each package; it emits no event itself. Only while the assignment is live. Refuses a carrier order number already on it (LEG_EXISTS), a package on another leg (PACKAGE_ON_LEG), an ended assignment (INVALID_STEP), another provider's (NOT_FOUND) and a package not of the order (VALIDATION_FAILED).",
  tag: TAG,
  roles: PROVIDER,
  business: true,
  rest: { method: 'POST', path: '/v1/provider/third-party-assignments/{number}/legs', status: 201 },
  failures: {
    NOT_FOUND: 'No assignment of this provider has this number',
    INVALID_STEP: 'The assignment has ended',
    LEG_EXISTS: 'The assignment has a leg of this carrier order number',
    PACKAGE_ON_LEG: 'A package is on another leg',
  },
  graphql: { name: 'providerAssignmentLegCreate', kind: 'mutation' },
  input: z
    .object({
      number: assignmentNumberParam,
      carrier_order_number: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$/, 'carrier order number'),
      package_numbers: z.array(z.string().trim().min(1).max(40)).min(1).max(50),
    })
    .strict(),
  output: z.object({ result: z.literal(true), assignment: AssignmentView }),
  async handler(input, ctx) {
    const a = await assignmentOr404(ctx, { providerId: ctx.caller.businessId }, input.number);
    const written = await ctx.em.transactional((tx) =>
      insertLeg(tx, a.id, input.carrier_order_number, input.package_numbers),
    );
    if (written === 'not_packages') throw errors.field('package_numbers', 'field.not_a_package_of_order');
    if (written === 'ended') throw fail('INVALID_STEP', 'third_party.invalid_step', { status: a.status });
    if (written === 'leg_exists') throw fail('LEG_EXISTS', 'third_party.leg_exists');
    if (written === 'package_on_leg') throw fail('PACKAGE_ON_LEG', 'third_party.package_on_leg');
    return { result: true as const, assignment: presentAssignment((await findAssignmentById(ctx.em, a.id))!) };
  },
});
