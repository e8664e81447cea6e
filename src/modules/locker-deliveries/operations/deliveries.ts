import { z } from 'zod';
import { offsetOf, pageOf, pageOutput, pageParams, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext, type Failures } from '../../../platform/catalog/types.ts';
import { errors } from '../../../platform/errors.ts';
import { NO_DUPLICATES } from '../../../platform/temporal/startOptions.ts';
import { writeOnceStarted } from '../../../platform/temporal/startWithRows.ts';
import { COMPARTMENT_SIZES, deviceCode } from '../../lockers/index.ts';
import {
  cancelUpdate,
  confirmUpdate,
  correctionUpdate,
  failUpdate,
  LOCKER_DELIVERY_WORKFLOW,
  rotateUpdate,
  lockerDeliverySearchAttributes,
  lockerDeliveryWorkflowId,
  openUpdate,
  type LockerDeliveryInput,
  LOCKER_DELIVERY_QUEUE,
} from '../contract.ts';
import { FAILURE_CODES, LOCKER_DELIVERY_STATUSES, OPEN_MODES } from '../domain.ts';
import { tagLockerCode } from '../codes.ts';
import {
  deviceOfDelivery,
  drawFreeCodes,
  drawUnusedCode,
  findDeliveryTarget,
  insertLockerDelivery,
  listLockerDeliveries,
} from '../repo/deliveries.ts';
import { DeliveryResult, loadDelivery, sendUpdate } from '../updates.ts';
import { LockerDeliveryView } from '../views.ts';
import type { lockerDeliveryWorkflow } from '../workflows.ts';

const TAG = 'Partner Locker';
/** On a sandbox locker, how long a door the simulator opened stays open before it reports it closed. */
const SIMULATED_DOOR_SECONDS = 5;
const PROVIDER = ['locker_provider'] as const;

const loadOr404 = (ctx: BusinessContext, id: number) => loadDelivery(ctx, { providerId: ctx.caller.businessId }, id);

const Parcel = z.object({ reference: z.string().trim().min(1).max(100), size: z.enum(COMPARTMENT_SIZES) }).strict();

