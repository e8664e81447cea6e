import type { Em } from '../../platform/db/orm.ts';
import { openSecret, purposeOf, sealSecret, type SealedColumn } from '../../platform/secretBox.ts';
import type { Caller, McpServerName } from '../../platform/catalog/types.ts';
import type { Role } from '../../platform/roles.ts';
import type { ApprovalStatus } from './contract.ts';

/** A failure as stored: rendered in the reader's language when read (views.ts). */
export interface StoredFailure {
  status: number;
  code: string;
  key: string;
  params?: Record<string, unknown>;
  fields?: { field: string; key: string; params?: Record<string, unknown> }[];
}

export interface HistoryStep {
  at: string;
  step: ApprovalStatus | 'proposed';
  by: number | null;
  reason?: string;
}

export interface ApprovalRow {
  id: number;
  business_id: number;
  server: McpServerName;
  tool: string;
  arguments: Record<string, unknown>;
  sealed_arguments: string | null;
  reason: string | null;
  proposed_by: number;
  proposer_scopes: string[] | null;
  status: ApprovalStatus;
  reviewed_by: number | null;
  result: unknown;
  error: StoredFailure | null;
  history: HistoryStep[];
  created_at: Date;
  expires_at: Date;
  decided_at: Date | null;
}

export const SEALED_ARGUMENTS: SealedColumn = { table: 'mcp_approval', column: 'sealed_arguments' };
/** Names whose values are secrets: kept sealed, shown as SECRET_SHOWN, never echoed. */
const SECRET_NAME = /secret|password|token|pickup_code|delivery_code|api_key/i;
export const SECRET_SHOWN = '[secret]';

/**
 * A URL as it may be shown: what often carries a key (`?access_key=...`, `user:pass@`, a fragment's token) replaced
 * by SECRET_SHOWN, the rest kept so that a reviewer still sees where it points. Any other string as it is.
 */
function shownText(text: string): string {
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(text) || !URL.canParse(text)) return text;
  const url = new URL(text);
  if (!url.search && !url.hash && !url.username && !url.password) return text;
  const who = url.username || url.password ? `${SECRET_SHOWN}@` : '';
  return `${url.protocol}//${who}${url.host}${url.pathname}${url.search && `?${SECRET_SHOWN}`}${url.hash && `#${SECRET_SHOWN}`}`;
}

/** A value as it may be shown: at any depth, a secret-named member's value and a URL's keys replaced. */
export function masked(value: unknown): unknown {
  if (typeof value === 'string') return shownText(value);
  if (Array.isArray(value)) return value.map(masked);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, SECRET_NAME.test(k) && v !== null ? SECRET_SHOWN : masked(v)]),
  );
}

/** Arguments as they may be shown and, when that hides anything, all of them sealed (null otherwise). */
function splitSecrets(args: Record<string, unknown>): { shown: Record<string, unknown>; sealed: string | null } {
  const shown = masked(args) as Record<string, unknown>;
  const hidesNothing = JSON.stringify(shown) === JSON.stringify(args);
  return { shown, sealed: hidesNothing ? null : sealSecret(purposeOf(SEALED_ARGUMENTS), JSON.stringify(args)) };
}

/**
 * The arguments a proposal's tool runs with: the sealed ones over the shown ones (a proposal sealed all its
 * arguments; one made before that sealed only its secret-named ones).
 */
export function argumentsToRun(row: Pick<ApprovalRow, 'arguments' | 'sealed_arguments'>): Record<string, unknown> {
  return row.sealed_arguments
    ? {
        ...row.arguments,
        ...(JSON.parse(openSecret(purposeOf(SEALED_ARGUMENTS), row.sealed_arguments)) as Record<string, unknown>),
      }
    : row.arguments;
}

const COLUMNS =
  'id, business_id, server, tool, arguments, sealed_arguments, reason, proposed_by, proposer_scopes, status, reviewed_by, result, error, history, created_at, expires_at, decided_at';
/** A proposal with the names of the people it names, for its readers. */
const NAMED = `select m.*, p.name as proposer_name, r.name as reviewer_name
  from mcp_approval m join app_user p on p.id = m.proposed_by left join app_user r on r.id = m.reviewed_by`;
export type NamedApprovalRow = ApprovalRow & { proposer_name: string; reviewer_name: string | null };
const step = (s: HistoryStep['step'], by: number | null, reason?: string) =>
  JSON.stringify([{ at: new Date().toISOString(), step: s, by, ...(reason && { reason }) }]);

export async function nextApprovalId(em: Em): Promise<number> {
  const [row] = await em.execute<{ id: number }[]>("select nextval('mcp_approval_id_seq')::int as id");
  return row!.id;
}

/** How long the business lets a proposal wait, in hours. */
export async function approvalHours(em: Em, businessId: number): Promise<number> {
  const [row] = await em.execute<{ hours: number }[]>('select mcp_approval_hours as hours from business where id = ?', [
    businessId,
  ]);
  return row!.hours;
}

export async function setApprovalHours(em: Em, businessId: number, hours: number): Promise<void> {
  await em.execute('update business set mcp_approval_hours = ? where id = ?', [hours, businessId]);
}

