import type { WorkerDeps } from '../../platform/module.ts';
import { applyBoardChange, closeBoard, openBoard, settleBoard } from './changes.ts';
import type { RouteBoardActivities } from './contract.ts';

export function createRouteBoardActivities(deps: WorkerDeps): RouteBoardActivities {
  const em = () => deps.orm.em.fork();
  return {
    openBoard: ({ boardId }) => openBoard(em(), boardId),
    closeBoard: ({ boardId }) => closeBoard(em(), boardId),
    settleBoard: ({ boardId }) => settleBoard(em(), boardId),
    applyBoardChange: ({ boardId, changeId, change }) => applyBoardChange(em(), boardId, changeId, change),
  };
}
