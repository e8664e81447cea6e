/**
 * The approval queue (docs/mcp.md, Approvals): an agent proposes a write, a person of its business approves it (the
 * write then runs once, in the approval's process) or rejects it. Built around the catalog it queues writes of.
 */
import { z } from 'zod';
import { holdsScope, requireScope } from '../../platform/catalog/run.ts';
import { intParam, offsetOf, pageOf, pageOutput, pageParams, pathId } from '../../platform/catalog/schemas.ts';
import { unsafeTextFields } from '../../platform/catalog/text.ts';
import { aiToolNames, isRead, operationOfTool } from '../../platform/catalog/tools.ts';
import { defineOperation, type BusinessContext, type Operation } from '../../platform/catalog/types.ts';
import { parseInput } from '../../platform/catalog/validate.ts';
import { AppError, errors } from '../../platform/errors.ts';
import type { Role } from '../../platform/roles.ts';
import { PROCESS_GONE, refusedAs } from '../../platform/temporal/refusals.ts';
import { NO_DUPLICATES } from '../../platform/temporal/startOptions.ts';
import { writeOnceStarted } from '../../platform/temporal/startWithRows.ts';
import {
  APPROVAL_DECIDED,
  APPROVAL_STATUSES,
  APPROVAL_WORKFLOW,
  approvalSearchAttributes,
  approvalWorkflowId,
  decideUpdate,
  type ApprovalInput,
  type Decision,
  APPROVAL_QUEUE,
} from './contract.ts';
import {
  approvalHours,
  findApproval,
  insertApproval,
  listApprovals,
  nextApprovalId,
  setApprovalHours,
} from './repo.ts';
import { approvalView, ApprovalView } from './views.ts';
import { fail } from './errorCodes.ts';
import type { approvalWorkflow } from './workflows.ts';

const TAG = 'MCP approvals';
/** Business accounts that work with agents: they propose, read and decide. */
const MEMBERS: readonly Role[] = ['client_admin', 'employee', 'contractor'];
export const MAX_APPROVAL_HOURS = 720;
const reason = z.string().trim().min(1).max(500);

/** A write tool a proposal may name: not a read, not the queue's own, not one that runs other operations. */
export const proposable = (op: Operation | undefined): op is Operation & { mcp: NonNullable<Operation['mcp']> } =>
  !!op?.mcp && !isRead(op) && op.tag !== TAG && !op.mcp.runsOperations;

/** Whether the caller's role admits the operation. */
const roleMayUse = (ctx: BusinessContext, op: Operation) => op.roles !== 'public' && op.roles.includes(ctx.caller.role);

/** The write a proposal names, checked as it will run: a write tool of the server, open to the role and scopes given. */
function writeTool(
  catalog: readonly Operation[],
  ctx: BusinessContext,
  server: 'user' | 'developer',
  tool: string,
): Operation {
  const op = operationOfTool(catalog, server, tool);
  if (!proposable(op)) throw errors.field('tool', 'approval.unknown_tool');
  if (!roleMayUse(ctx, op)) throw errors.forbidden();
  requireScope(ctx.agent?.scopes ?? '*', op.mcp.scope);
  return op;
}

/**
 * The proposals a caller may list, read and decide: those of the write tools its role may use and, over MCP, its
 * connection's scopes allow, as `server:tool`. A proposal carries a write's arguments and, once done, its answer:
 * whoever could not make the write does not see it either.
 */
function visibleTools(catalog: readonly Operation[], ctx: BusinessContext): string[] {
  const scopes = ctx.agent?.scopes ?? '*';
  return catalog
    .filter((op) => proposable(op) && roleMayUse(ctx, op) && holdsScope(scopes, op.mcp!.scope))
    .flatMap((op) => Object.entries(aiToolNames(op)).map(([server, tool]) => `${server}:${tool}`));
}

