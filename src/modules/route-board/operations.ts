/**
 * The route board's operations (docs/routes.md, "The route board"): the business's admins create, close and cancel
 * boards, veto claims and replace claimants; its contractors claim seats, withdraw and name their drivers; both read.
 * Every change goes through the board's process (`route-board-<id>`) as an update.
 */
import { IsolationLevel } from '@mikro-orm/core';
import { z } from 'zod';
import {
  dateParam,
  intParam,
  offsetOf,
  pageOf,
  pageOutput,
  pageParams,
  pathId,
  timeParam,
} from '../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../platform/catalog/types.ts';
import { errors } from '../../platform/errors.ts';
import { PROCESS_GONE, refusedAs, type Refusals } from '../../platform/temporal/refusals.ts';
import {
  boardChangeUpdate,
  ROUTE_BOARD_QUEUE,
  ROUTE_BOARD_WORKFLOW,
  routeBoardWorkflowId,
  type BoardChange,
  type BoardSnapshot,
} from './contract.ts';
import { BOARD_STATUSES } from './domain.ts';
import { fail } from './errorCodes.ts';
import { REFUSAL_MESSAGE } from './messages.ts';
import {
  boardClaims,
  boardSeats,
  deleteBoard,
  findBoard,
  insertBoard,
  isLiveSeatTaken,
  listBoards,
  lockRoutes,
} from './repo.ts';
import { BoardSummaryView, BoardView, ClaimView, presentBoard, presentSummary } from './views.ts';
import type { routeBoardWorkflow } from './workflows.ts';

const TAG = 'Route board';
const READERS = ['client_admin', 'employee', 'contractor'] as const;
/** A board settles within a year. */
const MAX_AHEAD_MS = 366 * 86_400_000;

const refusals: Refusals = {
  ...Object.fromEntries(
    Object.entries(REFUSAL_MESSAGE).map(([code, key]) => [code, () => fail(code as keyof typeof REFUSAL_MESSAGE, key)]),
  ),
  SEAT_NOT_FOUND: () => errors.notFound(),
  CLAIM_NOT_FOUND: () => errors.notFound(),
  [PROCESS_GONE]: () => fail('BOARD_ENDED', 'route_board.ended'),
};

const contractorOf = (ctx: BusinessContext) => (ctx.caller.role === 'contractor' ? ctx.caller.id : null);

