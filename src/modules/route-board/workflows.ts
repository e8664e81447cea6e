import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  currentUpdateInfo,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import {
  boardChangeUpdate,
  boardStatusQuery,
  type BoardChange,
  type BoardSnapshot,
  type RouteBoardActivities,
  type RouteBoardInput,
} from './contract.ts';
import { ended, laterStatus, phaseRefusal, type BoardRefusal, type BoardStatus } from './domain.ts';

const { openBoard, closeBoard, settleBoard, applyBoardChange } = proxyActivities<RouteBoardActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const refuse = (code: BoardRefusal, message: string) =>
  ApplicationFailure.create({ type: code, message: `${code}: ${message}`, nonRetryable: true });

const untilMs = (iso: string) => Math.max(1, Date.parse(iso) - Date.now());

/**
 * A route board (docs/routes.md, "The route board"): scheduled until `opensAt`, open for claims until `closesAt` (or
 * the business closes it earlier), then closed: seats awarded, and the contractors name their drivers until
 * `settlesAt`, or until every awarded seat has one; then settled. Cancelling ends it from any phase before settled.
 * Each change is an update judged here against the phase and by its activity against the rows, written with its
 * route_board.changed events in one transaction. The waits are server timers: a worker's restart loses nothing.
 */
export async function routeBoardWorkflow(input: RouteBoardInput): Promise<BoardStatus> {
  let status: BoardStatus = 'scheduled';
  let settleReady = false;
  let closeAsked = false;
  // True while the board's own phase activity (open, close, settle) runs: its rows may already say the next phase
  // while `status` does not yet, so a change that comes then waits for it and is judged against the phase it sees.
  let moving = false;
  const snapshot = (claimId: number | null = null): BoardSnapshot => ({
    boardId: input.boardId,
    status,
    claimId,
    settleReady,
  });
  const learn = (s: BoardSnapshot) => {
    status = laterStatus(status, s.status);
    if (s.settleReady) settleReady = true;
  };

  setHandler(boardStatusQuery, () => snapshot());
  setHandler(
    boardChangeUpdate,
    async (change: BoardChange) => {
      if (moving) {
        await condition(() => !moving);
        const refused = phaseRefusal(change.kind, status);
        if (refused) throw refuse(refused, `board ${input.boardId} is ${status}`);
      }
      if (change.kind === 'close') {
        closeAsked = true;
        await condition(() => status !== 'open');
        return snapshot();
      }
      const changeId = currentUpdateInfo()?.id ?? `${change.kind}-${Date.now()}`;
      const result = await applyBoardChange({ boardId: input.boardId, changeId, change });
      if ('refused' in result) throw refuse(result.refused, `board ${input.boardId} refused ${change.kind}`);
      learn(result);
      return { ...snapshot(result.claimId) };
    },
    {
      validator: (change: BoardChange) => {
        if (moving) return;
        const refused = phaseRefusal(change.kind, status);
        if (refused) throw refuse(refused, `board ${input.boardId} is ${status}`);
      },
    },
  );

  const phase = async (activity: typeof openBoard) => {
    moving = true;
    try {
      return await activity({ boardId: input.boardId });
    } finally {
      moving = false;
    }
  };

  const end = async (): Promise<BoardStatus> => {
    await condition(allHandlersFinished);
    return status;
  };

  if (await condition(() => ended(status), untilMs(input.opensAt))) return end();
  learn(await phase(openBoard));
  if (ended(status)) return end();

  await condition(() => ended(status) || closeAsked, untilMs(input.closesAt));
  if (ended(status)) return end();
  learn(await phase(closeBoard));
  if (ended(status)) return end();

  await condition(() => ended(status) || settleReady, untilMs(input.settlesAt));
  if (ended(status)) return end();
  learn(await phase(settleBoard));
  return end();
}
