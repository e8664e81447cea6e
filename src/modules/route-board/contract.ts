/**
 * The route board's process (docs/routes.md, "The route board"): imported by the API (to start it and send the
 * changes) and by the workflow. Workflow id `route-board-<board id>`; the route_board rows are the read model its
 * activities write.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';
import type { BoardRefusal, BoardStatus } from './domain.ts';

export const ROUTE_BOARD_WORKFLOW = 'routeBoardWorkflow';
/** The task queue its workflow and activities run on. */
export const ROUTE_BOARD_QUEUE = PROCESS_QUEUE;
export const routeBoardWorkflowId = (boardId: number): string => `route-board-${boardId}`;

/** Started once the board is written; the times are the board's (ISO 8601), so a test sets them as it needs. */
export interface RouteBoardInput {
  boardId: number;
  businessId: number;
  opensAt: string;
  closesAt: string;
  settlesAt: string;
}

/** A change asked of the board; the workflow judges its phase, the activity the rows, in one transaction. */
export type BoardChange =
  | { kind: 'claim'; contractorId: number; seatId: number | null }
  | { kind: 'withdraw'; contractorId: number; claimId: number }
  | { kind: 'veto'; actorId: number; claimId: number; reason: string | null }
  | { kind: 'replace'; actorId: number; seatId: number; claimId: number }
  | { kind: 'assign'; contractorId: number; claimId: number; driverId: number }
  | { kind: 'close'; actorId: number }
  | { kind: 'cancel'; actorId: number; reason: string | null };

/** The process's view of the board, as updates and the query answer it; the API presents the rows. */
export interface BoardSnapshot {
  boardId: number;
  status: BoardStatus;
  /** The claim the change made or changed; null for a board change. */
  claimId: number | null;
  /** Closed and every awarded seat has its driver: nothing is left to wait for before settling. */
  settleReady: boolean;
}

/** A change's answer from the activity: the board after it, or the refusal (nothing written). */
export type BoardChangeResult = BoardSnapshot | { refused: BoardRefusal };

export const boardChangeUpdate = defineUpdate<BoardSnapshot, [BoardChange]>('change');
export const boardStatusQuery = defineQuery<BoardSnapshot>('status');

/** The failure types of the update's refusals: each the module's error code (BOARD_REFUSALS in domain.ts). */
export { BOARD_REFUSALS } from './domain.ts';

/** The activities, as they cross into history (activities.ts implements them). */
export type RouteBoardActivities = {
  /** scheduled -> open, board_opened; a board no longer scheduled is answered as it is. */
  openBoard(input: { boardId: number }): Promise<BoardSnapshot>;
  /** open -> closed: the award (awarded, lost), then board_closed; a board no longer open is answered as it is. */
  closeBoard(input: { boardId: number }): Promise<BoardSnapshot>;
  /** closed -> settled: seats with a driver settled, awards without one lost; idempotent. */
  settleBoard(input: { boardId: number }): Promise<BoardSnapshot>;
  /**
   * Judges a change against the locked rows and writes it with its events in one transaction, or refuses it.
   * `changeId` (the update's id) makes it idempotent: a retry after the commit answers what the first run answered.
   */
  applyBoardChange(input: { boardId: number; changeId: string; change: BoardChange }): Promise<BoardChangeResult>;
};
