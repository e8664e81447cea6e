import { z } from 'zod';
import { STAFF } from '../../../platform/roles.ts';
import { errors, AppError } from '../../../platform/errors.ts';
import { hashPassword } from '../../../platform/secrets.ts';
import { emailParam, offsetOf, pageOf, pageOutput, pageParams, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { canDecide, DECISIONS, DRIVER_STATUSES, type Decision } from '../domain.ts';
import { fail } from '../errorCodes.ts';
import { presentDrivers, profileChange } from '../profile.ts';
import {
  driverRow,
  driverRows,
  insertDriver,
  lockDriver,
  revokeSessions,
  setStatus,
  updateProfile,
} from '../repo/drivers.ts';
import { changeDuty } from '../repo/duty.ts';
import { Driver, driverName, profileFields } from '../views.ts';

const TAG = 'DriverInfo';
const ADMIN = ['client_admin'] as const;
const driverOutput = z.object({ result: z.literal(true), driver: Driver });

/** The driver as the API shows it, read after the change. */
async function answer(ctx: BusinessContext, driverId: number) {
  const row = await driverRow(ctx.em, ctx.caller.businessId, driverId);
  if (!row) throw errors.notFound();
  const [driver] = await presentDrivers(ctx.em, ctx.caller.businessId, [row]);
  return { result: true as const, driver: driver! };
}

export const driverList = defineOperation({
  name: 'get_drivers',
  summary: "List the business's drivers with their status, duty, newest position and what planning reads.",
  description:
    "Each driver with its status (pending, active, rejected, suspended), whether it is on duty, its newest reported position, capacity, skills, shift, breaks, depot and max_route_minutes. Filter by `status` and `on_duty`; 50 a page by default (`page`, `per_page` up to 200) with the `total`, by id. Only the caller's business's drivers.",
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/drivers' },
  graphql: { name: 'drivers', kind: 'query' },
  mcp: { scope: 'drivers:read', risk: 'low' },
  input: z
    .object({
      status: z.enum(DRIVER_STATUSES).optional(),
      on_duty: z.enum(['true', 'false']).optional().describe('true: only drivers on duty; false: only those off duty'),
      ...pageParams,
    })
    .strict(),
  output: pageOutput('drivers', Driver),
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    const { total, rows } = await driverRows(
      ctx.em,
      businessId,
      { status: input.status, onDuty: input.on_duty === undefined ? undefined : input.on_duty === 'true' },
      { limit: input.per_page, offset: offsetOf(input) },
    );
    return pageOf(input, 'drivers', total, await presentDrivers(ctx.em, businessId, rows));
  },
});

export const driverGet = defineOperation({
  name: 'driver_get',
  summary: 'Read one driver of the business.',
  description: 'The driver as get_drivers shows it. NOT_FOUND for an id that is not a driver of the caller’s business.',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/drivers/{id}' },
  graphql: { name: 'driver', kind: 'query' },
  failures: { NOT_FOUND: true },
  input: z.object({ id: pathId }).strict(),
  output: driverOutput,
  handler: (input, ctx) => answer(ctx, input.id),
});

export const driverCreate = defineOperation({
  name: 'driver_create',
  summary: 'Create a driver account with an active driver record.',
  description:
    'The driver signs in with this email and password (8 to 1024 characters) at once. Every driver field is optional: capacity (each measure null for no limit), skills, shift (HH:MM in the business’s timezone), up to 3 breaks inside the shift, depot, max_route_minutes, vehicle and phone (international form). EMAIL_TAKEN (409) when an account has the email; VALIDATION_FAILED names a field that is not right, such as a break outside the shift.',
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'POST', path: '/v1/drivers', status: 201 },
  graphql: { name: 'driverCreate', kind: 'mutation' },
  failures: { EMAIL_TAKEN: 'An account has the email already' },
  input: z
    .object({
      name: driverName,
      email: emailParam().toLowerCase(),
      password: z.string().min(8).max(1024),
      ...profileFields,
    })
    .strict(),
  output: driverOutput,
  async handler(input, ctx) {
    const { name, email, password, ...fields } = input;
    const change = profileChange(fields, null);
    const passwordHash = await hashPassword(password);
    const id = await ctx.em.transactional(async (tx) => {
      const created = await insertDriver(tx, {
        businessId: ctx.caller.businessId,
        email,
        name,
        passwordHash,
        status: 'active',
      });
      if (created === null) throw new AppError(409, 'EMAIL_TAKEN', 'drivers.email_taken');
      await updateProfile(tx, created, change);
      return created;
    });
    return answer(ctx, id);
  },
});