async function approvalOr404(ctx: BusinessContext, catalog: readonly Operation[], id: number) {
  const row = await findApproval(ctx.em, ctx.caller.businessId, visibleTools(catalog, ctx), id);
  if (!row) throw errors.notFound();
  return row;
}

const decided = (status: string) => fail('APPROVAL_DECIDED', 'approval.decided', { status });

async function pendingOr409(ctx: BusinessContext, catalog: readonly Operation[], id: number) {
  const row = await approvalOr404(ctx, catalog, id);
  if (row.status !== 'pending') throw decided(row.status);
  return row;
}

/** Sends a reviewer's decision to the proposal's process and answers the proposal as it then stands. */
async function decide(ctx: BusinessContext, catalog: readonly Operation[], id: number, decision: Decision) {
  const alreadyDecided = async () => decided((await approvalOr404(ctx, catalog, id)).status);
  await refusedAs(
    ctx.temporal.workflow
      .getHandle<typeof approvalWorkflow>(approvalWorkflowId(id))
      .executeUpdate(decideUpdate, { args: [decision] }),
    { [APPROVAL_DECIDED]: alreadyDecided, [PROCESS_GONE]: alreadyDecided },
  );
  return { result: true as const, approval: approvalView(await approvalOr404(ctx, catalog, id), ctx.lang) };
}

const answer = z.object({ result: z.literal(true), approval: ApprovalView });