export interface NewApproval {
  id: number;
  businessId: number;
  server: McpServerName;
  tool: string;
  arguments: Record<string, unknown>;
  reason: string | null;
  proposedBy: number;
  proposerScopes: readonly string[] | null;
  expiresAt: string;
}

export async function insertApproval(em: Em, a: NewApproval): Promise<ApprovalRow> {
  const { shown, sealed } = splitSecrets(a.arguments);
  const [row] = await em.execute<ApprovalRow[]>(
    `insert into mcp_approval (id, business_id, server, tool, arguments, sealed_arguments, reason, proposed_by, proposer_scopes, expires_at, history)
     values (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?::text[], ?, ?::jsonb) returning ${COLUMNS}`,
    [
      a.id,
      a.businessId,
      a.server,
      a.tool,
      JSON.stringify(shown),
      sealed,
      a.reason,
      a.proposedBy,
      a.proposerScopes && `{${a.proposerScopes.join(',')}}`,
      a.expiresAt,
      step('proposed', a.proposedBy),
    ],
  );
  return row!;
}

/** Proposals of these tools only, each `server:tool` (the ones a reader may see). */
const OF_TOOLS = `m.server || ':' || m.tool in (select jsonb_array_elements_text(?::jsonb))`;

export async function findApproval(
  em: Em,
  businessId: number,
  tools: readonly string[],
  id: number,
): Promise<NamedApprovalRow | null> {
  const [row] = await em.execute<NamedApprovalRow[]>(`${NAMED} where m.id = ? and m.business_id = ? and ${OF_TOOLS}`, [
    id,
    businessId,
    JSON.stringify(tools),
  ]);
  return row ?? null;
}

export async function approvalById(em: Em, id: number): Promise<ApprovalRow | null> {
  const [row] = await em.execute<ApprovalRow[]>(`select ${COLUMNS} from mcp_approval where id = ?`, [id]);
  return row ?? null;
}

/** A page of the business's proposals of these tools in one status, newest first, and how many there are. */
export async function listApprovals(
  em: Em,
  businessId: number,
  tools: readonly string[],
  status: ApprovalStatus,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: NamedApprovalRow[] }> {
  const where = `m.business_id = ? and m.status = ? and ${OF_TOOLS}`;
  const params = [businessId, status, JSON.stringify(tools)];
  const [rows, [count]] = await Promise.all([
    em.execute<NamedApprovalRow[]>(`${NAMED} where ${where} order by m.id desc limit ? offset ?`, [
      ...params,
      limit,
      offset,
    ]),
    em.execute<{ n: number }[]>(`select count(*)::int as n from mcp_approval m where ${where}`, params),
  ]);
  return { total: count!.n, rows };
}

/** Takes a pending proposal for its approved run: only one taker ever gets it. */
export async function claimApproval(em: Em, id: number, reviewerId: number): Promise<ApprovalRow | null> {
  const [row] = await em.execute<ApprovalRow[]>(
    `update mcp_approval set status = 'approved', reviewed_by = ?, decided_at = now(), history = history || ?::jsonb
     where id = ? and status = 'pending' returning ${COLUMNS}`,
    [reviewerId, step('approved', reviewerId), id],
  );
  return row ?? null;
}

/** Ends a proposal: rejected or expired while pending, done or failed once approved; its secrets go. Answers the status it has. */
export async function closeApprovalRow(
  em: Em,
  id: number,
  to: Exclude<ApprovalStatus, 'pending' | 'approved'>,
  by: number | null,
  details: { reason?: string; result?: unknown; error?: StoredFailure } = {},
): Promise<ApprovalStatus> {
  const from = to === 'done' || to === 'failed' ? 'approved' : 'pending';
  const [row] = await em.execute<{ status: ApprovalStatus }[]>(
    `update mcp_approval set status = ?, reviewed_by = coalesce(reviewed_by, ?), decided_at = coalesce(decided_at, now()), result = ?::jsonb, error = ?::jsonb,
       sealed_arguments = null, history = history || ?::jsonb
     where id = ? and status = ? returning status`,
    [
      to,
      by,
      details.result === undefined ? null : JSON.stringify(masked(details.result)),
      details.error ? JSON.stringify(details.error) : null,
      step(to, by, details.reason),
      id,
      from,
    ],
  );
  if (row) return row.status;
  return (await approvalById(em, id))!.status;
}

/** The proposer as the caller of the approved run: the account as it is now, in the proposal's business. */
export async function proposerAsCaller(
  em: Em,
  userId: number,
  businessId: number,
  approvalId: number,
): Promise<Caller | null> {
  const [row] = await em.execute<{ id: number; name: string; email: string; role: Role; business_id: number }[]>(
    'select id, name, email, role, business_id from app_user where id = ? and business_id = ?',
    [userId, businessId],
  );
  return row
    ? {
        id: row.id,
        name: row.name,
        email: row.email,
        role: row.role,
        businessId: row.business_id,
        tokenHash: `approval:${approvalId}`,
        via: 'session',
      }
    : null;
}
