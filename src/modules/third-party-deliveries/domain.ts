/**
 * Third-party delivery assignments (docs/third-party-deliveries.md): the specification names the events
 * created, handed_over, cancelled and partial_delivered; the states and moves between them are designed here.
 */
export const ASSIGNMENT_STATUSES = ['assigned', 'handed_over', 'partial_delivered', 'delivered', 'cancelled'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

export const CANCEL_REASONS = ['cancelled', 'fallback_to_self_delivery', 'reassigned'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

export type AssignmentStep = 'handover' | 'cancel';

/** What a package's newest tracking says of it, as partial_delivered reports each package. */
export type PackageOutcome = 'delivered' | 'returned' | 'in_transit';

export function outcomeOfPhase(phase: string | null): PackageOutcome {
  return phase === 'delivered' ? 'delivered' : phase === 'closed' ? 'returned' : 'in_transit';
}

/** Statuses in which the provider holds the order. */
export const LIVE_STATUSES: readonly AssignmentStatus[] = ['assigned', 'handed_over', 'partial_delivered'];
export const isLive = (s: AssignmentStatus): boolean => LIVE_STATUSES.includes(s);

/** Which statuses each move starts from: a handover only before all packages went; a reassignment only before any did. */
export function allows(status: AssignmentStatus, step: AssignmentStep, reason?: CancelReason): boolean {
  if (step === 'handover') return status === 'assigned';
  return reason === 'cancelled' ? isLive(status) : status === 'assigned';
}

/** How long the provider has to take the parcels when the business does not say: then the order falls back to self delivery. */
export const DEFAULT_HANDOVER_HOURS = 24;
export const MAX_HANDOVER_HOURS = 24 * 14;

export const assignmentNumber = (id: number): string => `TPA-${String(id).padStart(8, '0')}`;