export const lockerDeliveryCreate = defineOperation({
  name: 'locker_delivery_create',
  summary:
    "Deliver parcels into a partner business's locker: reserves a compartment per parcel and starts the delivery process.",
  description:
    "`device_id` is a locker of a business that granted this provider (partner_locker_list). With `open_mode` `screen_code` the answer carries the courier's `delivery_code`, shown once; with `remote_open` the provider opens the doors with locker_delivery_open. The recipient's pickup code is mailed at confirmation. Not idempotent: a retry makes a second delivery. An unknown locker, a repeated reference or a size without a free compartment is VALIDATION_FAILED.",
  tag: TAG,
  roles: PROVIDER,
  business: true,
  rest: { method: 'POST', path: '/v1/partner-locker/deliveries', status: 201 },
  input: z
    .object({
      device_id: deviceCode,
      parcels: z.array(Parcel).min(1).max(20),
      recipient: z
        .object({
          name: z
            .string()
            .trim()
            .min(1)
            .max(200)
            .meta({ examples: ['Jana Novakova'] }),
          phone: z.string().trim().min(3).max(32).optional(),
          email: z.email().max(254).optional(),
        })
        .strict(),
      open_mode: z.enum(OPEN_MODES),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    delivery: LockerDeliveryView,
    delivery_code: z
      .string()
      .optional()
      .describe('The code the courier types on the locker screen (screen_code mode); shown once'),
  }),
  async handler(input, ctx) {
    const seen = new Set<string>();
    const repeated = input.parcels.findIndex((p) => seen.size === seen.add(p.reference).size);
    if (repeated >= 0) throw errors.field(`parcels.${repeated}.reference`, 'locker_delivery.duplicate_reference');
    const providerId = ctx.caller.businessId;
    const { device, settings, nextId } = await findDeliveryTarget(ctx.em, providerId, input.device_id);
    if (!device) throw errors.field('device_id', 'locker_delivery.unknown_locker');

    const id = nextId!;
    const scale = ctx.config.lockerTimerScale;
    const deliveryCodeExpiresAt = new Date(Date.now() + settings.delivery_code_ttl_hours * 3600_000 * scale);
    const timers = {
      depositTimeout: settings.deposit_timeout_minutes * 60 * scale,
      pickupTtl: settings.pickup_ttl_hours * 3600 * scale,
      correctionWindow: settings.correction_window_minutes * 60 * scale,
      codeRotation: settings.code_rotation_hours * 3600 * scale,
    };
    // The process starts while the rows are written; they commit only once it has (writeOnceStarted).
    const args: LockerDeliveryInput = {
      id,
      deliveryCodeExpiresAt: deliveryCodeExpiresAt.toISOString(),
      openMode: input.open_mode,
      depositTimeoutMs: timers.depositTimeout * 1000,
      correctionWindowMs: timers.correctionWindow * 1000,
      notifyRetryScale: ctx.config.notifyRetryScale,
      codeRotationMs: timers.codeRotation * 1000,
      simulatedDoorsMs: device.sandbox ? SIMULATED_DOOR_SECONDS * 1000 * scale : null,
    };
    const started = ctx.temporal.workflow.start<typeof lockerDeliveryWorkflow>(LOCKER_DELIVERY_WORKFLOW, {
      workflowId: lockerDeliveryWorkflowId(id),
      taskQueue: LOCKER_DELIVERY_QUEUE,
      args: [args],
      typedSearchAttributes: lockerDeliverySearchAttributes(
        device.businessId,
        providerId,
        device.code,
        input.parcels.map((p) => p.reference),
      ),
      ...NO_DUPLICATES,
    });
    let deliveryCode = null as string | null;
    const delivery = await writeOnceStarted(
      ctx.em,
      started,
      async (tx) => {
        // Codes the locker's screen does not take yet, neither now nor once its other deposits are confirmed.
        const codes = await drawFreeCodes(tx, device.id, input.open_mode === 'screen_code' ? 2 : 1);
        const pickupCode = codes[0]!;
        deliveryCode = codes[1] ?? null;
        const made = await insertLockerDelivery(tx, {
          id,
          businessId: device.businessId,
          providerId,
          deviceId: device.id,
          livemode: !device.sandbox,
          openMode: input.open_mode,
          recipient: {
            name: input.recipient.name,
            phone: input.recipient.phone ?? null,
            email: input.recipient.email ?? null,
          },
          parcels: input.parcels,
          deliveryCodeHash: deliveryCode === null ? null : tagLockerCode(device.id, deliveryCode),
          pickupCodeHash: tagLockerCode(device.id, pickupCode),
          pickupCode,
          deliveryCodeExpiresAt,
          timers,
        });
        if ('noRoomFor' in made)
          throw errors.field(`parcels.${made.noRoomFor}.size`, 'locker_delivery.no_free_compartment', {
            size: input.parcels[made.noRoomFor]!.size,
          });
        return made;
      },
      ctx.log,
      'locker delivery',
    );
    return { result: true as const, delivery, ...(deliveryCode === null ? {} : { delivery_code: deliveryCode }) };
  },
});

export const lockerDeliveryGet = defineOperation({
  name: 'locker_delivery_get',
  summary: "Read one of this provider account's locker deliveries.",
  description:
    'Answers its status (`awaiting_deposit`, `depositing`, `delivered`, `picked_up`, `failed`, `expired`, `cancelled`), parcels with their compartments, recipient and expiry times; never a code. Poll it when a webhook was missed; the `partner_locker.*` events carry the same changes as they happen. Refuses a delivery of another provider (NOT_FOUND).',
  tag: TAG,
  roles: PROVIDER,
  business: true,
  rest: { method: 'GET', path: '/v1/partner-locker/deliveries/{id}' },
  failures: { NOT_FOUND: 'No such delivery of this provider' },
  input: z.object({ id: pathId }).strict(),
  output: DeliveryResult,
  async handler(input, ctx) {
    return { result: true as const, delivery: await loadOr404(ctx, input.id) };
  },
});

export const lockerDeliveryList = defineOperation({
  name: 'locker_delivery_list',
  summary: "List this provider account's locker deliveries, newest first; filter by status.",
  description:
    'Paginated with `page` and `per_page` (at most 200), with `total`; filter on `status`, for example `delivered` for parcels still waiting for their recipient. Sandbox deliveries are listed with the live ones. Each item is what locker_delivery_get answers, never a code.',
  tag: TAG,
  roles: PROVIDER,
  business: true,
  rest: { method: 'GET', path: '/v1/partner-locker/deliveries' },
  input: z.object({ status: z.enum(LOCKER_DELIVERY_STATUSES).optional(), ...pageParams }).strict(),
  output: pageOutput('deliveries', LockerDeliveryView),
  async handler(input, ctx) {
    const { total, items } = await listLockerDeliveries(ctx.em, {
      owner: { providerId: ctx.caller.businessId },
      status: input.status,
      limit: input.per_page,
      offset: offsetOf(input),
    });
    return pageOf(input, 'deliveries', total, items);
  },
});

