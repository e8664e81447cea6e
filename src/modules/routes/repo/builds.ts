/** route_build: one build-route request and what became of it, the read model of process build-route-<id>. */
import { executeBound, type Em } from '../../../platform/db/orm.ts';
import type { BuildRequest, Skip } from '../domain.ts';
import type { SolvePlan } from '../solver/problem.ts';

export type BuildStatus = 'queued' | 'solving' | 'storing' | 'done' | 'failed' | 'cancelled';

/** What the solve keeps: the plan with its time origin (the store writes times from it). */
export type StoredPlan = SolvePlan & { originAt: string };

export interface BuildSummary {
  engine: string;
  seconds: number;
  cost: number;
  distances: 'great_circle' | 'osrm';
  routes: number;
  unassigned: number;
  /** Why the road router's figures were not used, when it failed. */
  router_error?: string;
}

export interface BuildRow {
  id: number;
  businessId: number;
  requestedBy: number | null;
  routeDate: string;
  status: BuildStatus;
  request: BuildRequest;
  skipped: Skip[];
  plan: StoredPlan | null;
  summary: BuildSummary | null;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

const COLUMNS = `id, business_id as "businessId", requested_by as "requestedBy", route_date::text as "routeDate",
  status, request, skipped, plan, summary, error, created_at as "createdAt", finished_at as "finishedAt"`;

export async function insertBuild(
  em: Em,
  b: { businessId: number; requestedBy: number | null; request: BuildRequest; skipped: Skip[] },
): Promise<number> {
  const [row] = await executeBound<{ id: number }>(
    em,
    `insert into route_build (business_id, requested_by, route_date, request, skipped)
     values ($1, $2, $3::date, $4::jsonb, $5::jsonb) returning id`,
    [b.businessId, b.requestedBy, b.request.date, JSON.stringify(b.request), JSON.stringify(b.skipped)],
  );
  return row!.id;
}

/** The build of the business (any business when null: the worker's own reads); `lock` for the store. */
export async function findBuild(em: Em, businessId: number | null, id: number, lock = false): Promise<BuildRow | null> {
  const [row] = await executeBound<BuildRow>(
    em,
    `select ${COLUMNS} from route_build where id = $1 and ($2::int is null or business_id = $2)${lock ? ' for update' : ''}`,
    [id, businessId],
  );
  return row ?? null;
}

/** Moves a build still under way to `status`; answers false when it had ended. */
export async function moveBuild(em: Em, id: number, status: BuildStatus): Promise<boolean> {
  const rows = await executeBound<{ id: number }>(
    em,
    `update route_build set status = $2 where id = $1 and status in ('queued', 'solving', 'storing') returning id`,
    [id, status],
  );
  return rows.length > 0;
}

export async function saveSolve(em: Em, id: number, plan: StoredPlan, summary: BuildSummary): Promise<void> {
  await executeBound(em, `update route_build set plan = $2::jsonb, summary = $3::jsonb where id = $1`, [
    id,
    JSON.stringify(plan),
    JSON.stringify(summary),
  ]);
}

/** Ends a build under way (done, failed, cancelled), with what it left out; one ended already stays as it is. */
export async function endBuild(
  em: Em,
  id: number,
  status: 'done' | 'failed' | 'cancelled',
  fields: { skipped?: Skip[]; error?: string | null; summary?: BuildSummary } = {},
): Promise<boolean> {
  const rows = await executeBound<{ id: number }>(
    em,
    `update route_build set status = $2, finished_at = now(), error = $3,
       skipped = coalesce($4::jsonb, skipped), summary = coalesce($5::jsonb, summary)
     where id = $1 and status in ('queued', 'solving', 'storing') returning id`,
    [
      id,
      status,
      fields.error ?? null,
      fields.skipped ? JSON.stringify(fields.skipped) : null,
      fields.summary ? JSON.stringify(fields.summary) : null,
    ],
  );
  return rows.length > 0;
}
