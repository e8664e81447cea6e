import { z } from 'zod';
import { recordPosition } from './repo.ts';
import { errors } from '../../platform/errors.ts';
import { timeParam } from '../../platform/catalog/schemas.ts';
import { defineOperation } from '../../platform/catalog/types.ts';

/** A device clock may run a little ahead; more than this is a wrong time, not a position. */
const CLOCK_SKEW_MS = 5 * 60_000;

export const driverLocationReport = defineOperation({
  name: 'driver_location_report',
  summary: 'A driver reports its current position.',
  description:
    "The service keeps the driver's newest position; a fix older than the one it holds changes nothing. It emits the driver.location_update webhook event at most once per the business's interval (`driver_location_min_interval_sec` of webhook_settings_update, 60 s by default), and `event_emitted` says whether this call did, so send every fix. Refuses a `recorded_at` more than 5 minutes ahead of the service's clock (VALIDATION_FAILED).",
  tag: 'Driver',
  roles: ['driver'],
  business: true,
  rest: { method: 'POST', path: '/v1/driver/location' },
  graphql: { name: 'driverLocationReport', kind: 'mutation' },
  mcp: { scope: 'drivers:write', risk: 'low' },
  input: z
    .object({
      lat: z.number().min(-90).max(90),
      lng: z.number().min(-180).max(180),
      heading: z.number().min(0).max(360).nullish(),
      speed: z.number().min(0).max(1000).nullish().describe('Metres per second.'),
      recorded_at: timeParam().optional().describe('When the device took the fix; now by default.'),
    })
    .strict(),
  output: z.object({
    result: z.literal(true),
    event_emitted: z.boolean().describe('False when the throttle held the event back or an older fix arrived late.'),
  }),
  async handler(input, ctx) {
    const { caller } = ctx;
    const recordedAt = input.recorded_at ? new Date(input.recorded_at) : new Date();
    if (recordedAt.getTime() > Date.now() + CLOCK_SKEW_MS)
      throw errors.field('recorded_at', 'field.recorded_in_future');
    const emitted = await recordPosition(ctx.em, {
      driverId: caller.id,
      businessId: caller.businessId,
      lat: input.lat,
      lng: input.lng,
      heading: input.heading ?? null,
      speed: input.speed ?? null,
      recordedAt,
    });
    return { result: true as const, event_emitted: emitted };
  },
});