const updateOperation = (name: string, action: string, summary: string, description: string, failures: Failures) => ({
  name,
  summary,
  description,
  tag: TAG,
  roles: PROVIDER,
  business: true as const,
  rest: { method: 'POST' as const, path: `/v1/partner-locker/deliveries/{id}/${action}` },
  failures: { NOT_FOUND: 'No such delivery of this provider', ...failures },
  output: DeliveryResult,
});

export const lockerDeliveryOpen = defineOperation({
  ...updateOperation(
    'locker_delivery_open',
    'open',
    "Open the delivery's doors remotely for the deposit, or open them again while it is under way.",
    'Use it for `remote_open` deliveries once the courier is at the locker, or to reopen doors during a deposit; a screen-code delivery may use it too. The delivery becomes `depositing` and `partner_locker.delivery.doors_opened` is sent; when every door opened this way reports closed, the deposit settles by itself (`door_close`). Refuses a delivery already confirmed or ended (INVALID_TRANSITION) and one of another provider (NOT_FOUND).',
    { INVALID_TRANSITION: 'Not awaiting or under deposit' },
  ),
  input: z.object({ id: pathId }).strict(),
  handler: (input, ctx) =>
    sendUpdate(ctx, { providerId: ctx.caller.businessId }, input.id, 'open', (h) =>
      h.executeUpdate(openUpdate, { args: [{ via: 'remote_open' }] }),
    ),
});

export const lockerDeliveryConfirm = defineOperation({
  ...updateOperation(
    'locker_delivery_confirm',
    'confirm',
    "Confirm the deposit (confirmed_by partner_api): the recipient's pickup code works from now on.",
    'Use it when the courier reports the parcels in and the locker has not settled the deposit by itself. The recipient is mailed the pickup code and `partner_locker.delivery.delivered` is sent; the correction window and the pickup expiry start. Refuses a delivery that is not `depositing` (INVALID_TRANSITION): doors never opened, or already confirmed or ended. A delivery of another provider is NOT_FOUND.',
    { INVALID_TRANSITION: 'No deposit under way' },
  ),
  input: z.object({ id: pathId }).strict(),
  handler: (input, ctx) =>
    sendUpdate(ctx, { providerId: ctx.caller.businessId }, input.id, 'confirm', (h) =>
      h.executeUpdate(confirmUpdate, { args: [{ by: 'partner_api' }] }),
    ),
});

export const lockerDeliveryCancel = defineOperation({
  ...updateOperation(
    'locker_delivery_cancel',
    'cancel',
    'Cancel a delivery before its deposit is confirmed; its compartments are freed.',
    "Use it when the delivery will not happen for a reason of the provider's own, with an optional `reason` up to 500 characters; for parcels that could not be delivered, report locker_delivery_fail with a code per parcel instead. Sends `partner_locker.delivery.cancelled`. Refuses a delivery already confirmed or ended (INVALID_TRANSITION): once delivered, the parcels wait in the locker for their recipient or their expiry.",
    { INVALID_TRANSITION: 'Its deposit is confirmed or it has ended' },
  ),
  input: z.object({ id: pathId, reason: z.string().trim().min(1).max(500).optional() }).strict(),
  handler: (input, ctx) =>
    sendUpdate(ctx, { providerId: ctx.caller.businessId }, input.id, 'cancel', (h) =>
      h.executeUpdate(cancelUpdate, { args: [{ reason: input.reason ?? null }] }),
    ),
});

export const lockerDeliveryFail = defineOperation({
  ...updateOperation(
    'locker_delivery_fail',
    'fail',
    'Report that the delivery failed, with a failure code per parcel; its compartments are freed.',
    "Use it when the courier could not deposit (`parcel_damaged`, `parcel_too_large`, `compartment_unusable`, `recipient_refused`, `address_mismatch`, `other`); parcels left unnamed carry no code. Sends `partner_locker.delivery.failed` listing every parcel. Each reference must be one of the delivery's parcels, named once (VALIDATION_FAILED otherwise). Refuses a delivery already confirmed or ended (INVALID_TRANSITION).",
    { INVALID_TRANSITION: 'Its deposit is confirmed or it has ended' },
  ),
  input: z
    .object({
      id: pathId,
      parcels: z
        .array(z.object({ reference: z.string().trim().min(1).max(100), code: z.enum(FAILURE_CODES) }).strict())
        .min(1)
        .max(20),
    })
    .strict(),
  async handler(input, ctx) {
    const owner = { providerId: ctx.caller.businessId };
    const { parcels } = await loadDelivery(ctx, owner, input.id);
    const seen = new Set<string>();
    input.parcels.forEach((p, i) => {
      if (!parcels.some((x) => x.reference === p.reference))
        throw errors.field(`parcels.${i}.reference`, 'locker_delivery.unknown_parcel');
      if (seen.size === seen.add(p.reference).size)
        throw errors.field(`parcels.${i}.reference`, 'locker_delivery.duplicate_reference');
    });
    return sendUpdate(ctx, owner, input.id, 'fail', (h) =>
      h.executeUpdate(failUpdate, { args: [{ parcels: input.parcels }] }),
    );
  },
});

