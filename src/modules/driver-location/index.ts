/** Driver positions, reported by driver apps and pushed to webhooks throttled per driver. */
import { defineModule } from '../../platform/module.ts';
import { DRIVER_LOCATION_EVENTS } from './events.ts';
import { DRIVER_LOCATION_MESSAGES } from './messages.ts';
import { driverLocationReport } from './operations.ts';

export const driverLocation = defineModule({
  name: 'driver-location',
  tags: {
    Driver: "What a driver's app reports: its position, which reaches receivers as driver.location_update webhooks.",
  },
  events: DRIVER_LOCATION_EVENTS,
  operations: [driverLocationReport],
  messages: DRIVER_LOCATION_MESSAGES,
});

export { newestPositions } from './repo.ts';
export type { NewestPosition } from './repo.ts';
