/**
 * The route reads (docs/routes.md, Routes): the business's routes, one route with its stops and their orders, the
 * routes of today for the staff, and the driver's own route of today. Every read filters on the caller's business.
 */
import { z } from 'zod';
import {
  dateParam,
  intParam,
  offsetOf,
  pageOf,
  pageOutput,
  pageParams,
  pathId,
} from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import type { Em } from '../../../platform/db/orm.ts';
import { errors } from '../../../platform/errors.ts';
import { STAFF } from '../../../platform/roles.ts';
import { findRoute, listRoutes, stopsOf, type RouteListRow } from '../repo/reads.ts';
import { presentRoute, presentStop, RouteDetailView, RouteView } from '../views.ts';

const TAG = 'Routes';
const ROUTE_STATUSES = ['planned', 'in_progress', 'completed', 'cancelled'] as const;

async function withStops(em: Em, businessId: number, routes: RouteListRow[]) {
  const stops = await stopsOf(
    em,
    businessId,
    routes.map((r) => r.id),
  );
  return routes.map((r) => ({
    ...presentRoute(r),
    stops: stops.filter((s) => s.routeId === r.id).map(presentStop),
  }));
}

export const routeList = defineOperation({
  name: 'get_routes',
  summary: "List the business's routes, newest date first, with their planned figures and stop counts.",
  description:
    'Filter by `date`, `driver_id` and `status` (planned, in_progress, completed, cancelled); 50 a page by default (`page`, `per_page` up to 200) with the `total`. get_route_detail gives one route with its stops.',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/routes' },
  graphql: { name: 'routes', kind: 'query' },
  mcp: { scope: 'routes:read', risk: 'low' },
  input: z
    .object({
      date: dateParam().optional(),
      driver_id: intParam().optional(),
      status: z.enum(ROUTE_STATUSES).optional(),
      ...pageParams,
    })
    .strict(),
  output: pageOutput('routes', RouteView),
  async handler(input, ctx) {
    const { total, rows } = await listRoutes(
      ctx.em,
      ctx.caller.businessId,
      { date: input.date, driverId: input.driver_id, status: input.status },
      { limit: input.per_page, offset: offsetOf(input) },
    );
    return pageOf(input, 'routes', total, rows.map(presentRoute));
  },
});

export const routeDetail = defineOperation({
  name: 'get_route_detail',
  summary:
    'One route with its stops in order, each with its planned times, status and order: reference, tracking number, status, the place and contact to meet, the delivery instruction, note, time window, skills, service minutes and package count.',
  description:
    "Use it to follow a driver's day: the stops come in driving order (pickups, deliveries and breaks), each `pending`, `done`, `failed` or `skipped` with its planned arrival and departure. A route of another business answers 404, as an unknown id does.",
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/routes/{id}' },
  graphql: { name: 'route', kind: 'query' },
  mcp: { scope: 'routes:read', risk: 'low' },
  failures: { NOT_FOUND: 'No route of the business has this id' },
  input: z.object({ id: pathId }).strict(),
  output: z.object({ result: z.literal(true), route: RouteDetailView }),
  async handler(input, ctx) {
    const route = await findRoute(ctx.em, ctx.caller.businessId, input.id);
    if (!route) throw errors.notFound();
    const [detail] = await withStops(ctx.em, ctx.caller.businessId, [route]);
    return { result: true as const, route: detail! };
  },
});

export const routesToday = defineOperation({
  name: 'get_driver_routes_today',
  summary: "Today's routes of the business's drivers (today in the business's timezone), each with its stops.",
  description:
    'Filter by `driver_id`; cancelled routes are left out. 50 a page by default (`page`, `per_page` up to 200).',
  tag: TAG,
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/routes/today' },
  graphql: { name: 'routesToday', kind: 'query' },
  mcp: { scope: 'routes:read + drivers:read', risk: 'low' },
  input: z.object({ driver_id: intParam().optional(), ...pageParams }).strict(),
  output: pageOutput('routes', RouteDetailView),
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    const { total, rows } = await listRoutes(
      ctx.em,
      businessId,
      { driverId: input.driver_id, today: true, notCancelled: true },
      { limit: input.per_page, offset: offsetOf(input) },
    );
    return pageOf(input, 'routes', total, await withStops(ctx.em, businessId, rows));
  },
});

export const myRouteToday = defineOperation({
  name: 'get_my_route_today',
  summary: "The calling driver's route of today with its stops in order; null when it has none.",
  description:
    "For the driver app: today is the business's day (its timezone). A cancelled route is not shown. Each stop names its order with the recipient's address, so the app can lead the driver from stop to stop and report each step (POST /v1/driver/orders/{id}/report).",
  tag: TAG,
  roles: ['driver'],
  business: true,
  rest: { method: 'GET', path: '/v1/driver/routes/today' },
  graphql: { name: 'driverRouteToday', kind: 'query' },
  input: z.object({}).strict(),
  output: z.object({ result: z.literal(true), route: RouteDetailView.nullable() }),
  async handler(_input, ctx) {
    const businessId = ctx.caller.businessId;
    const { rows } = await listRoutes(
      ctx.em,
      businessId,
      { driverId: ctx.caller.id, today: true, notCancelled: true },
      { limit: 1, offset: 0 },
    );
    const [route] = await withStops(ctx.em, businessId, rows);
    return { result: true as const, route: route ?? null };
  },
});
