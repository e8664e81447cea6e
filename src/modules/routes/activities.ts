import { Context } from '@temporalio/activity';
import type { WorkerDeps } from '../../platform/module.ts';
import { planningDrivers } from '../drivers/index.ts';
import { aboardOf, buildProblem, dayUnderWay } from './buildProblem.ts';
import type { BuildOutcome, RoutesActivities } from './contract.ts';
import { endBuild, findBuild, moveBuild, saveSolve, type BuildRow } from './repo/builds.ts';
import { driversDay, planningFrame, planningOrders } from './repo/planning.ts';
import { travelMatrix } from './solver/matrix.ts';
import { runSolver } from './solver/run.ts';
import { storePlan } from './storePlan.ts';

/** The orders and drivers a build plans: those asked for, less those left out before the solve. */
function plannedIds(build: BuildRow): { orderIds: number[]; driverIds: number[] } {
  const out = (key: 'order_id' | 'driver_id', id: number) =>
    build.skipped.some((s) => key in s && (s as Record<string, unknown>)[key] === id);
  return {
    orderIds: build.request.order_ids.filter((id) => !out('order_id', id)),
    driverIds: build.request.driver_ids.filter((id) => !out('driver_id', id)),
  };
}

export function createRoutesActivities(deps: WorkerDeps): RoutesActivities {
  return {
    async prepareBuild(buildId) {
      const em = deps.orm.em.fork();
      const build = await findBuild(em, null, buildId);
      if (!build || !['queued', 'solving'].includes(build.status)) return null;
      const { orderIds, driverIds } = plannedIds(build);
      const day = build.request.options.reoptimize
        ? await driversDay(em, build.businessId, driverIds, build.request.date)
        : [];
      const pending = day.flatMap((d) => d.stops.filter((s) => s.status === 'pending' && s.orderId !== null));
      const orders = new Set([...orderIds, ...pending.map((s) => s.orderId!)]).size;
      if (orders === 0 || driverIds.length === 0) return null;
      await moveBuild(em, buildId, 'solving');
      return { orders, drivers: driverIds.length, timeLimitSeconds: build.request.options.time_limit_seconds };
    },

    async solveBuild(buildId) {
      const ctx = Context.current();
      const em = deps.orm.em.fork();
      const build = await findBuild(em, null, buildId);
      if (!build || build.status !== 'solving') return;
      const { request, businessId } = build;
      const { orderIds, driverIds } = plannedIds(build);
      const frame = await planningFrame(em, businessId, request.date);
      const drivers = (await planningDrivers(em, businessId, driverIds)).filter((d) => d.status === 'active');
      const day = request.options.reoptimize ? await driversDay(em, businessId, driverIds, request.date) : [];
      // What the drivers carry already stays with them; what they collected takes room to the end.
      const { pending, carrying, collected } = dayUnderWay(day);
      const orders = await planningOrders(em, businessId, [...new Set([...orderIds, ...pending])]);
      const collectedRows = await planningOrders(em, businessId, [...collected.values()].flat());
      const now = request.options.reoptimize ? new Date() : null;
      const problem = buildProblem({
        originAt: frame.originAt,
        date: request.date,
        timeZone: frame.timeZone,
        businessDepot: frame.depot,
        options: request.options,
        orders,
        carrying,
        aboard: aboardOf(collected, collectedRows),
        drivers,
        now,
      });
      ctx.heartbeat();
      const matrix = await travelMatrix(problem.locations, {
        speedKmh: request.options.average_speed_kmh,
        routerUrl: deps.config.router?.url ?? null,
        allowPrivate: deps.config.router?.allowPrivate ?? false,
        timeoutMs: deps.config.router?.timeoutMs,
        signal: ctx.cancellationSignal,
        heartbeat: () => ctx.heartbeat(),
      });
      ctx.heartbeat();
      const plan = await runSolver(
        { ...problem, matrix: { durations: matrix.durations, distances: matrix.distances } },
        { signal: ctx.cancellationSignal, heartbeat: (seconds) => ctx.heartbeat(seconds) },
      );
      await saveSolve(
        em,
        buildId,
        { ...plan, originAt: problem.originAt },
        {
          engine: plan.engine,
          seconds: plan.seconds,
          cost: plan.cost,
          distances: matrix.source,
          routes: plan.routes.length,
          unassigned: new Set(plan.unassigned.map((u) => u.orderId)).size,
          ...(matrix.routerError ? { router_error: matrix.routerError } : {}),
        },
      );
      deps.log.info({ buildId, routes: plan.routes.length, seconds: plan.seconds }, 'route build solved');
    },

    async storeBuild(buildId) {
      const em = deps.orm.em.fork();
      // Seen by the cancel operation: a build writing its routes is past cancelling.
      await moveBuild(em, buildId, 'storing');
      await storePlan(em, buildId);
    },

    async finishBuild(buildId: number, outcome: BuildOutcome) {
      const em = deps.orm.em.fork();
      if (outcome.outcome === 'done') return;
      if (outcome.outcome === 'cancelled') await endBuild(em, buildId, 'cancelled');
      else if (outcome.outcome === 'nothing_to_plan')
        await endBuild(em, buildId, 'failed', { error: 'NOTHING_TO_PLAN' });
      else await endBuild(em, buildId, 'failed', { error: outcome.error.slice(0, 2_000) });
    },
  };
}
