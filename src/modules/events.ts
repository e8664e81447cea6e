/**
 * Every webhook event of every module, in one list: the webhooks module routes events to settings fields, builds
 * the AsyncAPI document and checks test sends from it. A module with events adds one line here.
 */
import type { EventDefinition } from '../platform/events.ts';
import { DEVICE_ORDER_EVENTS } from './device-orders/events.ts';
import { CARRIER_PACKAGE_EVENTS } from './distribution/events.ts';
import { DRIVER_LOCATION_EVENTS } from './driver-location/events.ts';
import { PARTNER_LOCKER_EVENTS } from './locker-deliveries/events.ts';
import { ORDER_EVENTS } from './orders/events.ts';
import { THIRD_PARTY_EVENTS } from './third-party-deliveries/events.ts';
import { WEBHOOK_EVENTS } from './webhooks/events.ts';

export const EVENTS: readonly EventDefinition[] = [
  ...ORDER_EVENTS,
  ...DEVICE_ORDER_EVENTS,
  ...DRIVER_LOCATION_EVENTS,
  ...PARTNER_LOCKER_EVENTS,
  ...CARRIER_PACKAGE_EVENTS,
  ...THIRD_PARTY_EVENTS,
  ...WEBHOOK_EVENTS,
];
