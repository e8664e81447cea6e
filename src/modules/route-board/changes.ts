/**
 * The board's changes as its activities write them (docs/routes.md, "The route board"): each under the board's row
 * lock, in one transaction with its route_board.changed events. A change the rows refuse writes nothing and answers
 * the refusal.
 */
import { createHash } from 'node:crypto';
import type { Em } from '../../platform/db/orm.ts';
import { insertOutboxEvents } from '../../platform/db/outbox.ts';
import { appendOrderTrail, ORDER_OPERATION, orderLifecycleEvent, type OrderActor } from '../orders/index.ts';
import type { BoardChange, BoardChangeResult, BoardSnapshot } from './contract.ts';
import {
  awardAtClose,
  HOLDING,
  LIVE,
  OPEN_LIVE,
  phaseRefusal,
  positionOf,
  type BoardAction,
  type BoardRefusal,
  type BoardStatus,
  type ClaimStatus,
  type SeatStatus,
} from './domain.ts';
import { boardChangedEvent } from './events.ts';
import {
  boardClaims,
  boardSeats,
  driverAvailable,
  findChangeResult,
  insertClaim,
  lockBoard,
  lockRoute,
  moveRouteToDriver,
  nextEventSeq,
  saveChangeResult,
  setBoardStatus,
  updateClaim,
  updateSeat,
  type BoardRow,
  type ClaimRow,
  type MovedOrder,
  type SeatRow,
} from './repo.ts';

class Refused extends Error {
  readonly code: BoardRefusal;
  constructor(code: BoardRefusal) {
    super(code);
    this.code = code;
  }
}

/** One board's change in one transaction: rows changed as it goes, events written at the end. */
class BoardTx {
  private readonly changes: { action: BoardAction; seatId: number | null; claimId: number | null }[] = [];

  readonly tx: Em;
  readonly board: BoardRow;
  readonly seats: SeatRow[];
  readonly claims: ClaimRow[];

  constructor(tx: Em, board: BoardRow, seats: SeatRow[], claims: ClaimRow[]) {
    this.tx = tx;
    this.board = board;
    this.seats = seats;
    this.claims = claims;
  }

  seat(id: number | null): SeatRow | undefined {
    return this.seats.find((s) => s.id === id);
  }

  claim(id: number | null): ClaimRow | undefined {
    return this.claims.find((c) => c.id === id);
  }

  async addClaim(contractorId: number, seatId: number | null, status: ClaimStatus): Promise<ClaimRow> {
    const c = await insertClaim(this.tx, {
      boardId: this.board.id,
      businessId: this.board.business_id,
      seatId,
      contractorId,
      status,
    });
    this.claims.push(c);
    this.changes.push({ action: status, seatId, claimId: c.id });
    return c;
  }

  async setClaim(c: ClaimRow, status: ClaimStatus, seatId = c.seat_id, reason: string | null = null): Promise<void> {
    c.status = status;
    c.seat_id = seatId;
    if (reason !== null) c.reason = reason;
    await updateClaim(this.tx, c.id, status, seatId, reason);
    this.changes.push({ action: status, seatId, claimId: c.id });
  }

  async setSeat(s: SeatRow, status: SeatStatus, claimId: number | null, driverId = s.driver_id): Promise<void> {
    s.status = status;
    s.claim_id = claimId;
    s.driver_id = driverId;
    await updateSeat(this.tx, s.id, { status, claimId, driverId });
  }

  async setBoard(status: BoardStatus, action: BoardAction | null, reason: string | null = null): Promise<void> {
    this.board.status = status;
    await setBoardStatus(this.tx, this.board.id, status, reason);
    if (action) this.changes.push({ action, seatId: null, claimId: null });
  }

  /** The seat's holder left: its first standby takes it (promoted), or the seat is open again. */
  async promoteNext(s: SeatRow): Promise<void> {
    const next = this.claims.filter((c) => c.seat_id === s.id && c.status === 'standby').sort((a, b) => a.id - b.id)[0];
    if (next) {
      await this.setSeat(s, 'claimed', next.id);
      await this.setClaim(next, 'promoted');
    } else await this.setSeat(s, 'open', null);
  }

