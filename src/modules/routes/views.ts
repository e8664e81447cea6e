/** What leaves the service of builds and routes (docs/routes.md): zod shapes, their types, and the presenters. */
import { z } from 'zod';
import type { Language } from '../../platform/i18n/languages.ts';
import { addressView } from '../../platform/catalog/schemas.ts';
import { translate } from '../../platform/i18n/messages.ts';
import { ORDER_STATUSES, type Address } from '../orders/index.ts';
import { buildRouteWorkflowId, type BuildProgress } from './contract.ts';
import { DRIVER_SKIPS, ORDER_SKIPS, type Skip } from './domain.ts';
import { SKIP_MESSAGE } from './messages.ts';
import type { BuildRow } from './repo/builds.ts';
import type { RouteListRow, RouteStopRow } from './repo/reads.ts';

const iso = z.string().nullable();

export const SkipView = z.object({
  order_id: z.number().int().optional().describe('The order left out'),
  driver_id: z.number().int().optional().describe('The driver left out'),
  code: z.enum([...ORDER_SKIPS, ...DRIVER_SKIPS]),
  message: z.string().describe("Why, in the caller's language"),
  reason: z.string().optional().describe("The solver's own reason, for UNASSIGNED"),
});

export const presentSkips = (skips: readonly Skip[], lang: Language): z.input<typeof SkipView>[] =>
  skips.map((s) => ({ ...s, message: translate(SKIP_MESSAGE[s.code], lang) }));

export const StopView = z.object({
  id: z.number().int(),
  seq: z.number().int().describe('Position on the route, from 1'),
  kind: z.enum(['pickup', 'delivery', 'break']),
  status: z.enum(['pending', 'done', 'failed', 'skipped']),
  order_id: z.number().int().nullable().describe('Null for a break'),
  planned_arrival: iso,
  planned_departure: iso,
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  done_at: iso,
});

export const StopWithOrderView = StopView.extend({
  order: z
    .object({
      order_ref: z.string().nullable(),
      tracking_number: z.string(),
      type: z.string(),
      status_id: z.number().int(),
      status: z.string(),
      address: addressView.describe(
        "Where the stop is: the pickup place for a P2P order's pickup stop, the recipient's address otherwise",
      ),
      contact: z
        .object({ name: z.string(), phone: z.string().nullable() })
        .describe("Whom to meet: the pickup's contact for a P2P order's pickup stop, the recipient otherwise"),
      delivery_instruction: z.string().nullable().describe('What the driver should know to deliver it'),
      note: z.string().nullable(),
      time_window: z
        .object({ start: z.string(), end: z.string() })
        .nullable()
        .describe('When the recipient can receive it'),
      required_skills: z.array(z.string()),
      service_minutes: z
        .number()
        .int()
        .nullable()
        .describe("How long the stop takes; the route build's default when null"),
      packages: z.number().int().describe('How many packages the order has'),
    })
    .nullable()
    .describe('The stop\u2019s order and what the driver needs there; null for a break'),
});

export const RouteView = z.object({
  id: z.number().int(),
  driver_id: z.number().int(),
  driver_name: z.string(),
  date: z.string().describe('The route date, YYYY-MM-DD'),
  status: z.enum(['planned', 'in_progress', 'completed', 'cancelled']),
  build_id: z.number().int().nullable().describe('The build that planned it last; null when made by assignments'),
  planned_start: iso,
  planned_end: iso,
  distance_m: z.number().int().nullable(),
  duration_s: z.number().int().nullable(),
  stops_total: z.number().int(),
  stops_done: z.number().int().describe('Stops done, failed or skipped'),
});

export const RouteDetailView = RouteView.extend({ stops: z.array(StopWithOrderView) });

const STATUS_CODE = new Map<number, string>(ORDER_STATUSES.map((s) => [s.id, s.code]));
const statusCodeOf = (id: number): string => STATUS_CODE.get(id) ?? 'UNKNOWN';

const toIso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export const presentRoute = (r: RouteListRow): z.input<typeof RouteView> => ({
  id: r.id,
  driver_id: r.driverId,
  driver_name: r.driverName,
  date: r.routeDate,
  status: r.status,
  build_id: r.buildId,
  planned_start: toIso(r.plannedStart),
  planned_end: toIso(r.plannedEnd),
  distance_m: r.distanceM,
  duration_s: r.durationS,
  stops_total: r.stopsTotal,
  stops_done: r.stopsDone,
});

const addressOf = (a: Address) => ({
  line1: a.line1,
  line2: a.line2 ?? null,
  city: a.city,
  postal_code: a.postal_code,
  country: a.country,
  lat: a.lat ?? null,
  lng: a.lng ?? null,
});

