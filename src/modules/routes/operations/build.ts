/**
 * Route builds (docs/routes.md, Building routes): start one, read it (with its progress while it solves), cancel it,
 * and list the options with their ranges.
 */
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { z } from 'zod';
import { dateParam, eachOnce, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation } from '../../../platform/catalog/types.ts';
import type { Em } from '../../../platform/db/orm.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import { STAFF } from '../../../platform/roles.ts';
import { actorOf } from '../../orders/index.ts';
import {
  BUILD_FINISHED_FAILURE,
  BUILD_ROUTE_WORKFLOW,
  buildRouteWorkflowId,
  cancelUpdate,
  progressQuery,
  ROUTES_QUEUE,
  type BuildProgress,
} from '../contract.ts';
import { BUILD_LIMITS, BUILD_OPTIONS, type BuildRequest } from '../domain.ts';
import { fail } from '../errorCodes.ts';
import { checkBuildRequest } from '../planningChecks.ts';
import { endBuild, findBuild, insertBuild } from '../repo/builds.ts';
import { driversDay } from '../repo/planning.ts';
import { buildRoutes, stopsOf } from '../repo/reads.ts';
import { BuildAccepted, BuildView, presentBuild, presentSkips } from '../views.ts';
import type { buildRouteWorkflow } from '../workflows.ts';

const TAG = 'Routes';
const ROLES = [...STAFF, 'contractor'] as const;

const idList = (max: number, what: string) =>
  eachOnce(z.array(z.number().int().min(1).max(2_147_483_647)).min(1).max(max), 'routes.duplicate_id').describe(
    `${what}, 1 to ${max}, each once`,
  );

const O = BUILD_OPTIONS;
const Options = z
  .object({
    objective: z
      .enum(O.objective.values)
      .default(O.objective.default)
      .describe('duration: least total driving time; vehicles: fewest drivers first, then time'),
    time_limit_seconds: z
      .number()
      .int()
      .min(O.time_limit_seconds.min)
      .max(O.time_limit_seconds.max)
      .default(O.time_limit_seconds.default)
      .describe('How long the solver may search'),
    balance: z
      .boolean()
      .default(O.balance.default)
      .describe('Spread the stops evenly: no driver gets more than the average plus one fifth'),
    average_speed_kmh: z
      .number()
      .min(O.average_speed_kmh.min)
      .max(O.average_speed_kmh.max)
      .default(O.average_speed_kmh.default)
      .describe('Speed on great-circle distances (without ROUTER_URL)'),
    default_service_minutes: z
      .number()
      .int()
      .min(O.default_service_minutes.min)
      .max(O.default_service_minutes.max)
      .default(O.default_service_minutes.default)
      .describe("A stop's duration when its order has no service_minutes"),
    max_route_minutes: z
      .number()
      .int()
      .min(O.max_route_minutes.min)
      .max(O.max_route_minutes.max)
      .nullable()
      .default(null)
      .describe("A cap on every driver's working day, below each driver's own"),
    reoptimize: z
      .boolean()
      .default(O.reoptimize.default)
      .describe("Re-plan the drivers' routes of that date: done and failed stops stay, the rest is planned again"),
  })
  .strict();

const BuildInput = z
  .object({
    date: dateParam().describe('The route date, YYYY-MM-DD (its midnight in the business timezone is time 0)'),
    order_ids: idList(BUILD_LIMITS.orders, 'The orders to plan'),
    driver_ids: idList(BUILD_LIMITS.drivers, 'The drivers to plan them on'),
    options: Options.prefault({}),
  })
  .strict();