  position(c: ClaimRow): number | null {
    return positionOf(this.claims, (id) => this.seat(id)?.claim_id ?? null, c);
  }

  settleReady(): boolean {
    return this.board.status === 'closed' && !this.seats.some((s) => s.status === 'awarded');
  }

  snapshot(claimId: number | null = null): BoardSnapshot {
    return { boardId: this.board.id, status: this.board.status, claimId, settleReady: this.settleReady() };
  }

  /** Writes the events of the changes made, each showing the board, its seat and its claim as they are now. */
  async flushEvents(): Promise<void> {
    const occurredAt = new Date();
    const events = [];
    for (const ch of this.changes) {
      const claim = this.claim(ch.claimId) ?? null;
      events.push(
        boardChangedEvent({
          businessId: this.board.business_id,
          board: { id: this.board.id, status: this.board.status, route_date: this.board.route_date },
          action: ch.action,
          seat: this.seat(ch.seatId) ?? null,
          claim,
          position: claim && this.position(claim),
          seq: await nextEventSeq(this.tx, this.board.id),
          occurredAt,
        }),
      );
    }
    await insertOutboxEvents(this.tx, events);
  }
}

/** Runs `work` on the locked board and writes its events; a refusal rolls everything back. */
async function onBoard<T>(
  em: Em,
  boardId: number,
  work: (b: BoardTx) => Promise<T>,
): Promise<T | { refused: BoardRefusal }> {
  try {
    return await em.transactional(async (tx) => {
      const board = await lockBoard(tx, boardId);
      if (!board) throw new Error(`route board ${boardId} does not exist`);
      const b = new BoardTx(tx, board, await boardSeats(tx, boardId), await boardClaims(tx, boardId));
      const out = await work(b);
      await b.flushEvents();
      return out;
    });
  } catch (err) {
    if (err instanceof Refused) return { refused: err.code };
    throw err;
  }
}

const refuse = (code: BoardRefusal): never => {
  throw new Refused(code);
};

export async function openBoard(em: Em, boardId: number): Promise<BoardSnapshot> {
  return (await onBoard(em, boardId, async (b) => {
    if (b.board.status === 'scheduled') await b.setBoard('open', 'board_opened');
    return b.snapshot();
  })) as BoardSnapshot;
}

/** The award: held seats to their holders, free seats to pooled claims in arrival order, the rest lost. */
export async function closeBoard(em: Em, boardId: number): Promise<BoardSnapshot> {
  return (await onBoard(em, boardId, async (b) => {
    if (b.board.status !== 'open') return b.snapshot();
    await b.setBoard('closed', 'board_closed');
    const { awards, lost } = awardAtClose(
      b.seats.map((s) => ({ id: s.id, holder: s.claim_id })),
      b.claims.map((c) => ({ id: c.id, status: c.status })),
    );
    for (const a of awards) {
      const seat = b.seat(a.seatId)!;
      if (a.claimId === null) {
        await b.setSeat(seat, 'unfilled', null);
        continue;
      }
      await b.setSeat(seat, 'awarded', a.claimId);
      await b.setClaim(b.claim(a.claimId)!, 'awarded', seat.id);
    }
    for (const id of lost) await b.setClaim(b.claim(id)!, 'lost');
    return b.snapshot();
  })) as BoardSnapshot;
}

/** Seats whose contractor named a driver are settled; an award still without a driver is lost, its seat unfilled. */
export async function settleBoard(em: Em, boardId: number): Promise<BoardSnapshot> {
  return (await onBoard(em, boardId, async (b) => {
    if (b.board.status !== 'closed') return b.snapshot();
    await b.setBoard('settled', null);
    for (const seat of b.seats) {
      const holder = b.claim(seat.claim_id);
      if (seat.status === 'assigned' && holder) {
        await b.setSeat(seat, 'settled', holder.id);
        await b.setClaim(holder, 'settled');
      } else if (seat.status === 'awarded' && holder) {
        await b.setSeat(seat, 'unfilled', null);
        await b.setClaim(holder, 'lost');
      }
    }
    return b.snapshot();
  })) as BoardSnapshot;
}

