/**
 * Door reports of a locker, sent with its device key. The compartment keeps the newest report; a partner delivery
 * holding the compartment hears of it, which settles a remote-opened deposit, a deposit past its timeout and a
 * pickup (docs/locker-deliveries.md); a device order holding it, or the last one that held it, watches for a door
 * left open after its pickup (docs/device-order-exceptions.md).
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { z } from 'zod';
import { timeParam } from '../../platform/catalog/schemas.ts';
import { defineOperation } from '../../platform/catalog/types.ts';
import { errors } from '../../platform/errors.ts';
import { DOOR_STATES, recordDoorReport } from '../lockers/index.ts';
import { tellDeviceOrderOfDoor } from '../device-orders/index.ts';
import { doorSignal, lockerDeliveryWorkflowId } from './contract.ts';
import { deliveryOfParcel } from './repo/deliveries.ts';
import { ownDevice } from './updates.ts';

/** How far ahead of this service's clock a locker may date a report. */
const CLOCK_SKEW_MS = 5 * 60_000;

export const lockerDoorReported = defineOperation({
  name: 'locker_door_reported',
  summary:
    "A locker reports that a door opened or closed, sent with its device key and dated by the locker; a report older than the door's newest changes nothing (applied false).",
  tag: 'Lockers',
  roles: ['client_admin'],
  auth: 'device_key',
  business: true,
  rest: { method: 'POST', path: '/v1/lockers/{device_id}/doors', failures: { 404: 'Not the device of this key' } },
  input: z
    .object({
      device_id: z.string().trim().min(1).max(64),
      compartment_number: z.number().int().min(0).max(100_000).describe('Hardware door number'),
      state: z.enum(DOOR_STATES),
      at: timeParam().describe("When the door opened or closed, by the locker's clock"),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    applied: z.boolean().describe('False when the door already holds a newer report'),
  }),
  async handler(input, ctx) {
    const device = ownDevice(ctx.caller, input.device_id);
    const at = new Date(input.at);
    if (at.getTime() > Date.now() + CLOCK_SKEW_MS) throw errors.field('at', 'locker_delivery.door_report_ahead');
    const outcome = await recordDoorReport(ctx.em, device.id, input.compartment_number, input.state, at);
    if (!outcome) throw errors.field('compartment_number', 'locker_delivery.unknown_door');
    if (!outcome.applied) return { result: true as const, applied: false };
    const { occupant } = outcome;
    if (occupant === null || 'deviceOrderId' in occupant) {
      await tellDeviceOrderOfDoor(
        ctx.em,
        ctx.temporal,
        ctx.config,
        { id: outcome.compartmentId, deviceOrderId: occupant?.deviceOrderId ?? null },
        input.state,
      );
      return { result: true as const, applied: true };
    }
    const parcel = occupant.lockerParcelId;
    const deliveryId = await deliveryOfParcel(ctx.em, parcel);
    if (deliveryId !== null) {
      // A delivery that has ended meanwhile has no use for the report.
      await ctx.temporal.workflow
        .getHandle(lockerDeliveryWorkflowId(deliveryId))
        .signal(doorSignal, { compartmentNumber: input.compartment_number, state: input.state })
        .catch((err: unknown) => {
          if (!(err instanceof WorkflowNotFoundError)) throw err;
        });
    }
    return { result: true as const, applied: true };
  },
});