/** The board as the caller may see it, or 404: one snapshot, so a change committed meanwhile shows whole or not at all. */
async function readBoard(ctx: BusinessContext, boardId: number) {
  return ctx.em.transactional(
    async (tx) => {
      const b = await findBoard(tx, ctx.caller.businessId, boardId);
      if (!b) throw errors.notFound();
      return presentBoard(b, await boardSeats(tx, b.id), await boardClaims(tx, b.id), contractorOf(ctx));
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}

/** Sends a change to the board's process (a board of the caller's business) and answers the board after it. */
async function change(ctx: BusinessContext, boardId: number, c: BoardChange): Promise<BoardSnapshot> {
  if (!(await findBoard(ctx.em, ctx.caller.businessId, boardId))) throw errors.notFound();
  const handle = ctx.temporal.workflow.getHandle<typeof routeBoardWorkflow>(routeBoardWorkflowId(boardId));
  return refusedAs(handle.executeUpdate(boardChangeUpdate, { args: [c] }), refusals);
}

const BoardOutput = z.object({ result: z.literal(true), board: BoardView });
const ClaimOutput = z.object({ result: z.literal(true), claim: ClaimView, board: BoardView });

async function claimAnswer(ctx: BusinessContext, boardId: number, snap: BoardSnapshot) {
  const board = await readBoard(ctx, boardId);
  const claim = board.claims.find((c) => c.id === snap.claimId);
  if (!claim) throw errors.notFound();
  return { result: true as const, claim, board };
}

const changeFailures = {
  NOT_FOUND: 'No board of the business has this id, or no seat or claim of the board the caller may act on',
  BOARD_NOT_OPEN: true,
  BOARD_CLOSED: true,
  BOARD_ENDED: true,
} as const;

export const routeBoardCreate = defineOperation({
  name: 'create_route_board',
  summary: "Offer a day's routes to the business's contractors on a route board.",
  description:
    "Each route becomes a seat. The board opens at `opens_at` (now when left out or past), takes claims until `closes_at`, then awards the seats and waits for the contractors to name their drivers until `settles_at` (or until every awarded seat has one), and settles. Routes must be the business's, planned for `route_date`, and on no other board that has not ended (ROUTE_NOT_OFFERABLE); an unknown route id answers VALIDATION_FAILED. Every change is sent as route_board.changed to the merchant-level route_board_webhook_url. The board is the process route-board-<id>.",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/route-boards', status: 201 },
  graphql: { name: 'routeBoardCreate', kind: 'mutation' },
  failures: { ROUTE_NOT_OFFERABLE: true },
  input: z
    .object({
      route_date: dateParam(),
      route_ids: z
        .array(intParam())
        .min(1)
        .max(200)
        .transform((ids) => [...new Set(ids)]),
      opens_at: timeParam().optional().describe('When claims start; now when left out'),
      closes_at: timeParam().describe('When claims stop and seats are awarded; in the future'),
      settles_at: timeParam().describe('When the board settles; after closes_at, within a year'),
    })
    .strict(),
  output: BoardOutput,
  async handler(input, ctx) {
    const now = Date.now();
    const opensAt = new Date(Math.max(now, input.opens_at ? Date.parse(input.opens_at) : now));
    const closesAt = new Date(input.closes_at);
    const settlesAt = new Date(input.settles_at);
    const times: { field: string; key: 'route_board.times' }[] = [];
    if (closesAt.getTime() <= now || closesAt < opensAt) times.push({ field: 'closes_at', key: 'route_board.times' });
    if (settlesAt <= closesAt || settlesAt.getTime() > now + MAX_AHEAD_MS)
      times.push({ field: 'settles_at', key: 'route_board.times' });
    if (times.length > 0) throw errors.validation(times);
    const { businessId } = ctx.caller;
    const created = ctx.em.transactional(async (tx) => {
      const routes = await lockRoutes(tx, businessId, input.route_ids);
      const found = new Set(routes.map((r) => r.id));
      const unknown = input.route_ids.flatMap((id, i) => (found.has(id) ? [] : [i]));
      if (unknown.length > 0)
        throw errors.validation(unknown.map((i) => ({ field: `route_ids.${i}`, key: 'route_board.unknown_route' })));
      if (routes.some((r) => r.route_date !== input.route_date || r.status !== 'planned' || r.on_board))
        throw fail('ROUTE_NOT_OFFERABLE', 'route_board.route_not_offerable');
      return insertBoard(tx, {
        businessId,
        routeDate: input.route_date,
        opensAt,
        closesAt,
        settlesAt,
        createdBy: ctx.caller.id,
        routeIds: input.route_ids,
      });
    });
    // The check above reads after the routes' lock; the unique index of live seats is the last word all the same.
    const boardId = await created.catch((err: unknown) => {
      throw isLiveSeatTaken(err) ? fail('ROUTE_NOT_OFFERABLE', 'route_board.route_not_offerable') : err;
    });
    try {
      await ctx.temporal.workflow.start<typeof routeBoardWorkflow>(ROUTE_BOARD_WORKFLOW, {
        workflowId: routeBoardWorkflowId(boardId),
        taskQueue: ROUTE_BOARD_QUEUE,
        args: [
          {
            boardId,
            businessId,
            opensAt: opensAt.toISOString(),
            closesAt: closesAt.toISOString(),
            settlesAt: settlesAt.toISOString(),
          },
        ],
      });
    } catch (err) {
      // No process, no board: nothing was sent about it yet.
      await deleteBoard(ctx.em, boardId);
      throw err;
    }
    return { result: true as const, board: await readBoard(ctx, boardId) };
  },
});

export const routeBoardList = defineOperation({
  name: 'list_route_boards',
  summary: "The business's route boards, newest date first.",
  description:
    "For the business's staff and its contractors (who work for it): every board, optionally of one date or status.",
  tag: TAG,
  roles: READERS,
  business: true,
  rest: { method: 'GET', path: '/v1/route-boards' },
  graphql: { name: 'routeBoards', kind: 'query' },
  input: z
    .object({
      route_date: dateParam().optional(),
      status: z.enum(BOARD_STATUSES).optional(),
      ...pageParams,
    })
    .strict(),
  output: pageOutput('boards', BoardSummaryView),
  async handler(input, ctx) {
    const { total, rows } = await listBoards(
      ctx.em,
      ctx.caller.businessId,
      { routeDate: input.route_date ?? null, status: input.status ?? null },
      offsetOf(input),
      input.per_page,
    );
    return pageOf(input, 'boards', total, rows.map(presentSummary));
  },
});

export const routeBoardGet = defineOperation({
  name: 'get_route_board',
  summary: 'A route board with its seats and claims.',
  description:
    "Staff see every claim; a contractor sees every seat and only its own claims (a seat held by another contractor shows no claim id). Another business's board answers NOT_FOUND.",
  tag: TAG,
  roles: READERS,
  business: true,
  rest: { method: 'GET', path: '/v1/route-boards/{id}' },
  graphql: { name: 'routeBoard', kind: 'query' },
  failures: { NOT_FOUND: 'No board of the business has this id' },
  input: z.object({ id: pathId }).strict(),
  output: BoardOutput,
  async handler(input, ctx) {
    return { result: true as const, board: await readBoard(ctx, input.id) };
  },
});

export const routeBoardClose = defineOperation({
  name: 'close_route_board',
  summary: 'Close an open route board now, before its closing time: the seats are awarded at once.',
  description:
    'The award is the same as at closes_at: each seat goes to the claim holding it, free seats to pooled claims in the order they came, every other claim is lost. A board not yet open answers BOARD_NOT_OPEN; closed already, BOARD_CLOSED.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/route-boards/{id}/close' },
  graphql: { name: 'routeBoardClose', kind: 'mutation' },
  failures: changeFailures,
  input: z.object({ id: pathId }).strict(),
  output: BoardOutput,
  async handler(input, ctx) {
    await change(ctx, input.id, { kind: 'close', actorId: ctx.caller.id });
    return { result: true as const, board: await readBoard(ctx, input.id) };
  },
});

export const routeBoardCancel = defineOperation({
  name: 'cancel_route_board',
  summary: 'Cancel a route board that has not settled: every live claim is displaced.',
  description:
    'board_cancelled is sent, then `displaced` for each claim still live. A driver a contractor named already stays on that route. A settled or cancelled board answers BOARD_ENDED.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/route-boards/{id}/cancel' },
  graphql: { name: 'routeBoardCancel', kind: 'mutation' },
  failures: changeFailures,
  input: z
    .object({ id: pathId, reason: z.string().trim().min(1).max(255).optional().describe('Why, kept with the board') })
    .strict(),
  output: BoardOutput,
  async handler(input, ctx) {
    await change(ctx, input.id, { kind: 'cancel', actorId: ctx.caller.id, reason: input.reason ?? null });
    return { result: true as const, board: await readBoard(ctx, input.id) };
  },
});

