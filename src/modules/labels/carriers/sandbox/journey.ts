/**
 * A sandbox parcel's journey (docs/labels.md, "Tracking of sandbox labels"), pure: the carrier events it goes
 * through after the hand-over, each at a fraction of a compressed day, so that a label's parcel moves in minutes.
 */

export interface JourneyStep {
  /** 1, 2, ...: the event id is `sbx-<carrier tracking number>-<step>`. */
  step: number;
  /** Days after the hand-over (a day lasts `daySeconds`). */
  atDays: number;
  status: string;
  description: string;
}

/**
 * The steps of a journey of `transitDays` business days: picked up, received at and departed from the facility,
 * one in-transit event per further day, out for delivery, then delivered (or a failed delivery).
 */
export function sandboxJourney(transitDays: number, deliveryFails: boolean): JourneyStep[] {
  const days = Math.max(1, transitDays);
  const plan: Omit<JourneyStep, 'step'>[] = [
    { atDays: 0.1, status: 'otep:core:picked_up', description: 'Picked up by the carrier' },
    { atDays: 0.3, status: 'otep:core:received_at_facility', description: 'Received at the carrier facility' },
    { atDays: 0.6, status: 'otep:core:departed_facility', description: 'Departed the carrier facility' },
  ];
  for (let d = 1; d < days; d++)
    plan.push({ atDays: d, status: 'otep:core:in_transit', description: `In transit, day ${d}` });
  plan.push({ atDays: days - 0.3, status: 'otep:core:out_for_delivery', description: 'Out for delivery' });
  plan.push(
    deliveryFails
      ? { atDays: days, status: 'otep:core:delivery_failed', description: 'Delivery attempt failed: nobody at home' }
      : { atDays: days, status: 'otep:core:delivered', description: 'Delivered' },
  );
  return plan.sort((a, b) => a.atDays - b.atDays).map((s, i) => ({ step: i + 1, ...s }));
}

/** When a step happens: `atDays` compressed days of `daySeconds` after the hand-over. */
export const stepTime = (handedOverAt: string, step: JourneyStep, daySeconds: number): Date =>
  new Date(Date.parse(handedOverAt) + Math.round(step.atDays * daySeconds * 1000));
