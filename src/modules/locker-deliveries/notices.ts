/**
 * The messages a partner delivery owes its recipient (docs/notifications.md): the pickup code once the deposit is
 * confirmed, and the new one after a rotation when the provider asks for it. Written in English for now.
 */
import type { LockerDeliveryView } from './views.ts';

import type { LockerNoticeTemplate } from './contract.ts';

export type NoticeTemplate = LockerNoticeTemplate;

export interface NoticeFacts {
  view: LockerDeliveryView;
  deviceName: string;
}

const doorsOf = (v: LockerDeliveryView) =>
  v.parcels.map((p) => p.pickup_locker_code ?? `door ${p.compartment_number}`).join(', ');
const until = (v: LockerDeliveryView) =>
  v.pickup_expires_at ? `${v.pickup_expires_at.slice(0, 16).replace('T', ' ')} UTC` : 'the date the sender gave you';

export function composeNotice(
  template: NoticeTemplate,
  f: NoticeFacts,
  pickupCode: string,
): { subject: string; text: string } {
  const v = f.view;
  const parcels = v.parcels.length === 1 ? 'Your parcel is' : `Your ${v.parcels.length} parcels are`;
  const lines =
    template === 'locker_pickup_code'
      ? [
          `${parcels} waiting for you in the locker "${f.deviceName}" (${doorsOf(v)}).`,
          '',
          `Pickup code: ${pickupCode}`,
        ]
      : [
          `The pickup code for your parcels in the locker "${f.deviceName}" (${doorsOf(v)}) has changed; the old code no longer works.`,
          '',
          `New pickup code: ${pickupCode}`,
        ];
  return {
    subject:
      template === 'locker_pickup_code'
        ? `Your pickup code for ${f.deviceName}`
        : `Your new pickup code for ${f.deviceName}`,
    text: [
      `Hello ${v.recipient.name},`,
      '',
      ...lines,
      '',
      `Type it on the locker's screen before ${until(v)}.`,
      '',
    ].join('\n'),
  };
}