export const routeBoardClaim = defineOperation({
  name: 'claim_route_board_seat',
  summary: "Claim a seat of an open route board, or any seat (pooled), as the business's contractor.",
  description:
    'With `seat_id`: `claimed` when nobody holds the seat, else `standby` behind its holder and earlier standbys. Without: `pooled`, which fills a seat nobody holds at close, in the order pooled claims came. One live claim per seat and one pooled claim per board (ALREADY_CLAIMED); a seat on which the business vetoed the contractor answers CLAIM_VETOED.',
  tag: TAG,
  roles: ['contractor'],
  business: true,
  rest: { method: 'POST', path: '/v1/route-boards/{id}/claims', status: 201 },
  graphql: { name: 'routeBoardClaim', kind: 'mutation' },
  failures: { ...changeFailures, ALREADY_CLAIMED: true, CLAIM_VETOED: true },
  input: z
    .object({ id: pathId, seat_id: intParam().optional().describe('The seat; leave out for a pooled claim') })
    .strict(),
  output: ClaimOutput,
  async handler(input, ctx) {
    const snap = await change(ctx, input.id, {
      kind: 'claim',
      contractorId: ctx.caller.id,
      seatId: input.seat_id ?? null,
    });
    return claimAnswer(ctx, input.id, snap);
  },
});

export const routeBoardWithdraw = defineOperation({
  name: 'withdraw_route_board_claim',
  summary: 'Withdraw your claim while the board is open; the first standby takes a seat you held (promoted).',
  description:
    'A claim of another contractor answers NOT_FOUND; one that has ended, CLAIM_NOT_LIVE; after the board closed, BOARD_CLOSED.',
  tag: TAG,
  roles: ['contractor'],
  business: true,
  rest: { method: 'POST', path: '/v1/route-boards/{id}/claims/{claim_id}/withdraw' },
  graphql: { name: 'routeBoardClaimWithdraw', kind: 'mutation' },
  failures: { ...changeFailures, CLAIM_NOT_LIVE: true },
  input: z.object({ id: pathId, claim_id: pathId }).strict(),
  output: ClaimOutput,
  async handler(input, ctx) {
    const snap = await change(ctx, input.id, {
      kind: 'withdraw',
      contractorId: ctx.caller.id,
      claimId: input.claim_id,
    });
    return claimAnswer(ctx, input.id, snap);
  },
});