/** A change of the process, once: a retry of a change already written answers what it answered then. */
export async function applyBoardChange(
  em: Em,
  boardId: number,
  changeId: string,
  change: BoardChange,
): Promise<BoardChangeResult> {
  return onBoard(em, boardId, async (b) => {
    const done = await findChangeResult(b.tx, boardId, changeId);
    if (done) return done;
    const result = await judgeChange(b, change, changeId);
    await saveChangeResult(b.tx, boardId, changeId, result);
    return result;
  });
}

async function judgeChange(b: BoardTx, change: BoardChange, changeId: string): Promise<BoardSnapshot> {
  const phase = phaseRefusal(change.kind, b.board.status);
  if (phase) refuse(phase);
  switch (change.kind) {
    case 'claim':
      return b.snapshot((await claim(b, change.contractorId, change.seatId)).id);
    case 'withdraw': {
      const c = b.claim(change.claimId);
      if (!c || c.contractor_id !== change.contractorId) return refuse('CLAIM_NOT_FOUND');
      if (!OPEN_LIVE.includes(c.status)) refuse('CLAIM_NOT_LIVE');
      await leave(b, c, 'withdrawn', null);
      return b.snapshot(c.id);
    }
    case 'veto': {
      const c = b.claim(change.claimId) ?? refuse('CLAIM_NOT_FOUND');
      const vetoable: readonly ClaimStatus[] = b.board.status === 'open' ? OPEN_LIVE : ['awarded'];
      if (!vetoable.includes(c.status)) refuse('CLAIM_NOT_LIVE');
      await leave(b, c, 'vetoed', change.reason);
      return b.snapshot(c.id);
    }
    case 'replace': {
      const seat = b.seat(change.seatId) ?? refuse('SEAT_NOT_FOUND');
      const c = b.claim(change.claimId) ?? refuse('CLAIM_NOT_FOUND');
      const candidate = c.status === 'pooled' || (c.status === 'standby' && c.seat_id === seat.id);
      if (!candidate) refuse('CLAIM_NOT_LIVE');
      if (
        b.claims.some(
          (o) =>
            o.id !== c.id && o.seat_id === seat.id && o.contractor_id === c.contractor_id && LIVE.includes(o.status),
        )
      )
        refuse('ALREADY_CLAIMED');
      const holder = b.claim(seat.claim_id);
      if (holder) await b.setClaim(holder, 'replaced');
      await b.setSeat(seat, 'claimed', c.id);
      await b.setClaim(c, 'promoted', seat.id);
      return b.snapshot(c.id);
    }
    case 'assign': {
      const c = b.claim(change.claimId);
      if (!c || c.contractor_id !== change.contractorId) return refuse('CLAIM_NOT_FOUND');
      if (c.status !== 'awarded' && c.status !== 'assigned') refuse('CLAIM_NOT_AWARDED');
      const seat = b.seat(c.seat_id)!;
      const route = await lockRoute(b.tx, seat.route_id);
      if (route?.status !== 'planned') return refuse('ROUTE_NOT_PLANNED');
      if (!(await driverAvailable(b.tx, b.board.business_id, change.driverId, seat.route_id)))
        refuse('DRIVER_NOT_AVAILABLE');
      if (route.driver_id !== change.driverId) {
        const moved = await moveRouteToDriver(
          b.tx,
          b.board.business_id,
          seat.route_id,
          route.driver_id,
          change.driverId,
        );
        await handOver(b.tx, moved, {
          routeId: seat.route_id,
          from: route.driver_id,
          to: change.driverId,
          actor: { userId: change.contractorId, role: 'contractor', source: 'api', ip: null },
          eventKey: `RB${b.board.id}.${createHash('sha256').update(changeId).digest('hex').slice(0, 12)}`,
        });
      }
      seat.route_driver_id = change.driverId;
      await b.setSeat(seat, 'assigned', c.id, change.driverId);
      await b.setClaim(c, 'assigned');
      return b.snapshot(c.id);
    }
    case 'cancel': {
      await b.setBoard('cancelled', 'board_cancelled', change.reason);
      for (const c of b.claims.filter((o) => LIVE.includes(o.status))) await b.setClaim(c, 'displaced');
      for (const s of b.seats) await b.setSeat(s, 'cancelled', s.claim_id);
      return b.snapshot();
    }
    case 'close':
      throw new Error('closing is the process’s own step');
  }
}

