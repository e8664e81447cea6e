/**
 * Dispatch's pure rules (docs/routes.md, "Dispatch and the driver's day"): the driver app's steps, the status each
 * leaves the order in, how a report is judged against the order's stops, and the distance by which auto-assign
 * ranks drivers. Imported by the workflows: no imports, no clock.
 */

export const REPORT_STEPS = ['ready', 'pickup_started', 'picked_up', 'on_the_way', 'completed', 'failed'] as const;
export type ReportStep = (typeof REPORT_STEPS)[number];

export const FAILURE_REASONS = ['redispatch_later', 'needs_rescheduling', 'refused_by_recipient'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** How far along a step is: a report is never below (backwards) nor equal to (repeated) the order's furthest step. */
const RANK: Record<ReportStep, number> = {
  ready: 0,
  pickup_started: 1,
  picked_up: 2,
  on_the_way: 3,
  completed: 4,
  failed: 4,
};

/** Order status ids (orders/domain.ts ORDER_STATUS), as the docs' table gives them. */
const FAILED_STATUS: Record<FailureReason, number> = {
  redispatch_later: 13,
  needs_rescheduling: 12,
  refused_by_recipient: 14,
};
const DELIVERY_FAILED = 4;

/** The status the order takes after an applied step; null: unchanged (ready). */
export function statusAfter(step: ReportStep, reason: FailureReason | null): number | null {
  switch (step) {
    case 'ready':
      return null;
    case 'pickup_started':
      return 6;
    case 'picked_up':
      return 7;
    case 'on_the_way':
      return 2;
    case 'completed':
      return 3;
    case 'failed':
      return reason ? FAILED_STATUS[reason] : DELIVERY_FAILED;
  }
}

export type StopKind = 'pickup' | 'delivery' | 'break';
export type StopStatus = 'pending' | 'done' | 'failed' | 'skipped';

/** What a report is judged against: the order's stops on the driver's route and the steps applied to them. */
export interface ReportState {
  orderType: 'D' | 'P' | 'P2P';
  stops: readonly { id: number; kind: StopKind; status: StopStatus }[];
  applied: readonly { stopId: number; step: ReportStep }[];
  /** An auto-assign offer of the order waits for the driver's answer: the driver has not taken it yet. */
  offerOpen: boolean;
}

/** Why a report changed nothing. */
export const NOT_APPLIED_REASONS = [
  'not_on_route',
  'offer_open',
  'repeated',
  'backwards',
  'stop_finished',
  'pickup_pending',
] as const;
export type NotAppliedReason = (typeof NOT_APPLIED_REASONS)[number];

export type Judgement =
  { applied: true; stopId: number; finish: 'done' | 'failed' | null } | { applied: false; reason: NotAppliedReason };

/**
 * Judges a step against the order's stops. A P2P order's ready, pickup_started and picked_up belong to its pickup
 * stop (picked_up finishes it) and the rest to its delivery stop; a P order's steps all belong to its one pickup
 * stop, which picked_up or completed finishes; a D order's to its delivery stop, which completed or failed finishes.
 * A failed report belongs to the order's first stop still pending. A P2P order's delivery steps (on_the_way,
 * completed) wait for its pickup: while its pickup stop is pending they are refused (pickup_pending).
 */
export function judgeReport(state: ReportState, step: ReportStep): Judgement {
  const stops = state.stops.filter((s) => s.kind !== 'break');
  if (stops.length === 0) return { applied: false, reason: 'not_on_route' };
  if (state.offerOpen) return { applied: false, reason: 'offer_open' };
  const ours = new Set(stops.map((s) => s.id));
  const applied = state.applied.filter((a) => ours.has(a.stopId));
  if (applied.some((a) => a.step === step)) return { applied: false, reason: 'repeated' };
  const furthest = Math.max(-1, ...applied.map((a) => RANK[a.step]));
  if (RANK[step] < furthest || (RANK[step] === furthest && step !== 'failed' && step !== 'completed'))
    return { applied: false, reason: 'backwards' };
  const pickup = stops.find((s) => s.kind === 'pickup');
  const delivery = stops.find((s) => s.kind === 'delivery');
  let stop = (state.orderType === 'P' ? pickup : delivery) ?? stops[0]!;
  if (state.orderType === 'P2P' && pickup && (step === 'ready' || step === 'pickup_started' || step === 'picked_up'))
    stop = pickup;
  else if (state.orderType === 'P2P' && pickup?.status === 'pending' && step !== 'failed')
    return { applied: false, reason: 'pickup_pending' };
  if (step === 'failed') stop = stops.find((s) => s.status === 'pending') ?? stop;
  if (stop.status !== 'pending') return { applied: false, reason: 'stop_finished' };
  const finish =
    step === 'failed'
      ? 'failed'
      : step === 'completed' || (step === 'picked_up' && stop.kind === 'pickup')
        ? 'done'
        : null;
  return { applied: true, stopId: stop.id, finish };
}

/** Great-circle distance in metres (haversine, mean Earth radius). */
export function greatCircleMetres(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A driver as auto-assign ranks it. */
export interface Candidate {
  driverId: number;
  position: { lat: number; lng: number } | null;
}

/**
 * The drivers in the order they are offered: nearest newest position first; without a position (or when the order
 * has no coordinates) after those, by id.
 */
export function rankCandidates(candidates: readonly Candidate[], at: { lat: number; lng: number } | null): number[] {
  const distance = (c: Candidate) => (c.position && at ? greatCircleMetres(c.position, at) : Infinity);
  return [...candidates].sort((a, b) => distance(a) - distance(b) || a.driverId - b.driverId).map((c) => c.driverId);
}

/** The most drivers an auto-assign process offers the order to when the request names no max_offers. */
export const MAX_OFFERS_DEFAULT = 20;

/** The bounds of an offer's deadline. */
export const OFFER_TIMEOUT_SECONDS = { min: 15, max: 3600, default: 120 } as const;