export const lockerDeliveryCorrection = defineOperation({
  ...updateOperation(
    'locker_delivery_correction',
    'correction',
    'Reopen compartments of a delivered deposit inside the correction window, before the recipient has opened them.',
    "Use it when the courier must fix a deposit just confirmed (a parcel in the wrong door). The status and delivery time stay; `partner_locker.delivery.correction_reopened` is sent. `compartment_numbers` must hold the delivery's parcels (VALIDATION_FAILED otherwise). Refuses a delivery that is not `delivered` (INVALID_TRANSITION) and one whose window has passed or whose recipient has opened the doors (CORRECTION_WINDOW_CLOSED).",
    {
      CORRECTION_WINDOW_CLOSED: 'The correction window has closed or the recipient has opened the doors',
      INVALID_TRANSITION: 'It is not delivered',
    },
  ),
  input: z
    .object({ id: pathId, compartment_numbers: z.array(z.number().int().min(0).max(100_000)).min(1).max(20) })
    .strict(),
  async handler(input, ctx) {
    const owner = { providerId: ctx.caller.businessId };
    const { parcels } = await loadDelivery(ctx, owner, input.id);
    const numbers = [...new Set(input.compartment_numbers)];
    const stranger = input.compartment_numbers.findIndex((n) => !parcels.some((p) => p.compartment_number === n));
    if (stranger >= 0) throw errors.field(`compartment_numbers.${stranger}`, 'locker_delivery.not_its_compartment');
    return sendUpdate(ctx, owner, input.id, 'correction', (h) =>
      h.executeUpdate(correctionUpdate, { args: [{ compartmentNumbers: numbers }] }),
    );
  },
});

export const lockerDeliveryRotateCode = defineOperation({
  ...updateOperation(
    'locker_delivery_rotate_code',
    'rotate-code',
    "Replace the delivery code or the recipient's pickup code; the old code stops working at once.",
    'A new delivery code is in this answer only, for the courier (`screen_code` deliveries only, VALIDATION_FAILED otherwise). A new pickup code goes only to the recipient, by mail when `notify_recipient` and the deposit is confirmed. Sends `partner_locker.delivery.code_rotated`, carrying neither code. Refuses a delivery code after the deposit, or a pickup code once the recipient opened the doors or it ended (INVALID_TRANSITION).',
    { INVALID_TRANSITION: 'A delivery code after the deposit, or a pickup code once collected or ended' },
  ),
  input: z
    .object({
      id: pathId,
      code: z.enum(['delivery', 'pickup']).describe('Which code to replace'),
      notify_recipient: z
        .boolean()
        .default(true)
        .describe(
          'Send the recipient the new pickup code (only once the deposit is confirmed: before that the recipient has none yet)',
        ),
    })
    .strict(),
  output: DeliveryResult.extend({
    delivery_code: z.string().optional().describe('The new delivery code (code delivery); shown once'),
  }),
  async handler(input, ctx) {
    const owner = { providerId: ctx.caller.businessId };
    const delivery = await loadDelivery(ctx, owner, input.id);
    if (input.code === 'delivery' && delivery.open_mode !== 'screen_code')
      throw errors.field('code', 'locker_delivery.no_delivery_code');
    // The courier's new code is drawn here, as it is shown in this answer; the process gets only its tag.
    const deviceId = input.code === 'delivery' ? await deviceOfDelivery(ctx.em, delivery.id) : null;
    const deliveryCode = deviceId === null ? null : await drawUnusedCode(ctx.em, deviceId);
    const rotated = await sendUpdate(ctx, owner, input.id, 'rotate-code', (h) =>
      h.executeUpdate(rotateUpdate, {
        args: [
          {
            code: input.code === 'delivery' ? 'delivery_code' : 'pickup_code',
            deliveryCodeHash: deliveryCode === null ? null : tagLockerCode(deviceId!, deliveryCode),
            notifyRecipient: input.notify_recipient,
          },
        ],
      }),
    );
    return { ...rotated, ...(deliveryCode === null ? {} : { delivery_code: deliveryCode }) };
  },
});