export function approvalOperations(catalog: () => readonly Operation[]) {
  const proposeWrite = defineOperation({
    name: 'propose_write',
    summary: 'Queue a write tool call for a person of the business to approve or reject; nothing runs until then.',
    description:
      'The approved write runs once, as the proposer and with the proposer\'s scopes, so a proposal grants no more than the proposer holds. It is checked now as the tool will check it: a `tool` that is no write tool of `server`, or arguments that fail its validation, answer VALIDATION_FAILED (naming `tool` or `arguments.<field>`); a tool the role may not use, FORBIDDEN; a scope the connection lacks, MISSING_SCOPE. The proposal expires after the business\'s approval time (24 hours by default); secret arguments read "[secret]".',
    tag: TAG,
    roles: MEMBERS,
    business: true,
    rest: { method: 'POST', path: '/v1/mcp/approvals', status: 201 },
    mcp: { scope: 'approvals:read', risk: 'low' },
    input: z
      .object({
        tool: z.string().min(1).max(100).describe('The name of a write tool of `server`'),
        arguments: z
          .record(z.string(), z.unknown())
          .default({})
          .describe("The tool's arguments, checked now as the tool checks them"),
        server: z.enum(['user', 'developer']).default('user').describe('The server whose tool it is'),
        reason: reason.optional().describe('Why the agent wants it, for the reviewer'),
      })
      .strict(),
    output: answer,
    async handler(input, ctx) {
      const op = writeTool(catalog(), ctx, input.server, input.tool);
      // Checked now as the runner will check them, so that a proposal that could never run is refused at once.
      try {
        const unsafe = unsafeTextFields(input.arguments);
        if (unsafe.length > 0) throw errors.validation(unsafe);
        parseInput(op.input, input.arguments);
      } catch (err) {
        if (err instanceof AppError && err.fields)
          throw errors.validation(err.fields.map((f) => ({ ...f, field: `arguments.${f.field}` })));
        throw err;
      }
      const id = await nextApprovalId(ctx.em);
      const hours = await approvalHours(ctx.em, ctx.caller.businessId);
      const process: ApprovalInput = {
        id,
        businessId: ctx.caller.businessId,
        tool: input.tool,
        expiresAt: new Date(Date.now() + hours * 3_600_000 * ctx.config.approvalTimerScale).toISOString(),
      };
      const started = ctx.temporal.workflow.start<typeof approvalWorkflow>(APPROVAL_WORKFLOW, {
        workflowId: approvalWorkflowId(id),
        taskQueue: APPROVAL_QUEUE,
        args: [process],
        typedSearchAttributes: approvalSearchAttributes(process),
        ...NO_DUPLICATES,
      });
      const row = await writeOnceStarted(
        ctx.em,
        started,
        (tx) =>
          insertApproval(tx, {
            ...process,
            server: input.server,
            arguments: input.arguments,
            reason: input.reason ?? null,
            proposedBy: ctx.caller.id,
            proposerScopes: ctx.agent && ctx.agent.scopes !== '*' ? ctx.agent.scopes : null,
          }),
        ctx.log,
        'approval',
      );
      return {
        result: true as const,
        approval: approvalView({ ...row, proposer_name: ctx.caller.name, reviewer_name: null }, ctx.lang),
      };
    },
  });

  const listPending = defineOperation({
    name: 'list_pending_approvals',
    summary:
      "The business's proposals waiting for a decision, newest first, with their arguments; `status` lists decided ones instead.",
    description:
      'Lists only the proposals the caller could have made itself: of a write tool its role may use and, over MCP, its connection\'s scopes allow; the others are left out. `status` picks pending (the default), approved, rejected, expired, done or failed; 50 a page by default (`page`, `per_page` up to 200) with the `total`. Secret arguments read "[secret]". Read one proposal\'s history and outcome with get_approval.',
    tag: TAG,
    roles: MEMBERS,
    business: true,
    rest: { method: 'GET', path: '/v1/mcp/approvals' },
    mcp: { scope: 'approvals:read', risk: 'low' },
    input: z.object({ status: z.enum(APPROVAL_STATUSES).default('pending'), ...pageParams }).strict(),
    output: pageOutput('approvals', ApprovalView),
    async handler(input, ctx) {
      const { total, rows } = await listApprovals(
        ctx.em,
        ctx.caller.businessId,
        visibleTools(catalog(), ctx),
        input.status,
        input.per_page,
        offsetOf(input),
      );
      return pageOf(
        input,
        'approvals',
        total,
        rows.map((r) => approvalView(r, ctx.lang)),
      );
    },
  });

  const getApproval = defineOperation({
    name: 'get_approval',
    summary:
      "One proposal of the business: its tool, arguments, status, history, and once done the tool's answer or why it failed.",
    description:
      'The history lists each step (proposed, approved, done or failed, rejected, expired) with who and when. Once the write ran, `result` holds its answer, or `error` why it failed (such as PROPOSER_GONE, or OUTCOME_UNKNOWN when the run was interrupted and may or may not have taken effect). A proposal of another business, or of a tool the caller\'s role or scopes do not admit, answers NOT_FOUND. Secrets in arguments and answers read "[secret]".',
    tag: TAG,
    roles: MEMBERS,
    business: true,
    rest: { method: 'GET', path: '/v1/mcp/approvals/{id}' },
    failures: { NOT_FOUND: 'No such proposal in the business' },
    mcp: { scope: 'approvals:read', risk: 'low' },
    input: z.object({ id: pathId }).strict(),
    output: answer,
    async handler(input, ctx) {
      return {
        result: true as const,
        approval: approvalView(await approvalOr404(ctx, catalog(), input.id), ctx.lang),
      };
    },
  });

  const approve = defineOperation({
    name: 'approve_pending_write',
    summary: 'Approve a pending proposal: its write runs once, now, and the answer says how it went.',
    description:
      "The write runs as the proposer with the proposer's scopes; the approval stands in for the `confirm: true` a high-risk tool needs, and an agent reviewer must itself send `confirm: true`. The write's own failure is no error of this call: the proposal comes back failed, with its `error`. Refuses the proposer (SELF_APPROVAL), a proposal no longer pending (APPROVAL_DECIDED, naming its status) and one the reviewer could not make itself or of another business (NOT_FOUND).",
    tag: TAG,
    roles: MEMBERS,
    business: true,
    rest: { method: 'POST', path: '/v1/mcp/approvals/{id}/approve' },
    // The approved write's own failure is not answered: the approval keeps it in its `error`.
    failures: {
      NOT_FOUND: 'No such proposal in the business',
      SELF_APPROVAL: 'The caller proposed it',
      APPROVAL_DECIDED: 'No longer pending',
    },
    mcp: { scope: 'approvals:write', risk: 'high' },
    input: z.object({ id: pathId }).strict(),
    output: answer,
    async handler(input, ctx) {
      // A proposal the reviewer may not make itself is not found (visibleTools).
      const row = await pendingOr409(ctx, catalog(), input.id);
      if (row.proposed_by === ctx.caller.id) throw fail('SELF_APPROVAL', 'approval.self_approval');
      return decide(ctx, catalog(), input.id, { decision: 'approve', reviewerId: ctx.caller.id });
    },
  });

  const reject = defineOperation({
    name: 'reject_pending_write',
    summary: 'Reject a pending proposal: nothing is done, and the reason is kept in its history.',
    description:
      "Use it for a proposal that should not run; unlike approving, the proposer may reject its own. The optional `reason` is kept in the proposal's history, and the answer is the proposal, now rejected. Refuses a proposal no longer pending (APPROVAL_DECIDED, naming its status) and one the caller could not make itself or of another business (NOT_FOUND).",
    tag: TAG,
    roles: MEMBERS,
    business: true,
    rest: { method: 'POST', path: '/v1/mcp/approvals/{id}/reject' },
    failures: { NOT_FOUND: 'No such proposal in the business', APPROVAL_DECIDED: 'No longer pending' },
    mcp: { scope: 'approvals:write', risk: 'medium' },
    input: z.object({ id: pathId, reason: reason.optional() }).strict(),
    output: answer,
    async handler(input, ctx) {
      // Whoever may not approve it may not reject it either: a proposal the caller may not make is not found.
      await pendingOr409(ctx, catalog(), input.id);
      return decide(ctx, catalog(), input.id, {
        decision: 'reject',
        reviewerId: ctx.caller.id,
        ...(input.reason && { reason: input.reason }),
      });
    },
  });

  const hoursOutput = z.object({ result: z.literal(true), expire_after_hours: z.number().int() });
  const settingsGet = defineOperation({
    name: 'approval_settings_get',
    summary: 'Read how long a proposal waits for a decision before it expires.',
    description:
      'Answers `expire_after_hours`: 24 unless a client admin changed it with approval_settings_update. A proposal takes the value in force when it is made and expires if nobody approves or rejects it in that time; an expired proposal never runs.',
    tag: TAG,
    roles: ['client_admin', 'employee'],
    business: true,
    rest: { method: 'GET', path: '/v1/mcp/approval-settings' },
    input: z.object({}).strict(),
    output: hoursOutput,
    async handler(_input, ctx) {
      return { result: true as const, expire_after_hours: await approvalHours(ctx.em, ctx.caller.businessId) };
    },
  });
  const settingsPut = defineOperation({
    name: 'approval_settings_update',
    summary: `Set how long a new proposal waits for a decision before it expires (1 to ${MAX_APPROVAL_HOURS} hours; 24 by default).`,
    description:
      'Applies to proposals made from then on: those already waiting keep the expiry they were given. A value outside 1 to 720 is VALIDATION_FAILED. Answers the value now in force; sending the same value again changes nothing.',
    tag: TAG,
    roles: ['client_admin'],
    business: true,
    rest: { method: 'PUT', path: '/v1/mcp/approval-settings' },
    input: z.object({ expire_after_hours: intParam(MAX_APPROVAL_HOURS) }).strict(),
    output: hoursOutput,
    async handler(input, ctx) {
      await setApprovalHours(ctx.em, ctx.caller.businessId, input.expire_after_hours);
      return { result: true as const, expire_after_hours: input.expire_after_hours };
    },
  });

  return [proposeWrite, listPending, getApproval, approve, reject, settingsGet, settingsPut];
}