export const routeBoardVeto = defineOperation({
  name: 'veto_route_board_claim',
  summary: "Veto a contractor's claim: while open any live claim, once closed an award whose driver is not named.",
  description:
    'The claim is `vetoed` and the contractor may not claim that seat again. A seat it held goes to its first standby (promoted) while the board is open; once closed, the seat stays unfilled.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/route-boards/{id}/claims/{claim_id}/veto' },
  graphql: { name: 'routeBoardClaimVeto', kind: 'mutation' },
  failures: { ...changeFailures, CLAIM_NOT_LIVE: true },
  input: z
    .object({
      id: pathId,
      claim_id: pathId,
      reason: z.string().trim().min(1).max(255).optional().describe('Why, shown to the contractor'),
    })
    .strict(),
  output: ClaimOutput,
  async handler(input, ctx) {
    const snap = await change(ctx, input.id, {
      kind: 'veto',
      actorId: ctx.caller.id,
      claimId: input.claim_id,
      reason: input.reason ?? null,
    });
    return claimAnswer(ctx, input.id, snap);
  },
});

export const routeBoardReplace = defineOperation({
  name: 'replace_route_board_claimant',
  summary: 'Give a seat of an open board to another claim: a standby of the seat or a pooled claim.',
  description:
    "The seat's holder, if any, is `replaced` (its claim ends); the claim named is `promoted` and holds the seat. A claim that is neither a standby of this seat nor pooled answers CLAIM_NOT_LIVE.",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/route-boards/{id}/seats/{seat_id}/replace' },
  graphql: { name: 'routeBoardSeatReplace', kind: 'mutation' },
  failures: { ...changeFailures, CLAIM_NOT_LIVE: true, ALREADY_CLAIMED: true },
  input: z
    .object({ id: pathId, seat_id: pathId, claim_id: intParam().describe('The claim that takes the seat') })
    .strict(),
  output: ClaimOutput,
  async handler(input, ctx) {
    const snap = await change(ctx, input.id, {
      kind: 'replace',
      actorId: ctx.caller.id,
      seatId: input.seat_id,
      claimId: input.claim_id,
    });
    return claimAnswer(ctx, input.id, snap);
  },
});

export const routeBoardAssign = defineOperation({
  name: 'assign_route_board_driver',
  summary: "Name the driver of a seat you were awarded: the route's driver becomes yours.",
  description:
    'Once the board has closed and before it settles. The driver must be an active driver of the business without another route that day (DRIVER_NOT_AVAILABLE), and the route still planned (ROUTE_NOT_PLANNED). The route and its orders take the driver; naming another driver later replaces it. The board settles once every awarded seat has its driver, or at settles_at: the answer shows the claim as it is then, `settled` when this driver was the last one the board waited for.',
  tag: TAG,
  roles: ['contractor'],
  business: true,
  rest: { method: 'POST', path: '/v1/route-boards/{id}/claims/{claim_id}/assign' },
  graphql: { name: 'routeBoardClaimAssign', kind: 'mutation' },
  failures: { ...changeFailures, CLAIM_NOT_AWARDED: true, DRIVER_NOT_AVAILABLE: true, ROUTE_NOT_PLANNED: true },
  input: z.object({ id: pathId, claim_id: pathId, driver_id: intParam() }).strict(),
  output: ClaimOutput,
  async handler(input, ctx) {
    const snap = await change(ctx, input.id, {
      kind: 'assign',
      contractorId: ctx.caller.id,
      claimId: input.claim_id,
      driverId: input.driver_id,
    });
    return claimAnswer(ctx, input.id, snap);
  },
});

export const ROUTE_BOARD_OPERATIONS = [
  routeBoardCreate,
  routeBoardList,
  routeBoardGet,
  routeBoardClose,
  routeBoardCancel,
  routeBoardClaim,
  routeBoardWithdraw,
  routeBoardVeto,
  routeBoardReplace,
  routeBoardAssign,
];
