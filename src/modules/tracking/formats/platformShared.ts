/**
 * What the platform formats (aftership, shopify, shippo, woocommerce, magento, bigcommerce, prestashop, etsy)
 * share: how any status id falls back to a core code, which event sums a timeline up, and the few facts every
 * platform asks for (carrier name, tracking link, times in its notation). Each platform file keeps only its
 * own value tables; docs/otep-platform-formats.md lists them.
 */
import type { OtepEvent, OtepLocation, Timeline } from '../model.ts';
import { REASON_BY_ID, STATUS_BY_ID } from '../vocabulary.ts';
import type { ProjectionContext } from './types.ts';

/**
 * The universal codes, written out as a type so the compiler refuses a platform table that misses one;
 * test/unit/otepPlatforms.test.ts keeps this list equal to the vocabulary's core profile.
 */
export const CORE_CODES = [
  'created',
  'picked_up',
  'received_at_facility',
  'departed_facility',
  'in_transit',
  'out_for_delivery',
  'delivery_failed',
  'exception',
  'delivered',
  'returned',
  'rejected',
  'cancelled',
] as const;
export type CoreCode = (typeof CORE_CODES)[number];

const CORE_PREFIX = 'otep:core:';

/**
 * The core code a status id stands for: itself for a core code, the code it `refines` for a profile code,
 * null for anything the vocabulary does not hold (experimental `x-` codes, announced profiles, typos).
 */
export function coreCodeOf(statusId: string): CoreCode | null {
  const status = STATUS_BY_ID.get(statusId);
  if (!status) return null;
  const core = (status.refines ?? status.id).slice(CORE_PREFIX.length);
  return (CORE_CODES as readonly string[]).includes(core) ? (core as CoreCode) : null;
}

/** One platform's values for status codes. */
export interface StatusTable<T> {
  /** A value for every core code; a profile code without its own entry gets its core code's value. */
  core: Readonly<Record<CoreCode, T>>;
  /** Profile codes the platform can say better than their core code, by full id. */
  refined?: Readonly<Record<string, T>>;
  /** For ids outside the vocabulary: the platform's own "unknown" or "pending" value. */
  unknown: T;
}

export function platformValue<T>(statusId: string, table: StatusTable<T>): T {
  if (table.refined && Object.hasOwn(table.refined, statusId)) return table.refined[statusId]!;
  const core = coreCodeOf(statusId);
  return core ? table.core[core] : table.unknown;
}

/**
 * Finer values some platforms have for an incident reason, per core code the reason comes with (a refusal
 * means one thing on a failed attempt, another on an exception). Undefined when the platform has none.
 */
export type ReasonTable<T> = Readonly<Partial<Record<CoreCode, Readonly<Record<string, T>>>>>;

export function reasonValue<T>(e: OtepEvent, table: ReasonTable<T>): T | undefined {
  const core = coreCodeOf(e.status_code);
  const byReason = core ? table[core] : undefined;
  return byReason && e.incident_reason && Object.hasOwn(byReason, e.incident_reason)
    ? byReason[e.incident_reason]
    : undefined;
}

/**
 * The event a platform's single status is taken from: the newest one that did not arrive after the journey
 * ended and whose code the vocabulary knows. An experimental code says nothing a platform can show, so it
 * must not move an order back to "pending"; it still appears, as "unknown", in the histories.
 */
export function summaryEvent(t: Timeline): OtepEvent | null {
  for (let i = t.events.length - 1; i >= 0; i--) {
    const e = t.events[i]!;
    if (!e.after_terminal && coreCodeOf(e.status_code)) return e;
  }
  return null;
}

/** Whether a code says the parcel has left the sender: from then on every platform calls the order shipped. */
const LEFT_SENDER: StatusTable<boolean> = {
  core: {
    created: false,
    picked_up: true,
    received_at_facility: true,
    departed_facility: true,
    in_transit: true,
    out_for_delivery: true,
    delivery_failed: true,
    exception: false,
    delivered: true,
    returned: true,
    rejected: true,
    cancelled: false,
  },
  // The driver is only on the way to the sender.
  refined: { 'otep:parcel:pickup_started': false },
  unknown: false,
};

/** The event the parcel left the sender with, when it has: the platforms' "shipped" date. */
export function shippedEvent(t: Timeline): OtepEvent | null {
  return t.events.find((e) => !e.after_terminal && platformValue(e.status_code, LEFT_SENDER)) ?? null;
}

/** The event's own words, else the vocabulary's label with the reason: every platform has a message field. */
export function eventText(e: OtepEvent): string {
  if (e.description) return e.description;
  const label = STATUS_BY_ID.get(e.status_code)?.label ?? e.status_code;
  const reason = e.incident_reason ? REASON_BY_ID.get(e.incident_reason)?.label : undefined;
  return reason ? `${label} (${reason})` : label;
}

/** A one-line place for platforms with a free-text location: "Paris Nord hub, 95500 Gonesse, FR". */
export function placeText(location: OtepLocation | null | undefined): string | null {
  if (!location) return null;
  const town = [location.postal_code, location.city].filter(Boolean).join(' ');
  const parts = [location.name, town, location.country].filter((p): p is string => Boolean(p));
  return parts.length ? parts.join(', ') : null;
}

/** Latitude and longitude, only when both are there. */
export function coordinates(location: OtepLocation | null | undefined): { lat: number; lng: number } | null {
  return typeof location?.lat === 'number' && typeof location.lng === 'number'
    ? { lat: location.lat, lng: location.lng }
    : null;
}

/**
 * The carrier name platforms show next to the tracking number. This service is the carrier of its tracking
 * numbers and the timeline names no other, so it is named by its public host.
 */
export function carrierName(ctx: ProjectionContext): string {
  return new URL(ctx.baseUrl).host;
}

/** The public OTEP timeline of the shipment, for platforms that hold a custom carrier's tracking link. */
export function trackingLink(t: Timeline, ctx: ProjectionContext): string {
  return `${ctx.baseUrl.replace(/\/+$/, '')}/api/v1/otep/trackings/${encodeURIComponent(t.tracking_number)}`;
}

// ---- Times. OTEP times carry their own offset; each platform has its notation, and the instant never moves.

/** ISO 8601 in UTC with Z, without a zero millisecond part: 2026-11-20T14:42:00Z. */
export function utcIso(time: string): string {
  return new Date(time).toISOString().replace('.000Z', 'Z');
}

/** Seconds since the epoch. */
export function unixSeconds(time: string): number {
  return Math.floor(Date.parse(time) / 1000);
}

/** UTC date and time without a zone, as platforms that store GMT say it: 2026-11-20T14:42:00 or 2026-11-20 14:42:00. */
export function utcNaive(time: string, separator: 'T' | ' '): string {
  return new Date(time).toISOString().slice(0, 19).replace('T', separator);
}

/** The calendar date where the event happened, from its own offset. */
export function localDate(time: string): string {
  return time.slice(0, 10);
}
