/**
 * route_board.changed (declared by the orders module with the other tenant events, sent to route_board_webhook_url):
 * one event per change of a seat's claim or of the board, each with its own id RBC-<board id>.<seq>, written to the
 * outbox in the transaction of the change. The business's merchant-level settings receive it; a customer override
 * never does (the event concerns no customer account).
 */
import type { NewOutboxEvent } from '../../platform/db/outbox.ts';
import type { BoardAction, BoardStatus } from './domain.ts';
import type { ClaimRow, SeatRow } from './repo.ts';

export const ROUTE_BOARD_EVENT = 'route_board.changed';

export const boardEventId = (boardId: number, seq: number): string => `RBC-${boardId}.${seq}`;

export interface BoardEventFacts {
  businessId: number;
  board: { id: number; status: BoardStatus; route_date: string };
  action: BoardAction;
  seat: SeatRow | null;
  claim: ClaimRow | null;
  /** The claim's place on its seat (1: it holds the seat, 2 and on: standbys) or in the pool; null once ended. */
  position: number | null;
  seq: number;
  occurredAt: Date;
}

export function boardChangedEvent(f: BoardEventFacts): NewOutboxEvent {
  const eventId = boardEventId(f.board.id, f.seq);
  return {
    businessId: f.businessId,
    customerId: null,
    eventId,
    eventType: ROUTE_BOARD_EVENT,
    referenceType: 'route_board',
    referenceId: String(f.board.id),
    payload: {
      event_id: eventId,
      event: ROUTE_BOARD_EVENT,
      business_id: f.businessId,
      occurred_at: f.occurredAt.toISOString(),
      data: {
        action: f.action,
        board: f.board,
        seat: f.seat && {
          id: f.seat.id,
          route_id: f.seat.route_id,
          status: f.seat.status,
          driver_id: f.seat.driver_id,
        },
        claim: f.claim && {
          id: f.claim.id,
          contractor_id: f.claim.contractor_id,
          status: f.claim.status,
          position: f.position,
        },
      },
    },
  };
}
