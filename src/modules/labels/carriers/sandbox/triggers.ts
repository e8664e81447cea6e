/**
 * The sandbox carriers' documented trigger inputs (docs/labels.md): a shipment whose reference starts with one of
 * these makes the carrier fail in that way, so that integrators and tests can meet every failure on purpose.
 */
export const TRIGGERS = [
  'SBX-REFUSE-ONCE',
  'SBX-REFUSE',
  'SBX-TIMEOUT',
  'SBX-NOVOID',
  'SBX-RATE-DOWN',
  'SBX-DELIVERY-FAILS',
] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** The trigger a reference names, the longest first (SBX-REFUSE-ONCE is not SBX-REFUSE); null for none. */
export function triggerOf(reference: string | null | undefined): Trigger | null {
  if (!reference) return null;
  const text = reference.trim().toUpperCase();
  return [...TRIGGERS].sort((a, b) => b.length - a.length).find((t) => text.startsWith(t)) ?? null;
}
