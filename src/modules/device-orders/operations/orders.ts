import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { z } from 'zod';
import { deviceCode } from '../../lockers/index.ts';
import {
  findDeviceId,
  findDeviceOrder,
  findPickupCodeHash,
  findStoreTarget,
  insertStoredDeviceOrder,
  listDeviceOrders,
} from '../repo/orders.ts';
import { recordPickupLock } from '../repo/exceptions.ts';
import {
  AWAITED_BY,
  DEVICE_ORDER_KINDS,
  DEVICE_ORDER_STATUSES,
  doorTimings,
  REMOVAL_REASONS,
  type DeviceOrderStatus,
} from '../domain.ts';
import { errors } from '../../../platform/errors.ts';
import { fail } from '../errorCodes.ts';
import { PROCESS_GONE, refusedAs } from '../../../platform/temporal/refusals.ts';
import { codeHashKey, hashPickupCode, newPickupCode, verifyPickupCode } from '../../../platform/secrets.ts';
import { secretKeys } from '../../../platform/secretBox.ts';
import { checkCode } from '../../../platform/codeChecks.ts';
import {
  collectUpdate,
  deviceOrderSearchAttributes,
  deviceOrderWorkflowId,
  removeUpdate,
  DEVICE_ORDER_WORKFLOW,
  INVALID_TRANSITION,
  type DeviceOrderInput,
  DEVICE_ORDER_QUEUE,
} from '../contract.ts';
import type { deviceOrderWorkflow } from '../workflows.ts';
import { NO_DUPLICATES } from '../../../platform/temporal/startOptions.ts';
import { writeOnceStarted } from '../../../platform/temporal/startWithRows.ts';
import {
  intParam,
  offsetOf,
  pageOf,
  pageOutput,
  pageParams,
  pathId,
  timeParam,
} from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { DeviceOrderView } from '../views.ts';

const TAG = 'Device Orders';
const STAFF_AND_DRIVERS = ['client_admin', 'employee', 'driver'] as const;

/** The business's device order, or 404. */
export async function loadOr404(ctx: BusinessContext, id: number): Promise<DeviceOrderView> {
  const view = await findDeviceOrder(ctx.em, ctx.caller.businessId, id);
  if (!view) throw errors.notFound();
  return view;
}

const invalidTransition = (status: DeviceOrderStatus, action: string) =>
  fail('INVALID_TRANSITION', 'device_order.invalid_transition', { status, action });

/** Sends an update to the device order's workflow; a refused or finished process answers 409. */
async function transition(
  ctx: BusinessContext,
  id: number,
  action: 'collect' | 'remove',
  send: (handle: ReturnType<typeof ctx.temporal.workflow.getHandle>) => Promise<unknown>,
): Promise<DeviceOrderView> {
  const handle = ctx.temporal.workflow.getHandle<typeof deviceOrderWorkflow>(deviceOrderWorkflowId(id));
  const invalid = async () => invalidTransition((await loadOr404(ctx, id)).status, action);
  await refusedAs(send(handle), { [INVALID_TRANSITION]: invalid, [PROCESS_GONE]: invalid });
  // The process answers its snapshot; the answer presents the row as the update left it.
  return loadOr404(ctx, id);
}

