import {
  ActivityCancellationType,
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import {
  BUILD_FINISHED_FAILURE,
  cancelUpdate,
  progressQuery,
  type BuildOutcome,
  type BuildProgress,
  type BuildRouteInput,
  type RoutesActivities,
} from './contract.ts';

const RETRY = { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 5 };
const { prepareBuild, storeBuild } = proxyActivities<RoutesActivities>({
  startToCloseTimeout: '2 minutes',
  retry: RETRY,
});
/** finishBuild must happen, whatever the attempts: the read model would stay `solving` otherwise. */
const { finishBuild: finishBuildUntilDone } = proxyActivities<RoutesActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** A solve heartbeats every second: one missing for this long means its worker is gone, and it is run again. */
const SOLVE_HEARTBEAT_TIMEOUT = '10 seconds';
/** Beyond the solver's time limit: the distances (a road router) and the child's start. */
const SOLVE_MARGIN_SECONDS = 300;

/**
 * One route build (docs/routes.md, Building routes): prepare, solve (cancellable: the activity's cancellation kills
 * the solver and the process waits for it to be gone), store (not cancellable: once begun, the routes are written
 * whole). The update `cancel` is accepted only while it prepares or solves: the solve scope is cancelled and, even
 * when the solve had just finished, nothing is stored. Once storing it is rejected (BUILD_FINISHED), so that the
 * cancel operation's answer is the truth. A cancellation of the whole process behaves alike until the store.
 */
export async function buildRouteWorkflow(input: BuildRouteInput): Promise<BuildOutcome> {
  const progress: BuildProgress = {
    buildId: input.buildId,
    state: 'preparing',
    startedAt: null,
    timeLimitSeconds: 0,
    orders: 0,
    drivers: 0,
  };
  setHandler(progressQuery, () => progress);
  const end = async (outcome: BuildOutcome): Promise<BuildOutcome> => {
    await CancellationScope.nonCancellable(() => finishBuildUntilDone(input.buildId, outcome));
    progress.state = outcome.outcome;
    return outcome;
  };

  const solving = new CancellationScope();
  let cancelled = false;
  setHandler(
    cancelUpdate,
    () => {
      cancelled = true;
      solving.cancel();
      return true as const;
    },
    {
      validator: () => {
        if (cancelled || !['preparing', 'solving'].includes(progress.state))
          throw ApplicationFailure.create({
            type: BUILD_FINISHED_FAILURE,
            message: `route build ${input.buildId} is ${progress.state}: it can no longer be cancelled`,
            nonRetryable: true,
          });
      },
    },
  );

  try {
    const prepared = await solving.run(async () => {
      const ready = await prepareBuild(input.buildId);
      if (!ready || cancelled) return ready;
      Object.assign(progress, ready, { state: 'solving', startedAt: new Date().toISOString() });
      const { solveBuild } = proxyActivities<RoutesActivities>({
        startToCloseTimeout: `${ready.timeLimitSeconds + SOLVE_MARGIN_SECONDS} seconds`,
        heartbeatTimeout: SOLVE_HEARTBEAT_TIMEOUT,
        cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
        retry: RETRY,
      });
      await solveBuild(input.buildId);
      return ready;
    });
    // A cancel accepted while solving wins over a solve that finished at the same moment.
    if (cancelled) return await end({ outcome: 'cancelled' });
    if (!prepared) return await end({ outcome: 'nothing_to_plan' });
  } catch (err) {
    if (cancelled || isCancellation(err)) return await end({ outcome: 'cancelled' });
    return await end({ outcome: 'failed', error: failureMessage(err) });
  }
  progress.state = 'storing';
  try {
    await CancellationScope.nonCancellable(() => storeBuild(input.buildId));
  } catch (err) {
    return await end({ outcome: 'failed', error: failureMessage(err) });
  }
  return await end({ outcome: 'done' });
}

/** The innermost message of a failure (an activity's failure wraps the error the activity threw). */
function failureMessage(err: unknown): string {
  let e: unknown = err;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  return e instanceof Error ? e.message : String(e);
}
