/**
 * The route board's rows (route_board, route_board_seat, route_board_claim) and what it reads and changes of the
 * routes: SQL only, with typed rows.
 */
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Em } from '../../platform/db/orm.ts';
import type { BoardSnapshot } from './contract.ts';
import type { BoardStatus, ClaimStatus, SeatStatus } from './domain.ts';

export interface BoardRow {
  id: number;
  business_id: number;
  route_date: string;
  status: BoardStatus;
  opens_at: Date;
  closes_at: Date;
  settles_at: Date;
  cancel_reason: string | null;
  created_at: Date;
  opened_at: Date | null;
  closed_at: Date | null;
  ended_at: Date | null;
}

export interface SeatRow {
  id: number;
  board_id: number;
  route_id: number;
  status: SeatStatus;
  claim_id: number | null;
  driver_id: number | null;
  /** The route's driver now: the placeholder it was planned for, or the contractor's once named. */
  route_driver_id: number;
}

export interface ClaimRow {
  id: number;
  board_id: number;
  seat_id: number | null;
  contractor_id: number;
  status: ClaimStatus;
  reason: string | null;
  created_at: Date;
  updated_at: Date;
}

const BOARD = `id, business_id, route_date::text as route_date, status, opens_at, closes_at, settles_at, cancel_reason,
  created_at, opened_at, closed_at, ended_at`;

/** Locks the board for a change; every change of a board, its seats and claims takes this lock first. */
export async function lockBoard(tx: Em, boardId: number): Promise<BoardRow | null> {
  const [b] = await tx.execute<BoardRow[]>(`select ${BOARD} from route_board where id = ? for update`, [boardId]);
  return b ?? null;
}

export async function findBoard(em: Em, businessId: number, boardId: number): Promise<BoardRow | null> {
  const [b] = await em.execute<BoardRow[]>(`select ${BOARD} from route_board where id = ? and business_id = ?`, [
    boardId,
    businessId,
  ]);
  return b ?? null;
}

export async function listBoards(
  em: Em,
  businessId: number,
  filter: { routeDate: string | null; status: BoardStatus | null },
  offset: number,
  limit: number,
): Promise<{ total: number; rows: (BoardRow & { seats: number })[] }> {
  const where = `business_id = ? and (?::date is null or route_date = ?::date) and (?::text is null or status = ?::text)`;
  const params = [businessId, filter.routeDate, filter.routeDate, filter.status, filter.status];
  const [count] = await em.execute<{ n: number }[]>(
    `select count(*)::int as n from route_board where ${where}`,
    params,
  );
  const rows = await em.execute<(BoardRow & { seats: number })[]>(
    `select ${BOARD}, (select count(*)::int from route_board_seat s where s.board_id = route_board.id) as seats
       from route_board where ${where} order by route_date desc, id desc offset ? limit ?`,
    [...params, offset, limit],
  );
  return { total: count!.n, rows };
}

export async function boardSeats(em: Em, boardId: number): Promise<SeatRow[]> {
  return em.execute<SeatRow[]>(
    `select s.id, s.board_id, s.route_id, s.status, s.claim_id, s.driver_id, r.driver_id as route_driver_id
       from route_board_seat s join route r on r.id = s.route_id where s.board_id = ? order by s.id`,
    [boardId],
  );
}

export async function boardClaims(em: Em, boardId: number): Promise<ClaimRow[]> {
  return em.execute<ClaimRow[]>(
    `select id, board_id, seat_id, contractor_id, status, reason, created_at, updated_at
       from route_board_claim where board_id = ? order by id`,
    [boardId],
  );
}

/**
 * The routes named, of this business, as a board offers them; locked so that two boards do not take one. Whether a
 * route is on a live board is read in a second statement, after the lock: a statement that waited on the lock of
 * another board's creation still sees the rows as they were when it began, so it would miss that board's seats.
 */
export async function lockRoutes(
  tx: Em,
  businessId: number,
  routeIds: readonly number[],
): Promise<{ id: number; route_date: string; status: string; on_board: boolean }[]> {
  const ids = `{${routeIds.join(',')}}`;
  await tx.execute('select id from route where business_id = ? and id = any(?::int[]) order by id for update', [
    businessId,
    ids,
  ]);
  return tx.execute(
    `select r.id, r.route_date::text as route_date, r.status,
        exists (select 1 from route_board_seat s where s.route_id = r.id
                  and s.status in ('open', 'claimed', 'awarded', 'assigned')) as on_board
       from route r where r.business_id = ? and r.id = any(?::int[]) order by r.id`,
    [businessId, ids],
  );
}

/** Whether the error is a second live seat of a route (the unique index route_board_seat_live). */
export const isLiveSeatTaken = (err: unknown): boolean =>
  err instanceof UniqueConstraintViolationException &&
  ((err as { constraint?: string }).constraint === 'route_board_seat_live' ||
    err.message.includes('route_board_seat_live'));

export async function insertBoard(
  tx: Em,
  b: {
    businessId: number;
    routeDate: string;
    opensAt: Date;
    closesAt: Date;
    settlesAt: Date;
    createdBy: number;
    routeIds: readonly number[];
  },
): Promise<number> {
  const [row] = await tx.execute<{ id: number }[]>(
    `insert into route_board (business_id, route_date, opens_at, closes_at, settles_at, created_by)
       values (?, ?, ?, ?, ?, ?) returning id`,
    [b.businessId, b.routeDate, b.opensAt, b.closesAt, b.settlesAt, b.createdBy],
  );
  await tx.execute(`insert into route_board_seat (board_id, business_id, route_id) select ?, ?, unnest(?::int[])`, [
    row!.id,
    b.businessId,
    `{${b.routeIds.join(',')}}`,
  ]);
  return row!.id;
}

