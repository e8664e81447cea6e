/** The driver position event, throttled per driver by the operation that reports positions. */
import type { EventDefinition } from '../../platform/events.ts';
import { int, num, obj, orNull, OWN_EVENT_ID, tenantEnvelope, time } from '../../platform/jsonSchema.ts';

const NAME = 'driver.location_update';

export const DRIVER_LOCATION_EVENTS: readonly EventDefinition[] = [
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
