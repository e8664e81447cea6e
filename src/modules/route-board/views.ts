import { z } from 'zod';
import { routeBoardWorkflowId } from './contract.ts';
import { BOARD_STATUSES, CLAIM_STATUSES, positionOf, SEAT_STATUSES } from './domain.ts';
import type { BoardRow, ClaimRow, SeatRow } from './repo.ts';

const id = () => z.number().int();
const time = () => z.string().describe('ISO 8601');

export const ClaimView = z.object({
  id: id(),
  seat_id: id().nullable().describe('The seat claimed; null for a pooled claim not (yet) placed'),
  contractor_id: id(),
  status: z.enum(CLAIM_STATUSES),
  position: id()
    .nullable()
    .describe('1: holds the seat; 2 and on: standby in line; in the pool: its place; null once ended'),
  reason: z.string().nullable().describe("The business's reason for a veto"),
  created_at: time(),
  updated_at: time(),
});

export const SeatView = z.object({
  id: id(),
  route_id: id(),
  status: z.enum(SEAT_STATUSES),
  claim_id: id().nullable().describe('The claim holding the seat; shown to a contractor only when it is theirs'),
  driver_id: id().nullable().describe('The driver the contractor named; null until then'),
  route_driver_id: id().describe("The route's driver now: the one it was planned for, or the contractor's once named"),
});

const BoardFields = {
  id: id(),
  route_date: z.string().describe('YYYY-MM-DD'),
  status: z.enum(BOARD_STATUSES),
  opens_at: time(),
  closes_at: time(),
  settles_at: time(),
  opened_at: time().nullable(),
  closed_at: time().nullable(),
  ended_at: time().nullable(),
  cancel_reason: z.string().nullable(),
  workflow_id: z.string(),
  created_at: time(),
};

export const BoardSummaryView = z.object({ ...BoardFields, seat_count: id() });
export const BoardView = z.object({ ...BoardFields, seats: z.array(SeatView), claims: z.array(ClaimView) });

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

function boardFields(b: BoardRow) {
  return {
    id: b.id,
    route_date: b.route_date,
    status: b.status,
    opens_at: iso(b.opens_at)!,
    closes_at: iso(b.closes_at)!,
    settles_at: iso(b.settles_at)!,
    opened_at: iso(b.opened_at),
    closed_at: iso(b.closed_at),
    ended_at: iso(b.ended_at),
    cancel_reason: b.cancel_reason,
    workflow_id: routeBoardWorkflowId(b.id),
    created_at: iso(b.created_at)!,
  };
}

export const presentSummary = (b: BoardRow & { seats: number }): z.input<typeof BoardSummaryView> => ({
  ...boardFields(b),
  seat_count: b.seats,
});

/** The board; a contractor sees every seat but only its own claims. */
export function presentBoard(
  b: BoardRow,
  seats: SeatRow[],
  claims: ClaimRow[],
  contractorId: number | null,
): z.input<typeof BoardView> {
  const holder = (seatId: number | null) => seats.find((s) => s.id === seatId)?.claim_id ?? null;
  const mine = (c: ClaimRow) => contractorId === null || c.contractor_id === contractorId;
  const own = new Set(claims.filter(mine).map((c) => c.id));
  return {
    ...boardFields(b),
    seats: seats.map((s) => ({
      id: s.id,
      route_id: s.route_id,
      status: s.status,
      claim_id: s.claim_id !== null && (contractorId === null || own.has(s.claim_id)) ? s.claim_id : null,
      driver_id: s.driver_id,
      route_driver_id: s.route_driver_id,
    })),
    claims: claims.filter(mine).map((c) => ({
      id: c.id,
      seat_id: c.seat_id,
      contractor_id: c.contractor_id,
      status: c.status,
      position: positionOf(claims, holder, c),
      reason: c.reason,
      created_at: iso(c.created_at)!,
      updated_at: iso(c.updated_at)!,
    })),
  };
}