export const buildRoute = defineOperation({
  name: 'build_route',
  summary: 'Plan orders onto drivers\u2019 routes of a day with the route optimiser; answers 202 with the build.',
  description: `Checks the request, leaves out what cannot be planned (each in \`skipped\` with its code: NOT_DISPATCHABLE, PROVIDER_HELD, CONTRACTOR_HELD, ALREADY_ON_ROUTE, NO_PICKUP, NO_COORDINATES, DRIVER_NOT_ACTIVE, DRIVER_HAS_ROUTE, DRIVER_NO_START, and for a contractor re-optimising DRIVER_DAY_NOT_YOURS: the driver's day holds orders the contractor does not hold), and starts the build (process build-route-<id>): the solver respects time windows, capacities (weight, volume, parcels), skills, shifts and breaks, and P2P pickups before their deliveries. Read the result with GET /v3/client/build-route/{id}; orders no driver could take are reported UNASSIGNED. An order or driver the business does not have fails the call (VALIDATION_FAILED); nothing left to plan is NOTHING_TO_PLAN. A contractor plans the orders assigned to it and unassigned ones; an order another contractor holds is CONTRACTOR_HELD (for staff: any contractor). Options: get_build_route_options.`,
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'POST', path: '/v3/client/build-route', status: 202 },
  graphql: { name: 'clientBuildRoute', kind: 'mutation' },
  mcp: { scope: 'routes:write', risk: 'high', servers: ['user', 'developer'] },
  failures: { NOTHING_TO_PLAN: true },
  input: BuildInput,
  output: BuildAccepted,
  async handler(input, ctx) {
    const { caller } = ctx;
    const brokerId = caller.role === 'contractor' ? caller.id : null;
    const checked = await checkBuildRequest(ctx.em, caller.businessId, {
      date: input.date,
      order_ids: input.order_ids,
      driver_ids: input.driver_ids,
      reoptimize: input.options.reoptimize,
      brokerId,
    });
    const pendingOnDay = input.options.reoptimize
      ? (
          await driversDay(
            ctx.em,
            caller.businessId,
            checked.drivers.map((d) => d.driverId),
            input.date,
          )
        ).some((d) => d.stops.some((s) => s.status === 'pending' && s.orderId !== null))
      : false;
    if (checked.drivers.length === 0 || (checked.orders.length === 0 && !pendingOnDay))
      throw new AppError(422, 'NOTHING_TO_PLAN', 'routes.nothing_to_plan', {
        extra: { skipped: presentSkips(checked.skipped, ctx.lang) },
      });
    const actor = actorOf(ctx);
    const request: BuildRequest = {
      date: input.date,
      order_ids: input.order_ids,
      driver_ids: input.driver_ids,
      options: input.options,
      broker_id: brokerId,
      actor: { userId: actor.userId, role: actor.role, source: actor.source === 'mcp' ? 'mcp' : 'api', ip: actor.ip },
    };
    const id = await insertBuild(ctx.em, {
      businessId: caller.businessId,
      requestedBy: caller.id,
      request,
      skipped: checked.skipped,
    });
    try {
      await ctx.temporal.workflow.start<typeof buildRouteWorkflow>(BUILD_ROUTE_WORKFLOW, {
        workflowId: buildRouteWorkflowId(id),
        taskQueue: ROUTES_QUEUE,
        args: [{ buildId: id, businessId: caller.businessId }],
        workflowIdConflictPolicy: 'FAIL',
      });
    } catch (err) {
      await endBuild(ctx.em, id, 'failed', { error: 'the build process could not be started' });
      throw err;
    }
    return {
      id,
      status: 'queued' as const,
      workflow_id: buildRouteWorkflowId(id),
      skipped: presentSkips(checked.skipped, ctx.lang),
    };
  },
});

/**
 * The build as the caller may see it: the business's staff see every build of the business, a contractor only those
 * it requested (another's answers 404 as an unknown id, so that its routes and orders stay hidden).
 */
async function visibleBuild(em: Em, caller: { businessId: number; role: string; id: number }, id: number) {
  const build = await findBuild(em, caller.businessId, id);
  if (!build || (caller.role === 'contractor' && build.requestedBy !== caller.id)) throw errors.notFound();
  return build;
}

/** What the process reports; null when it cannot answer (ended meanwhile, or no worker polls its queue just now). */
async function progressOf(temporal: Client, id: number): Promise<BuildProgress | null> {
  try {
    return await temporal.workflow.getHandle(buildRouteWorkflowId(id)).query(progressQuery);
  } catch {
    return null;
  }
}

export const getBuildRoute = defineOperation({
  name: 'get_build_route',
  summary:
    'Read a route build: its status, progress while it solves, summary, what it left out and the routes it made.',
  description:
    'Status queued, solving, storing, done, failed or cancelled. While it is under way, `progress` says what the process does (state, started_at, elapsed_seconds, time_limit_seconds, orders, drivers). Once done, `summary` (engine, seconds, cost, distances great_circle or osrm, routes, unassigned) and `routes` with their stops in order and planned times; `skipped` lists what was left out, UNASSIGNED included. Another business\u2019s build is NOT_FOUND.',
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'GET', path: '/v3/client/build-route/{id}' },
  graphql: { name: 'clientBuildRouteGet', kind: 'query' },
  failures: { NOT_FOUND: 'No build of the business has this id' },
  input: z.object({ id: pathId }).strict(),
  output: BuildView,
  async handler(input, ctx) {
    const build = await visibleBuild(ctx.em, ctx.caller, input.id);
    const underWay = ['queued', 'solving', 'storing'].includes(build.status);
    const progress: BuildProgress | null = underWay ? await progressOf(ctx.temporal, build.id) : null;
    const routes = await buildRoutes(ctx.em, ctx.caller.businessId, build.id);
    const stops = await stopsOf(
      ctx.em,
      ctx.caller.businessId,
      routes.map((r) => r.id),
    );
    return presentBuild(
      build,
      ctx.lang,
      progress,
      routes.map((r) => ({ ...r, stops: stops.filter((s) => s.routeId === r.id) })),
    );
  },
});