export const deviceOrderStore = defineOperation({
  name: 'device_order_store',
  summary: 'Store a parcel in a device compartment and start its device order process; answers the pickup code once.',
  description:
    "Use it when staff or a driver put a parcel in a locker of the business: `device_id` is the device code, `grid_code` the compartment, `due_at` (future) the deadline after which it turns overdue. The `pickup_code` is in this answer only; for kind `delivery` with an `order_id`, the order's recipient also gets it by mail. Emits `device_order.stored`. Not idempotent: a retry finds the compartment taken (COMPARTMENT_OCCUPIED); an unknown device, compartment or order is VALIDATION_FAILED.",
  tag: TAG,
  roles: STAFF_AND_DRIVERS,
  business: true,
  rest: { method: 'POST', path: '/v1/device-orders', status: 201 },
  failures: { COMPARTMENT_OCCUPIED: 'The compartment holds another parcel' },
  graphql: { name: 'deviceOrderStore', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'medium' },
  input: z
    .object({
      kind: z.enum(DEVICE_ORDER_KINDS),
      device_id: deviceCode,
      grid_code: z
        .string()
        .trim()
        .min(1)
        .max(32)
        .meta({ examples: ['A07'] }),
      reference_number: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .meta({ examples: ['PKG-20250312-0042'] }),
      order_id: intParam().nullish(),
      external_order_id: z.string().trim().max(100).nullish(),
      due_at: timeParam().meta({ examples: ['2030-01-15T18:00:00Z'] }),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    device_order: DeviceOrderView,
    pickup_code: z.string().meta({ examples: ['482913'] }),
  }),
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    const { device, compartmentId, orderKnown, nextId } = await findStoreTarget(
      ctx.em,
      businessId,
      input.device_id,
      input.grid_code,
      input.order_id ?? null,
    );
    if (!device) throw errors.field('device_id', 'field.unknown_device');
    if (compartmentId === null) throw errors.field('grid_code', 'field.unknown_grid');
    if (input.order_id != null && !orderKnown) throw errors.field('order_id', 'field.unknown_order');
    const dueAt = new Date(input.due_at);
    if (dueAt.getTime() <= Date.now()) throw errors.field('due_at', 'field.due_in_past');

    const id = nextId!;
    const pickupCode = newPickupCode();
    // A parcel awaited by the recipient of a linked order: the process mails them the code, whoever stored it and
    // however (an approved proposal keeps this answer with the code hidden, docs/mcp.md). Without an order the
    // service knows nobody to tell.
    const notifyRecipient = AWAITED_BY[input.kind] === 'recipient' && input.order_id != null;
    // The process starts while the rows are written; they commit only once it has (writeOnceStarted).
    const args: DeviceOrderInput = {
      id,
      businessId,
      dueAt: dueAt.toISOString(),
      ...doorTimings(ctx.config.lockerTimerScale),
      ...(notifyRecipient && { notifyRecipient, notifyRetryScale: ctx.config.notifyRetryScale }),
    };
    const started = ctx.temporal.workflow.start<typeof deviceOrderWorkflow>(DEVICE_ORDER_WORKFLOW, {
      workflowId: deviceOrderWorkflowId(id),
      taskQueue: DEVICE_ORDER_QUEUE,
      args: [args],
      typedSearchAttributes: deviceOrderSearchAttributes(businessId, device.code, input.order_id ?? null),
      ...NO_DUPLICATES,
    });
    try {
      const view = await writeOnceStarted(
        ctx.em,
        started,
        (tx) =>
          insertStoredDeviceOrder(tx, {
            id,
            businessId,
            kind: input.kind,
            device,
            gridCode: input.grid_code,
            compartmentId,
            referenceNumber: input.reference_number,
            orderId: input.order_id ?? null,
            externalOrderId: input.external_order_id ?? null,
            dueAt,
            pickupCodeHash: hashPickupCode(pickupCode, codeHashKey(secretKeys()[0]!)),
            pickupCode: notifyRecipient ? pickupCode : null,
          }),
        ctx.log,
        'device order',
      );
      return { result: true as const, device_order: view, pickup_code: pickupCode };
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException)
        throw fail('COMPARTMENT_OCCUPIED', 'device_order.compartment_occupied');
      throw err;
    }
  },
});

export const deviceOrderCollect = defineOperation({
  name: 'device_order_collect',
  summary: 'Collect a stored or overdue parcel with its pickup code.',
  description:
    "Use it when the parcel is handed to whoever holds its code: the compartment is freed and `device_order.collected` is emitted. A wrong code is VALIDATION_FAILED on `pickup_code`; 5 wrong codes for the parcel within 15 minutes, or 20 by the caller within an hour, lock collection (TOO_MANY_ATTEMPTS with Retry-After, even for the right code), and the parcel's lock opens a `pickup_code_locked` exception. Refuses a parcel already collected or removed (INVALID_TRANSITION).",
  tag: TAG,
  roles: ['client_admin', 'employee', 'driver', 'customer'],
  business: true,
  rest: { method: 'POST', path: '/v1/device-orders/{id}/collect' },
  failures: {
    NOT_FOUND: 'No such device order in the business',
    INVALID_TRANSITION: 'Not stored or overdue',
    TOO_MANY_ATTEMPTS: 'Collection locked after repeated wrong codes, even for the right code; see Retry-After',
  },
  graphql: { name: 'deviceOrderCollect', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'medium' },
  input: z
    .object({
      id: pathId,
      pickup_code: z
        .string()
        .trim()
        .min(1)
        .max(32)
        .meta({ examples: ['482913'] }),
    })
    .strict(),
  output: z.object({ result: z.literal(true), device_order: DeviceOrderView }),
  async handler(input, ctx) {
    const current = await loadOr404(ctx, input.id);
    if (current.status !== 'stored' && current.status !== 'overdue') throw invalidTransition(current.status, 'collect');
    const hash = await findPickupCodeHash(ctx.em, ctx.caller.businessId, input.id);
    const right = await checkCode(ctx.countsEm, {
      kind: 'pickup_code',
      subject: `device_order:${input.id}`,
      callerId: ctx.caller.id,
      // Every configured key: a code stored before a key rotation still opens its parcel.
      verify: () =>
        hash !== null && secretKeys().some((key) => verifyPickupCode(input.pickup_code, hash, codeHashKey(key))),
      onSubjectLocked: (tx) => recordPickupLock(tx, ctx.caller.businessId, input.id),
    });
    if (!right) throw errors.field('pickup_code', 'device_order.wrong_pickup_code');
    const view = await transition(ctx, input.id, 'collect', (h) =>
      h.executeUpdate(collectUpdate, { args: [{ actorId: ctx.caller.id }] }),
    );
    return { result: true as const, device_order: view };
  },
});