/** The stop's order as the driver needs it: a P2P pickup stop is met at the pickup place, every other at the recipient's. */
function stopOrder(s: RouteStopRow): z.input<typeof StopWithOrderView>['order'] {
  if (s.orderId === null) return null;
  const party = (s.kind === 'pickup' && s.pickup) || s.recipient!;
  return {
    order_ref: s.orderRef,
    tracking_number: s.trackingNumber!,
    type: s.orderType!,
    status_id: s.statusId!,
    status: statusCodeOf(s.statusId!),
    address: addressOf(party.address),
    contact: { name: party.name, phone: party.phone ?? null },
    delivery_instruction: s.deliveryInstruction,
    note: s.note,
    time_window: s.windowStart && s.windowEnd ? { start: toIso(s.windowStart)!, end: toIso(s.windowEnd)! } : null,
    required_skills: s.requiredSkills ?? [],
    service_minutes: s.serviceMinutes,
    packages: s.packages ?? 0,
  };
}

export const presentStop = (s: RouteStopRow): z.input<typeof StopWithOrderView> => ({
  id: s.id,
  seq: s.seq,
  kind: s.kind,
  status: s.status,
  order_id: s.orderId,
  planned_arrival: toIso(s.plannedArrival),
  planned_departure: toIso(s.plannedDeparture),
  lat: s.lat,
  lng: s.lng,
  done_at: toIso(s.doneAt),
  order: stopOrder(s),
});

export const BuildStatusEnum = z.enum(['queued', 'solving', 'storing', 'done', 'failed', 'cancelled']);

export const BuildAccepted = z.object({
  id: z.number().int().describe('The build id'),
  status: BuildStatusEnum,
  workflow_id: z.string().describe('The process build-route-<id>, for the Temporal UI'),
  skipped: z.array(SkipView).describe('Orders and drivers left out before the solve, each with its code'),
});

export const BuildView = BuildAccepted.extend({
  date: z.string(),
  created_at: z.string(),
  finished_at: iso,
  error: z.string().nullable().describe('Why a failed build failed'),
  progress: z
    .object({
      state: z.string(),
      started_at: iso,
      elapsed_seconds: z.number().int().nullable(),
      time_limit_seconds: z.number().int(),
      orders: z.number().int(),
      drivers: z.number().int(),
    })
    .nullable()
    .describe('While it is under way: what the process reports'),
  summary: z
    .object({
      engine: z.string(),
      seconds: z.number(),
      cost: z.number(),
      distances: z.enum(['great_circle', 'osrm']),
      routes: z.number().int(),
      unassigned: z.number().int(),
      router_error: z.string().optional(),
    })
    .nullable()
    .describe(
      'Once solved: the engine, how long it searched, the cost, which distances, how many routes and orders left unassigned',
    ),
  routes: z.array(
    z.object({
      id: z.number().int(),
      driver_id: z.number().int(),
      stops: z.array(
        z.object({
          order_id: z.number().int().nullable(),
          kind: z.enum(['pickup', 'delivery', 'break']),
          seq: z.number().int(),
          planned_arrival: iso,
          planned_departure: iso,
        }),
      ),
    }),
  ),
});

export function presentBuild(
  b: BuildRow,
  lang: Language,
  progress: BuildProgress | null,
  routes: { id: number; driverId: number; stops: RouteStopRow[] }[],
  now = new Date(),
): z.input<typeof BuildView> {
  return {
    id: b.id,
    status: b.status,
    workflow_id: buildRouteWorkflowId(b.id),
    skipped: presentSkips(b.skipped, lang),
    date: b.routeDate,
    created_at: new Date(b.createdAt).toISOString(),
    finished_at: toIso(b.finishedAt),
    error: b.error,
    progress: progress && {
      state: progress.state,
      started_at: progress.startedAt,
      elapsed_seconds: progress.startedAt
        ? Math.max(0, Math.round((now.getTime() - Date.parse(progress.startedAt)) / 1000))
        : null,
      time_limit_seconds: progress.timeLimitSeconds,
      orders: progress.orders,
      drivers: progress.drivers,
    },
    summary: b.summary,
    routes: routes.map((r) => ({
      id: r.id,
      driver_id: r.driverId,
      stops: r.stops.map((s) => ({
        order_id: s.orderId,
        kind: s.kind,
        seq: s.seq,
        planned_arrival: toIso(s.plannedArrival),
        planned_departure: toIso(s.plannedDeparture),
      })),
    })),
  };
}
