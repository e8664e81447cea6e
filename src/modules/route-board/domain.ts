/**
 * The route board's states and rule (docs/routes.md, "The route board"): pure, shared by the workflow (which judges
 * an update against the board's phase) and the activities (which judge it against the rows).
 */

export const BOARD_STATUSES = ['scheduled', 'open', 'closed', 'settled', 'cancelled'] as const;
export type BoardStatus = (typeof BOARD_STATUSES)[number];

export const SEAT_STATUSES = ['open', 'claimed', 'awarded', 'assigned', 'settled', 'unfilled', 'cancelled'] as const;
export type SeatStatus = (typeof SEAT_STATUSES)[number];

export const CLAIM_STATUSES = [
  'claimed',
  'standby',
  'pooled',
  'promoted',
  'withdrawn',
  'vetoed',
  'replaced',
  'assigned',
  'awarded',
  'lost',
  'displaced',
  'settled',
] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** The route_board.changed actions: a claim's new status, or what happened to the board. */
export type BoardAction = ClaimStatus | 'board_opened' | 'board_closed' | 'board_cancelled';

/** A claim that holds its seat while the board is open. */
export const HOLDING: readonly ClaimStatus[] = ['claimed', 'promoted'];
/** A claim still in the running while the board is open. */
export const OPEN_LIVE: readonly ClaimStatus[] = ['claimed', 'promoted', 'standby', 'pooled'];
/** Every claim that has not ended: the open board's, and an award with or without its driver. */
export const LIVE: readonly ClaimStatus[] = [...OPEN_LIVE, 'awarded', 'assigned'];

/** The board's phases in order; cancelled is final from any phase before settled. */
const RANK: Record<BoardStatus, number> = { scheduled: 0, open: 1, closed: 2, settled: 3, cancelled: 4 };

/** The later of two statuses the process learnt (activities may answer in another order than their commits). */
export const laterStatus = (a: BoardStatus, b: BoardStatus): BoardStatus => (RANK[b] > RANK[a] ? b : a);

export const ended = (s: BoardStatus): boolean => s === 'settled' || s === 'cancelled';

/**
 * The refusals of a board change, each a failure type of the update: an error code of the module (errorCodes.ts), or
 * SEAT_NOT_FOUND and CLAIM_NOT_FOUND, answered NOT_FOUND.
 */
export const BOARD_REFUSALS = [
  'BOARD_NOT_OPEN',
  'BOARD_CLOSED',
  'BOARD_ENDED',
  'ALREADY_CLAIMED',
  'CLAIM_VETOED',
  'CLAIM_NOT_LIVE',
  'CLAIM_NOT_AWARDED',
  'DRIVER_NOT_AVAILABLE',
  'ROUTE_NOT_PLANNED',
  'SEAT_NOT_FOUND',
  'CLAIM_NOT_FOUND',
] as const;
export type BoardRefusal = (typeof BOARD_REFUSALS)[number];

/** The phase a change needs; null when the board's phase allows it. */
export function phaseRefusal(
  kind: 'claim' | 'withdraw' | 'replace' | 'veto' | 'assign' | 'close' | 'cancel',
  status: BoardStatus,
): BoardRefusal | null {
  if (ended(status)) return 'BOARD_ENDED';
  switch (kind) {
    case 'claim':
    case 'withdraw':
    case 'replace':
    case 'close':
      return status === 'open' ? null : status === 'scheduled' ? 'BOARD_NOT_OPEN' : 'BOARD_CLOSED';
    case 'veto':
      return status === 'scheduled' ? 'BOARD_NOT_OPEN' : null;
    case 'assign':
      return status === 'closed' ? null : 'BOARD_NOT_OPEN';
    case 'cancel':
      return null;
  }
}

export interface SeatAtClose {
  id: number;
  /** The claim holding the seat (claimed or promoted), if any. */
  holder: number | null;
}
export interface ClaimAtClose {
  id: number;
  status: ClaimStatus;
}

/**
 * The award at close: each held seat goes to its holder; the seats nobody holds are filled, in seat order, by the
 * pooled claims in the order they came; every other claim still in the running (standbys, pooled claims left over)
 * is lost. Answers each seat's winner (null: unfilled) and the claims lost.
 */
export function awardAtClose(
  seats: readonly SeatAtClose[],
  claims: readonly ClaimAtClose[],
): { awards: { seatId: number; claimId: number | null; pooled: boolean }[]; lost: number[] } {
  const pool = claims
    .filter((c) => c.status === 'pooled')
    .map((c) => c.id)
    .sort((a, b) => a - b);
  const won = new Set<number>();
  const awards = [...seats]
    .sort((a, b) => a.id - b.id)
    .map((s) => {
      if (s.holder !== null) {
        won.add(s.holder);
        return { seatId: s.id, claimId: s.holder, pooled: false };
      }
      const next = pool.shift() ?? null;
      if (next !== null) won.add(next);
      return { seatId: s.id, claimId: next, pooled: next !== null };
    });
  const lost = claims
    .filter((c) => OPEN_LIVE.includes(c.status) && !won.has(c.id))
    .map((c) => c.id)
    .sort((a, b) => a - b);
  return { awards, lost };
}

/**
 * A claim's place: 1 for the claim holding its seat, 2 and on for its standbys in arrival order, its place in the
 * pool for a pooled claim; null once it has ended.
 */
export function positionOf(
  claims: readonly { id: number; seat_id: number | null; status: ClaimStatus }[],
  holderOfSeat: (seatId: number | null) => number | null,
  c: { id: number; seat_id: number | null; status: ClaimStatus },
): number | null {
  if (!LIVE.includes(c.status)) return null;
  if (c.status === 'pooled') return claims.filter((o) => o.status === 'pooled' && o.id <= c.id).length;
  if (holderOfSeat(c.seat_id) === c.id) return 1;
  return 1 + claims.filter((o) => o.seat_id === c.seat_id && o.status === 'standby' && o.id <= c.id).length;
}