/** Removes a board whose process could not start (nothing was sent about it). */
export async function deleteBoard(em: Em, boardId: number): Promise<void> {
  await em.execute('delete from route_board where id = ?', [boardId]);
}

export async function setBoardStatus(tx: Em, boardId: number, status: BoardStatus, cancelReason?: string | null) {
  const stamp =
    status === 'open' ? 'opened_at' : status === 'closed' ? 'closed_at' : status === 'scheduled' ? null : 'ended_at';
  await tx.execute(
    `update route_board set status = ?${stamp ? `, ${stamp} = now()` : ''},
       cancel_reason = coalesce(?, cancel_reason) where id = ?`,
    [status, cancelReason ?? null, boardId],
  );
}

/** The next event number of the board (RBC-<board id>.<seq>), under the board's lock. */
export async function nextEventSeq(tx: Em, boardId: number): Promise<number> {
  const [row] = await tx.execute<{ seq: number }[]>(
    'update route_board set event_seq = event_seq + 1 where id = ? returning event_seq as seq',
    [boardId],
  );
  return row!.seq;
}

export async function insertClaim(
  tx: Em,
  c: { boardId: number; businessId: number; seatId: number | null; contractorId: number; status: ClaimStatus },
): Promise<ClaimRow> {
  const [row] = await tx.execute<ClaimRow[]>(
    `insert into route_board_claim (board_id, business_id, seat_id, contractor_id, status) values (?, ?, ?, ?, ?)
       returning id, board_id, seat_id, contractor_id, status, reason, created_at, updated_at`,
    [c.boardId, c.businessId, c.seatId, c.contractorId, c.status],
  );
  return row!;
}

export async function updateClaim(
  tx: Em,
  claimId: number,
  status: ClaimStatus,
  seatId: number | null,
  reason: string | null,
): Promise<void> {
  await tx.execute(
    `update route_board_claim set status = ?, seat_id = ?, reason = coalesce(?, reason), updated_at = now()
       where id = ?`,
    [status, seatId, reason, claimId],
  );
}

export async function updateSeat(
  tx: Em,
  seatId: number,
  s: { status: SeatStatus; claimId: number | null; driverId: number | null },
): Promise<void> {
  await tx.execute(
    'update route_board_seat set status = ?, claim_id = ?, driver_id = ?, updated_at = now() where id = ?',
    [s.status, s.claimId, s.driverId, seatId],
  );
}

/**
 * Whether the driver can take the route: an active driver of the business (a driver without a driver record counts
 * as active) with no other route on that date that is not cancelled.
 */
export async function driverAvailable(tx: Em, businessId: number, driverId: number, routeId: number): Promise<boolean> {
  const [row] = await tx.execute<{ ok: boolean }[]>(
    `select exists (
       select 1 from app_user u left join driver_profile p on p.user_id = u.id
        where u.id = ? and u.business_id = ? and u.role = 'driver' and coalesce(p.status, 'active') = 'active'
          and not exists (select 1 from route o join route r on r.id = ?
                           where o.driver_id = u.id and o.route_date = r.route_date and o.status <> 'cancelled'
                             and o.id <> r.id)) as ok`,
    [driverId, businessId, routeId],
  );
  return row!.ok;
}

/** The route's status, locked while its driver changes. */
export async function lockRoute(tx: Em, routeId: number): Promise<{ status: string; driver_id: number } | null> {
  const [row] = await tx.execute<{ status: string; driver_id: number }[]>(
    'select status, driver_id from route where id = ? for update',
    [routeId],
  );
  return row ?? null;
}

/** An order the route's new driver took over, as the trail and the lifecycle events need it. */
export interface MovedOrder {
  id: number;
  businessId: number;
  orderRef: string | null;
  trackingNumber: string;
  type: string;
  statusId: number;
  carrierProviderId: number | null;
  customerId: number | null;
}

/**
 * The contractor's driver takes the route from its previous driver, and with it the orders on the route that were
 * still that driver's (an order dispatched to someone else since stays theirs). Answers the orders moved.
 */
export async function moveRouteToDriver(
  tx: Em,
  businessId: number,
  routeId: number,
  previousDriverId: number,
  driverId: number,
): Promise<MovedOrder[]> {
  await tx.execute('update route set driver_id = ?, updated_at = now() where id = ?', [driverId, routeId]);
  return tx.execute<MovedOrder[]>(
    `update delivery_order set driver_id = ?, updated_at = now()
       where route_id = ? and business_id = ? and driver_id = ?
       returning id, business_id as "businessId", order_ref as "orderRef", tracking_number as "trackingNumber", type,
         status_id as "statusId", carrier_provider_id as "carrierProviderId", customer_id as "customerId"`,
    [driverId, routeId, businessId, previousDriverId],
  );
}

/** What a change of the process answered when it was written, or null when it was not. */
export async function findChangeResult(tx: Em, boardId: number, changeId: string): Promise<BoardSnapshot | null> {
  const [row] = await tx.execute<{ result: BoardSnapshot }[]>(
    'select result from route_board_change where board_id = ? and change_id = ?',
    [boardId, changeId],
  );
  return row?.result ?? null;
}

export async function saveChangeResult(tx: Em, boardId: number, changeId: string, result: BoardSnapshot) {
  await tx.execute('insert into route_board_change (board_id, change_id, result) values (?, ?, ?)', [
    boardId,
    changeId,
    JSON.stringify(result),
  ]);
}
