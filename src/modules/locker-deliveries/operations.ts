import { randomInt } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { offsetOf, pageOf, pageOutput, pageParams, pathId } from '../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../platform/catalog/types.ts';
import { errors } from '../../platform/errors.ts';
import { secretKeys } from '../../platform/secretBox.ts';
import { codeHashKey, hashPickupCode } from '../../platform/secrets.ts';
import { NO_DUPLICATES } from '../../platform/temporal/startOptions.ts';
import { writeOnceStarted } from '../../platform/temporal/startWithRows.ts';
import { COMPARTMENT_SIZES } from '../lockers/index.ts';
import {
  cancelUpdate, LOCKER_DELIVERY_WORKFLOW, LOCKER_INVALID_TRANSITION, lockerDeliverySearchAttributes, lockerDeliveryWorkflowId, type LockerDeliveryInput,
} from './contract.ts';
import { LOCKER_DELIVERY_STATUSES, OPEN_MODES, type LockerDeliveryStatus } from './domain.ts';
import { findDeliveryTarget, findLockerDelivery, insertLockerDelivery, listLockerDeliveries } from './repo.ts';
import { LockerDeliveryView } from './views.ts';
import type { lockerDeliveryWorkflow } from './workflows.ts';

const TAG = 'Partner Locker';
const PROVIDER = ['locker_provider'] as const;

/** Delivery and pickup codes: 8 random digits. */
const newLockerCode = (): string => String(randomInt(0, 100_000_000)).padStart(8, '0');

async function loadOr404(ctx: BusinessContext, id: number): Promise<LockerDeliveryView> {
  const view = await findLockerDelivery(ctx.em, ctx.caller.businessId, id);
  if (!view) throw errors.notFound();
  return view;
}

const invalidTransition = (status: LockerDeliveryStatus, action: string) =>
  errors.conflict('INVALID_TRANSITION', 'locker_delivery.invalid_transition', { status, action });

const Parcel = z.object({ reference: z.string().trim().min(1).max(100), size: z.enum(COMPARTMENT_SIZES) }).strict();

export const lockerDeliveryCreate = defineOperation({
  name: 'locker_delivery_create',
  summary: "Deliver parcels into a partner business's locker: reserves one compartment per parcel, assigns the recipient's pickup code and starts the delivery process; answers the delivery code once (screen_code mode).",
  tag: TAG,
  roles: PROVIDER,
  business: true,
  rest: { method: 'POST', path: '/v1/partner-locker/deliveries', status: 201, failures: { 409: 'A compartment was taken meanwhile (COMPARTMENT_OCCUPIED); try again' } },
  input: z.object({
    device_id: z.string().trim().min(1).max(64),
    parcels: z.array(Parcel).min(1).max(20),
    recipient: z.object({ name: z.string().trim().min(1).max(200), phone: z.string().trim().min(3).max(32).optional(), email: z.email().max(254).optional() }).strict(),
    open_mode: z.enum(OPEN_MODES),
  }).strict(),
  output: z.object({ result: z.literal(true), delivery: LockerDeliveryView, delivery_code: z.string().optional().describe('The code the courier types on the locker screen (screen_code mode); shown once') }),
  async handler(input, ctx) {
    const seen = new Set<string>();
    const repeated = input.parcels.findIndex((p) => seen.size === seen.add(p.reference).size);
    if (repeated >= 0) throw errors.field(`parcels.${repeated}.reference`, 'locker_delivery.duplicate_reference');
    const providerId = ctx.caller.businessId;
    const { device, settings, nextId } = await findDeliveryTarget(ctx.em, providerId, input.device_id);
    if (!device) throw errors.field('device_id', 'field.unknown_device');

    const id = nextId!;
    const deliveryCode = input.open_mode === 'screen_code' ? newLockerCode() : null;
    const pickupCode = newLockerCode();
    const key = codeHashKey(secretKeys()[0]!);
    const deliveryCodeExpiresAt = new Date(Date.now() + settings.deliveryCodeTtlHours * 3_600_000);
    // The process starts while the rows are written; they commit only once it has (writeOnceStarted).
    const args: LockerDeliveryInput = { id, deliveryCodeExpiresAt: deliveryCodeExpiresAt.toISOString() };
    const started = ctx.temporal.workflow.start<typeof lockerDeliveryWorkflow>(LOCKER_DELIVERY_WORKFLOW, {
      workflowId: lockerDeliveryWorkflowId(id), taskQueue: ctx.config.taskQueue, args: [args],
      typedSearchAttributes: lockerDeliverySearchAttributes(device.businessId, providerId, device.code, input.parcels.map((p) => p.reference)),
      ...NO_DUPLICATES,
    });
    try {
      const delivery = await writeOnceStarted(ctx.em, started, async (tx) => {
        const made = await insertLockerDelivery(tx, {
          id, businessId: device.businessId, providerId, deviceId: device.id, openMode: input.open_mode,
          recipient: { name: input.recipient.name, phone: input.recipient.phone ?? null, email: input.recipient.email ?? null }, parcels: input.parcels,
          deliveryCodeHash: deliveryCode === null ? null : hashPickupCode(deliveryCode, key), pickupCodeHash: hashPickupCode(pickupCode, key), pickupCode,
          deliveryCodeExpiresAt, settings,
        });
        if ('noRoomFor' in made) throw errors.field(`parcels.${made.noRoomFor}.size`, 'locker_delivery.no_free_compartment', { size: input.parcels[made.noRoomFor]!.size });
        return made;
      }, ctx.log, 'locker delivery');
      return { result: true as const, delivery, ...(deliveryCode === null ? {} : { delivery_code: deliveryCode }) };
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) throw errors.conflict('COMPARTMENT_OCCUPIED', 'device_order.compartment_occupied');
      throw err;
    }
  },
});

