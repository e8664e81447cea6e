import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { insertOutboxEvent } from '../../platform/db/outbox.ts';
import { errors } from '../../platform/errors.ts';
import { businessOf } from '../../platform/catalog/run.ts';
import { defineOperation } from '../../platform/catalog/types.ts';

/** A device clock may run a little ahead; more than this is a wrong time, not a position. */
const CLOCK_SKEW_MS = 5 * 60_000;

export const driverLocationReport = defineOperation({
  name: 'driver_location_report',
  summary: 'A driver reports a position; driver.location_update is produced at most once per driver_location_min_interval_sec.',
  tag: 'Driver',
  roles: ['driver'],
  rest: { method: 'POST', path: '/v1/driver/location' },
  graphql: { name: 'driverLocationReport', kind: 'mutation' },
  mcp: { scope: 'drivers:write', risk: 'low' },
  input: z.object({
    lat: z.number().min(-90).max(90),
    lng: z.number().min(-180).max(180),
    heading: z.number().min(0).max(360).nullish(),
    speed: z.number().min(0).max(1000).nullish().describe('Metres per second.'),
    recorded_at: z.iso.datetime({ offset: true }).optional().describe('When the device took the fix; now by default.'),
  }).strict(),
  output: z.object({
    result: z.literal(true),
    event_emitted: z.boolean().describe('False when the throttle held the event back or an older fix arrived late.'),
  }),
  async handler(input, ctx) {
    const { caller } = businessOf(ctx);
    const recordedAt = input.recorded_at ? new Date(input.recorded_at) : new Date();
    if (recordedAt.getTime() > Date.now() + CLOCK_SKEW_MS) throw errors.field('recorded_at', 'field.recorded_in_future');
    const emitted = await ctx.em.transactional(async (tx) => {
      // One statement keeps the newest fix and takes the throttle slot only when the merchant's interval has
      // passed; the row lock of the upsert orders concurrent reports of one driver.
      const [row] = await tx.execute<{ emit: boolean }[]>(
        `with interval_sec as (
           select coalesce((select driver_location_min_interval_sec from webhook_settings where business_id = ? and customer_id is null), 60) as sec)
         insert into driver_location as l (driver_id, business_id, lat, lng, heading, speed, recorded_at, last_event_at)
         values (?, ?, ?, ?, ?, ?, ?, now())
         on conflict (driver_id) do update set
           lat = excluded.lat, lng = excluded.lng, heading = excluded.heading, speed = excluded.speed, recorded_at = excluded.recorded_at, updated_at = now(),
           last_event_at = case when l.last_event_at <= now() - make_interval(secs => (select sec from interval_sec)) then now() else l.last_event_at end
         where excluded.recorded_at >= l.recorded_at
         returning l.last_event_at = now() as emit`,
        [caller.businessId, caller.id, caller.businessId, input.lat, input.lng, input.heading ?? null, input.speed ?? null, recordedAt]);
      if (!row?.emit) return false;
      const eventId = `DLU-${randomUUID()}`;
      await insertOutboxEvent(tx, {
        businessId: caller.businessId, eventId, eventType: 'driver.location_update', referenceType: 'driver', referenceId: String(caller.id),
        payload: {
          event_id: eventId, event: 'driver.location_update', business_id: caller.businessId, occurred_at: new Date().toISOString(),
          data: { driver_id: caller.id, lat: input.lat, lng: input.lng, heading: input.heading ?? null, speed: input.speed ?? null, recorded_at: recordedAt.toISOString() },
        },
      });
      return true;
    });
    return { result: true as const, event_emitted: emitted };
  },
});
