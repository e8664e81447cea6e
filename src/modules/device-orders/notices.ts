/**
 * The pickup notice a device order owes its recipient (docs/device-orders.md, Pickup code; docs/notifications.md):
 * where the parcel waits, its code and its deadline. Written in English, as the other notices.
 */
import type { PickupNoticeFacts } from './repo/orders.ts';

export const PICKUP_NOTICE_TEMPLATE = 'device_order_pickup_code';
/** The notification row of a device order's one notice: an attempt again finds it. */
export const pickupNoticeKey = (id: number): string => `device_order:${id}:${PICKUP_NOTICE_TEMPLATE}`;

export function composePickupNotice(f: PickupNoticeFacts, pickupCode: string): { subject: string; text: string } {
  const name = f.recipient.name;
  return {
    subject: `Your pickup code for ${f.deviceName}`,
    text: [
      name ? `Hello ${name},` : 'Hello,',
      '',
      `Your parcel ${f.referenceNumber} is waiting for you in the locker "${f.deviceName}" (compartment ${f.gridCode}).`,
      '',
      `Pickup code: ${pickupCode}`,
      '',
      `Collect it with this code before ${f.dueAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      '',
    ].join('\n'),
  };
}