export const lockerDeliveryGet = defineOperation({
  name: 'locker_delivery_get',
  summary: 'Read one of this provider account\'s locker deliveries.',
  tag: TAG,
  roles: PROVIDER,
  business: true,
  rest: { method: 'GET', path: '/v1/partner-locker/deliveries/{id}', failures: { 404: 'No such delivery of this provider' } },
  input: z.object({ id: pathId }).strict(),
  output: z.object({ result: z.literal(true), delivery: LockerDeliveryView }),
  async handler(input, ctx) {
    return { result: true as const, delivery: await loadOr404(ctx, input.id) };
  },
});

export const lockerDeliveryList = defineOperation({
  name: 'locker_delivery_list',
  summary: 'List this provider account\'s locker deliveries, newest first; filter by status.',
  tag: TAG,
  roles: PROVIDER,
  business: true,
  rest: { method: 'GET', path: '/v1/partner-locker/deliveries' },
  input: z.object({ status: z.enum(LOCKER_DELIVERY_STATUSES).optional(), ...pageParams }).strict(),
  output: pageOutput('deliveries', LockerDeliveryView),
  async handler(input, ctx) {
    const { total, items } = await listLockerDeliveries(ctx.em, { providerId: ctx.caller.businessId, status: input.status, limit: input.per_page, offset: offsetOf(input) });
    return pageOf(input, 'deliveries', total, items);
  },
});

export const lockerDeliveryCancel = defineOperation({
  name: 'locker_delivery_cancel',
  summary: 'Cancel a delivery before its deposit is confirmed; its compartments are freed.',
  tag: TAG,
  roles: PROVIDER,
  business: true,
  rest: { method: 'POST', path: '/v1/partner-locker/deliveries/{id}/cancel', failures: { 404: 'No such delivery of this provider', 409: 'Its status allows no cancel (INVALID_TRANSITION)' } },
  input: z.object({ id: pathId, reason: z.string().trim().min(1).max(500).optional() }).strict(),
  output: z.object({ result: z.literal(true), delivery: LockerDeliveryView }),
  async handler(input, ctx) {
    await loadOr404(ctx, input.id);
    const handle = ctx.temporal.workflow.getHandle<typeof lockerDeliveryWorkflow>(lockerDeliveryWorkflowId(input.id));
    try {
      const delivery = await handle.executeUpdate(cancelUpdate, { args: [{ reason: input.reason ?? null }] });
      return { result: true as const, delivery };
    } catch (err) {
      const refused = err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === LOCKER_INVALID_TRANSITION;
      if (refused || err instanceof WorkflowNotFoundError) throw invalidTransition((await loadOr404(ctx, input.id)).status, 'cancel');
      throw err;
    }
  },
});