/**
 * A named driver takes the route's orders over from the previous one: a handover, as in dispatch. Per order, trail
 * 3082 (previous driver, reason handover) and 3081 (new driver, source manual: a person named the driver), and
 * order.unassigned (reason handover) then order.assigned (source manual) to the lifecycle receivers.
 */
async function handOver(
  tx: Em,
  orders: readonly MovedOrder[],
  h: { routeId: number; from: number; to: number; actor: OrderActor; eventKey: string },
): Promise<void> {
  const same = (o: MovedOrder) => ({
    orderId: o.id,
    businessId: o.businessId,
    actor: h.actor,
    beforeStatus: o.statusId,
  });
  await appendOrderTrail(
    tx,
    orders.flatMap((o) => [
      {
        ...same(o),
        operationType: ORDER_OPERATION.DRIVER_UNASSIGNED,
        afterStatus: o.statusId,
        details: { previous_driver_id: h.from, reason: 'handover', route_id: h.routeId },
      },
      {
        ...same(o),
        operationType: ORDER_OPERATION.DRIVER_ASSIGNED,
        afterStatus: o.statusId,
        details: { driver_id: h.to, route_id: h.routeId, source: 'manual', via: 'route_board' },
      },
    ]),
  );
  await insertOutboxEvents(
    tx,
    orders.flatMap((o) => [
      orderLifecycleEvent(o, 'order.unassigned', `OLC-${h.eventKey}.${o.id}.unassigned`, {
        previous_driver_id: h.from,
        reason: 'handover',
      }),
      orderLifecycleEvent(o, 'order.assigned', `OLC-${h.eventKey}.${o.id}.assigned`, {
        driver_id: h.to,
        source: 'manual',
      }),
    ]),
  );
}

/** A claim on a seat (claimed when the seat is free, standby behind its holder) or on any seat (pooled). */
async function claim(b: BoardTx, contractorId: number, seatId: number | null): Promise<ClaimRow> {
  const mine = b.claims.filter((c) => c.contractor_id === contractorId);
  if (seatId === null) {
    if (mine.some((c) => c.status === 'pooled')) refuse('ALREADY_CLAIMED');
    return b.addClaim(contractorId, null, 'pooled');
  }
  const seat = b.seat(seatId) ?? refuse('SEAT_NOT_FOUND');
  const onSeat = mine.filter((c) => c.seat_id === seatId);
  if (onSeat.some((c) => c.status === 'vetoed')) refuse('CLAIM_VETOED');
  if (onSeat.some((c) => LIVE.includes(c.status))) refuse('ALREADY_CLAIMED');
  if (seat.claim_id === null) {
    const c = await b.addClaim(contractorId, seatId, 'claimed');
    await b.setSeat(seat, 'claimed', c.id);
    return c;
  }
  return b.addClaim(contractorId, seatId, 'standby');
}

/** The claim ends (withdrawn or vetoed); a holder's seat goes to its first standby while open, else stays unfilled. */
async function leave(b: BoardTx, c: ClaimRow, status: 'withdrawn' | 'vetoed', reason: string | null): Promise<void> {
  const seat = b.seat(c.seat_id);
  const held = seat?.claim_id === c.id && (HOLDING.includes(c.status) || c.status === 'awarded');
  await b.setClaim(c, status, c.seat_id, reason);
  if (!seat || !held) return;
  if (b.board.status === 'open') await b.promoteNext(seat);
  else await b.setSeat(seat, 'unfilled', null);
}