export const cancelBuildRoute = defineOperation({
  name: 'cancel_build_route',
  summary: 'Cancel a route build under way: the solver is stopped and nothing is written.',
  description:
    'The build ends cancelled once its solver has stopped (read it with GET /v3/client/build-route/{id}); no route is written. A build that has ended, or is writing its routes, is BUILD_FINISHED. Another business\u2019s build is NOT_FOUND.',
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'POST', path: '/v3/client/build-route/{id}/cancel', status: 202 },
  graphql: { name: 'clientBuildRouteCancel', kind: 'mutation' },
  failures: { NOT_FOUND: 'No build of the business has this id', BUILD_FINISHED: true },
  input: z.object({ id: pathId }).strict(),
  output: z.object({ result: z.literal(true), id: z.number().int(), workflow_id: z.string() }),
  async handler(input, ctx) {
    const build = await visibleBuild(ctx.em, ctx.caller, input.id);
    if (!['queued', 'solving'].includes(build.status)) throw fail('BUILD_FINISHED', 'routes.build_finished');
    // The process decides: it accepts the cancel only while it prepares or solves, and then stores nothing.
    try {
      await ctx.temporal.workflow.getHandle(buildRouteWorkflowId(build.id)).executeUpdate(cancelUpdate);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError || isBuildFinished(err))
        throw fail('BUILD_FINISHED', 'routes.build_finished');
      throw err;
    }
    return { result: true as const, id: build.id, workflow_id: buildRouteWorkflowId(build.id) };
  },
});

/** The process refused the cancel: it is storing or has ended (the update's validator, or a closed run). */
const isBuildFinished = (err: unknown): boolean =>
  err instanceof WorkflowUpdateFailedError &&
  err.cause instanceof ApplicationFailure &&
  err.cause.type === BUILD_FINISHED_FAILURE;

const optionBase = { name: z.string(), description: z.string() };
/** One option of build_route: its value type decides the type of its default (absent when there is none: no limit). */
const OptionView = z.discriminatedUnion('value_type', [
  z.object({ ...optionBase, value_type: z.literal('enum'), default: z.string(), values: z.array(z.string()) }),
  z.object({ ...optionBase, value_type: z.literal('boolean'), default: z.boolean() }),
  z.object({
    ...optionBase,
    value_type: z.enum(['integer', 'number']),
    min: z.number(),
    max: z.number(),
    default: z.number().optional(),
  }),
]);

export const buildRouteOptions = defineOperation({
  name: 'get_build_route_options',
  summary: 'The options of build_route with their ranges and defaults, the limits, and which distances are used.',
  description:
    'Read it before build_route to know what `options` it takes: each option with its type, default and range (or values), the most orders and drivers a build takes, and whether travel times come from a road router (`osrm`, when ROUTER_URL is set) or from great-circle distances at `average_speed_kmh`. It changes nothing and refuses nothing but a missing token or a role without planning rights.',
  tag: TAG,
  roles: ROLES,
  business: true,
  rest: { method: 'GET', path: '/v3/client/build-route/options' },
  graphql: { name: 'clientBuildRouteOptions', kind: 'query' },
  mcp: { scope: 'routes:read', risk: 'low', servers: ['user', 'developer'] },
  input: z.object({}).strict(),
  output: z.object({
    result: z.literal(true),
    options: z.array(OptionView),
    limits: z.object({ order_ids: z.number().int(), driver_ids: z.number().int() }),
    distances: z
      .enum(['great_circle', 'osrm'])
      .describe('osrm when ROUTER_URL is set (road times from its table service), else great_circle'),
    router_configured: z.boolean(),
  }),
  async handler(_input, ctx) {
    const describe = (name: keyof typeof Options.shape) => Options.shape[name].description ?? name;
    return {
      result: true as const,
      options: [
        {
          name: 'objective',
          value_type: 'enum' as const,
          default: O.objective.default,
          values: [...O.objective.values],
          description: describe('objective'),
        },
        {
          name: 'time_limit_seconds',
          value_type: 'integer' as const,
          ...range(O.time_limit_seconds),
          description: describe('time_limit_seconds'),
        },
        {
          name: 'balance',
          value_type: 'boolean' as const,
          default: O.balance.default,
          description: describe('balance'),
        },
        {
          name: 'average_speed_kmh',
          value_type: 'number' as const,
          ...range(O.average_speed_kmh),
          description: describe('average_speed_kmh'),
        },
        {
          name: 'default_service_minutes',
          value_type: 'integer' as const,
          ...range(O.default_service_minutes),
          description: describe('default_service_minutes'),
        },
        {
          name: 'max_route_minutes',
          value_type: 'integer' as const,
          ...range(O.max_route_minutes),
          description: describe('max_route_minutes'),
        },
        {
          name: 'reoptimize',
          value_type: 'boolean' as const,
          default: O.reoptimize.default,
          description: describe('reoptimize'),
        },
      ],
      limits: { order_ids: BUILD_LIMITS.orders, driver_ids: BUILD_LIMITS.drivers },
      distances: ctx.config.router ? ('osrm' as const) : ('great_circle' as const),
      router_configured: ctx.config.router !== null,
    };
  },
});

const range = (r: { min: number; max: number; default: number | null }) => ({
  min: r.min,
  max: r.max,
  ...(r.default === null ? {} : { default: r.default }),
});
