/**
 * The route build (docs/routes.md, Building routes): imported by the API (to start it, cancel it and ask its
 * progress) and by the workflow. Workflow id `build-route-<build id>` on its own task queue, so that a deployment can
 * give the solver's child processes workers of their own. The problem and the plan never cross into history: the
 * activities keep them in route_build, which is also the read model.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';

export const BUILD_ROUTE_WORKFLOW = 'buildRouteWorkflow';
/** The task queue of the build and its activities (the solver runs in the activity's process). */
export const ROUTES_QUEUE = 'tms-routes';
export const buildRouteWorkflowId = (buildId: number): string => `build-route-${buildId}`;

export interface BuildRouteInput {
  buildId: number;
  businessId: number;
}

/** Where the build is; `preparing` until the checks are done, `stored` once the routes are written. */
export type BuildState = 'preparing' | 'solving' | 'storing' | 'done' | 'failed' | 'cancelled' | 'nothing_to_plan';

/** The process's view of the build, as the query answers it; the API adds the elapsed time. */
export interface BuildProgress {
  buildId: number;
  state: BuildState;
  /** ISO time the solve began; null before. */
  startedAt: string | null;
  timeLimitSeconds: number;
  orders: number;
  drivers: number;
}

export const progressQuery = defineQuery<BuildProgress>('progress');

/**
 * Asks the build to stop: accepted only while it prepares or solves (then it stores nothing and ends cancelled),
 * rejected with the failure type BUILD_FINISHED once it has begun to store or has ended.
 */
export const cancelUpdate = defineUpdate<true>('cancel');
export const BUILD_FINISHED_FAILURE = 'BUILD_FINISHED';

/** What prepareBuild found: what is planned and how long the solver may search. */
export interface PreparedBuild {
  orders: number;
  drivers: number;
  timeLimitSeconds: number;
}

export type BuildOutcome =
  | { outcome: 'done' }
  | { outcome: 'cancelled' }
  | { outcome: 'nothing_to_plan' }
  | { outcome: 'failed'; error: string };

/** The activities, as they cross into history (activities.ts implements them). */
export type RoutesActivities = {
  /** Marks the build solving and answers what it plans; null when nothing is left to plan. */
  prepareBuild(buildId: number): Promise<PreparedBuild | null>;
  /**
   * Builds the problem from the orders and drivers, asks the distances and runs the solver (heartbeating; a
   * cancellation kills the solver), and keeps the plan and its summary in route_build. Answers nothing: the plan
   * stays out of history.
   */
  solveBuild(buildId: number): Promise<void>;
  /**
   * Writes the plan in one transaction: routes, stops, orders' route and driver, trail rows and order.assigned;
   * an order no longer plannable is left out with its reason. Idempotent: a build stored already is left as it is.
   */
  storeBuild(buildId: number): Promise<void>;
  /** Ends the build (failed, cancelled); a build stored already stays done. */
  finishBuild(buildId: number, outcome: BuildOutcome): Promise<void>;
};
