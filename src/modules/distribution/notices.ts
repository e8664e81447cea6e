/** The recipient's pickup notice of a shelved package (docs/notifications.md). Written in English for now. */
import type { ShelvedNoticeFacts } from './repo/distributions.ts';

export const SHELVED_TEMPLATE = 'distribution_shelved';
export const shelvedNoticeKey = (packageId: number) => `distribution-shelved-${packageId}`;

export function composeShelvedNotice(
  f: ShelvedNoticeFacts,
  pickupCode: string | null,
): { subject: string; text: string } {
  const where = f.place.address ? `${f.place.name}, ${f.place.address.line1}, ${f.place.address.city}` : f.place.name;
  const spot = f.gridCode !== null ? `compartment ${f.gridCode}` : f.shelfCode !== null ? `shelf ${f.shelfCode}` : null;
  const lines = [
    `Your parcel ${f.packageNumber} is ready for pickup at ${where}${spot ? ` (${spot})` : ''}.`,
    ...(pickupCode !== null
      ? ['', `Pickup code: ${pickupCode}`, '', "Type it on the locker's screen."]
      : ['', 'Show this message and your parcel number at the counter.']),
    ...(f.dueAt !== null
      ? ['', `Please collect it before ${new Date(f.dueAt).toISOString().slice(0, 16).replace('T', ' ')} UTC.`]
      : []),
  ];
  return {
    subject: `Your parcel is ready for pickup at ${f.place.name}`,
    text: [`Hello ${f.recipient.name},`, '', ...lines, ''].join('\n'),
  };
}
