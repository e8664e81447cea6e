/**
 * Door reports of a locker, sent with its device key. The compartment keeps the newest report, and every module
 * with a process that may hold the compartment hears of it through the `doorReported` hook: a partner delivery
 * settles a deposit or a pickup (docs/locker-deliveries.md), a device order watches for a door left open after its
 * pickup (docs/device-order-exceptions.md). This module knows nothing of either.
 */
import { z } from 'zod';
import { deviceCode } from '../schemas.ts';
import { timeParam } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { errors } from '../../../platform/errors.ts';
import { hooksOf } from '../../../platform/hooks.ts';
import { DOOR_STATES, type DoorState } from '../domain.ts';
import { recordDoorReport, type Occupant } from '../repo/compartments.ts';

/** A door report that changed the compartment's door state, as the hooks hear of it. */
export interface DoorReported {
  compartmentId: number;
  compartmentNumber: number;
  state: DoorState;
  /** Who holds the compartment now; null when it is free (its last holder may still watch the door). */
  occupant: Occupant | null;
}

export type DoorReportedHook = (ctx: BusinessContext, report: DoorReported) => Promise<void>;

declare module '../../../platform/hooks.ts' {
  interface ModuleHooks {
    doorReported: DoorReportedHook;
  }
}

/** How far ahead of this service's clock a locker may date a report. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** The device of the caller's key, when it is the one in the path; 404 otherwise (a key opens only its own locker). */
export function ownDevice(
  caller: { device?: { id: number; code: string } },
  code: string,
): { id: number; code: string } {
  if (!caller.device || caller.device.code !== code) throw errors.notFound();
  return caller.device;
}

export const lockerDoorReported = defineOperation({
  name: 'locker_door_reported',
  summary: "A locker reports that one of its doors opened or closed, dated by the locker's clock.",
  description:
    "Called by the locker with its own device key. The compartment keeps the newest report, so a locker may resend reports out of order: one older than the door's newest changes nothing (`applied: false`). An applied report moves on the process holding the compartment (it settles a partner delivery's remote-opened deposit or its pickup). Refuses a door the locker does not have (VALIDATION_FAILED on `compartment_number`), a time more than 5 minutes ahead of the service's clock (on `at`) and a key of another locker (NOT_FOUND).",
  tag: 'Lockers',
  roles: ['client_admin'],
  auth: 'device_key',
  business: true,
  rest: { method: 'POST', path: '/v1/lockers/{device_id}/doors' },
  failures: { NOT_FOUND: 'Not the device of this key' },
  input: z
    .object({
      device_id: deviceCode,
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
    if (at.getTime() > Date.now() + CLOCK_SKEW_MS) throw errors.field('at', 'lockers.door_report_ahead');
    const outcome = await recordDoorReport(ctx.em, device.id, input.compartment_number, input.state, at);
    if (!outcome) throw errors.field('compartment_number', 'lockers.unknown_door');
    if (!outcome.applied) return { result: true as const, applied: false };
    const report: DoorReported = {
      compartmentId: outcome.compartmentId,
      compartmentNumber: input.compartment_number,
      state: input.state,
      occupant: outcome.occupant,
    };
    for (const hook of hooksOf('doorReported')) await hook(ctx, report);
    return { result: true as const, applied: true };
  },
});