export const deviceOrderRemove = defineOperation({
  name: 'device_order_remove',
  summary: 'Staff remove a stored or overdue parcel from its compartment, with a reason.',
  description:
    'Use it when the parcel leaves without its pickup code, for example handed over in person (`handover`) or sent back once overdue (`overdue_return`); `removal_reason` names one of eight reasons. The compartment is freed, an open `overdue` exception closes, and `device_order.removed` is emitted. Refuses a parcel already collected or removed (INVALID_TRANSITION) and an id of another business (NOT_FOUND). With the code at hand, use device_order_collect.',
  tag: TAG,
  roles: ['client_admin', 'employee'],
  business: true,
  rest: { method: 'POST', path: '/v1/device-orders/{id}/remove' },
  failures: { NOT_FOUND: 'No such device order in the business', INVALID_TRANSITION: 'Its status allows no removal' },
  graphql: { name: 'deviceOrderRemove', kind: 'mutation' },
  mcp: { scope: 'orders:write', risk: 'high' },
  input: z.object({ id: pathId, removal_reason: z.enum(REMOVAL_REASONS) }).strict(),
  output: z.object({ result: z.literal(true), device_order: DeviceOrderView }),
  async handler(input, ctx) {
    await loadOr404(ctx, input.id);
    const view = await transition(ctx, input.id, 'remove', (h) =>
      h.executeUpdate(removeUpdate, { args: [{ removalReason: input.removal_reason, actorId: ctx.caller.id }] }),
    );
    return { result: true as const, device_order: view };
  },
});

export const deviceOrderGet = defineOperation({
  name: 'device_order_get',
  summary: 'Read one device order.',
  description:
    "Answers its status (`stored`, `overdue`, `collected`, `removed`), who must act next (`next_actor`), its device and compartment, its deadline and linked order, and the removal reason. The pickup code is never shown again: only the store's answer has it. Refuses an id of another business (NOT_FOUND). Use device_order_list to find orders by status or device, and device_order_exception_list for its exceptions.",
  tag: TAG,
  roles: STAFF_AND_DRIVERS,
  business: true,
  rest: { method: 'GET', path: '/v1/device-orders/{id}' },
  failures: { NOT_FOUND: 'No such device order in the business' },
  graphql: { name: 'deviceOrder', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low' },
  input: z.object({ id: pathId }).strict(),
  output: z.object({ result: z.literal(true), device_order: DeviceOrderView }),
  async handler(input, ctx) {
    return { result: true as const, device_order: await loadOr404(ctx, input.id) };
  },
});

export const deviceOrderList = defineOperation({
  name: 'device_order_list',
  summary: 'List device orders, newest first; filter by status or device.',
  description:
    'Paginated with `page` and `per_page` (at most 200); the answer carries `total`. `device_id` is the device code: one the business does not have answers an empty page, not an error. Filter on `status=overdue` for the parcels staff should chase, and use device_order_get to read one by id. Each item has the fields of device_order_get, never the pickup code.',
  tag: TAG,
  roles: STAFF_AND_DRIVERS,
  business: true,
  rest: { method: 'GET', path: '/v1/device-orders' },
  graphql: { name: 'deviceOrders', kind: 'query' },
  mcp: { scope: 'orders:read', risk: 'low' },
  input: z
    .object({
      status: z.enum(DEVICE_ORDER_STATUSES).optional(),
      device_id: z.string().max(64).optional(),
      ...pageParams,
    })
    .strict(),
  output: pageOutput('device_orders', DeviceOrderView),
  async handler(input, ctx) {
    const { caller } = ctx;
    let deviceId: number | undefined;
    if (input.device_id !== undefined) {
      deviceId = (await findDeviceId(ctx.em, caller.businessId, input.device_id)) ?? undefined;
      if (deviceId === undefined) return pageOf(input, 'device_orders', 0, []);
    }
    const { total, items } = await listDeviceOrders(ctx.em, {
      businessId: caller.businessId,
      status: input.status,
      deviceId,
      limit: input.per_page,
      offset: offsetOf(input),
    });
    return pageOf(input, 'device_orders', total, items);
  },
});