export const driverUpdate = defineOperation({
  name: 'driver_update',
  summary: "Change a driver's record: capacity, skills, shift, breaks, depot, max_route_minutes, vehicle, phone.",
  description:
    'Only the fields sent change; null clears a field (no limit, the whole day, the business’s depot). Within `capacity`, a measure left out keeps its value. Breaks (up to 3) must lie inside the shift, whether the shift is sent or kept. NOT_FOUND for an id that is not a driver of the caller’s business.',
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'PUT', path: '/v1/drivers/{id}' },
  graphql: { name: 'driverUpdate', kind: 'mutation' },
  failures: { NOT_FOUND: true },
  input: z.object({ id: pathId, ...profileFields }).strict(),
  output: driverOutput,
  async handler({ id, ...fields }, ctx) {
    await ctx.em.transactional(async (tx) => {
      const current = await lockDriver(tx, ctx.caller.businessId, id);
      if (!current) throw errors.notFound();
      await updateProfile(tx, id, profileChange(fields, current));
    });
    return answer(ctx, id);
  },
});

/**
 * A decision on a driver record, in one transaction: the status, and for a suspension its sessions revoked and,
 * when it was on duty, off duty with driver.on_duty_changed.
 */
async function decide(ctx: BusinessContext, id: number, decision: Decision, reason: string | null) {
  await ctx.em.transactional(async (tx) => {
    const current = await lockDriver(tx, ctx.caller.businessId, id);
    if (!current) throw errors.notFound();
    if (!canDecide(decision, current.status))
      throw fail('DRIVER_STATUS_CONFLICT', 'drivers.status_conflict', { status: current.status });
    await setStatus(tx, id, { status: DECISIONS[decision].to, decidedBy: ctx.caller.id, reason });
    if (decision === 'suspend') {
      await revokeSessions(tx, id);
      if (current.on_duty) await changeDuty(tx, ctx.caller.businessId, id, false);
    }
  });
  // Sessions are cached: this process forgets at once, the others hear of it from PostgreSQL.
  if (decision === 'suspend') ctx.reads.changed();
  return answer(ctx, id);
}

const decisionCommon = {
  tag: TAG,
  roles: ADMIN,
  business: true,
  failures: { NOT_FOUND: true, DRIVER_STATUS_CONFLICT: true },
  output: driverOutput,
} as const;

/** A decision's reason: not only blanks, which the service trims to nothing (the published schema says so too). */
const reasonText = z.string().trim().min(1).max(500);

export const driverApprove = defineOperation({
  ...decisionCommon,
  name: 'driver_approve',
  summary: 'Approve a driver: it may sign in, be planned and be offered orders.',
  description:
    'Takes a pending driver (registered itself), or a rejected or suspended one back. DRIVER_STATUS_CONFLICT (409) for a driver active already.',
  rest: { method: 'POST', path: '/v1/drivers/{id}/approve' },
  graphql: { name: 'driverApprove', kind: 'mutation' },
  input: z.object({ id: pathId }).strict(),
  handler: (input, ctx) => decide(ctx, input.id, 'approve', null),
});

export const driverReject = defineOperation({
  ...decisionCommon,
  name: 'driver_reject',
  summary: 'Reject a pending driver, with a reason.',
  description:
    'The driver stays unable to sign in; approve takes it back later. DRIVER_STATUS_CONFLICT (409) for a driver that is not pending.',
  rest: { method: 'POST', path: '/v1/drivers/{id}/reject' },
  graphql: { name: 'driverReject', kind: 'mutation' },
  input: z.object({ id: pathId, reason: reasonText }).strict(),
  handler: (input, ctx) => decide(ctx, input.id, 'reject', input.reason),
});

export const driverSuspend = defineOperation({
  ...decisionCommon,
  name: 'driver_suspend',
  summary: 'Suspend a driver: its sessions end at once and it cannot sign in until approved again.',
  description:
    'Revokes every session of the driver; a driver on duty goes off duty (driver.on_duty_changed). DRIVER_STATUS_CONFLICT (409) for a driver rejected or suspended already.',
  rest: { method: 'POST', path: '/v1/drivers/{id}/suspend' },
  graphql: { name: 'driverSuspend', kind: 'mutation' },
  input: z.object({ id: pathId, reason: reasonText.optional() }).strict(),
  handler: (input, ctx) => decide(ctx, input.id, 'suspend', input.reason ?? null),
});
