/** The driver position event, throttled per driver by the operation that reports positions. */
import type { EventDefinition } from '../../platform/events.ts';
import { describeEvents } from '../../platform/events.ts';
import { int, num, obj, orNull, OWN_EVENT_ID, tenantEnvelope, time } from '../../platform/jsonSchema.ts';

const NAME = 'driver.location_update';

const DECLARED: readonly EventDefinition[] = [
  {
    name: NAME,
    sender: 'tenant',
    summary: 'A driver position, throttled per driver.',
    payload: tenantEnvelope(
      NAME,
      obj({
        driver_id: int('Driver'),
        lat: num('Latitude', { minimum: -90, maximum: 90 }),
        lng: num('Longitude', { minimum: -180, maximum: 180 }),
        heading: orNull(num('Heading in degrees from north', { minimum: 0, maximum: 360 })),
        speed: orNull(num('Speed in m/s', { minimum: 0 })),
        recorded_at: time('When the device took the position'),
      }),
      { eventId: OWN_EVENT_ID },
    ),
    route: { field: 'driver_location_webhook_url' },
  },
];

/** Each event as its receiver should read it: when it is sent and what to do with it (the AsyncAPI description). */
export const DRIVER_LOCATION_EVENTS = describeEvents(DECLARED, {
  'driver.location_update':
    'Sent when one of your drivers reports a position, at most once per driver per configured interval (driver_location_min_interval_sec). Use the newest `recorded_at` to place the driver; an older position arriving late is not newer.',
});
