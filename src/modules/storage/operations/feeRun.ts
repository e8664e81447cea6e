/**
 * The business's storage fee run started by hand (docs/customer-services.md, "The storage fee run"): the scheduled run
 * charges every business each hour; a client admin may charge its own customers now (before closing a month, after
 * shortening its storage day) and read how that run went.
 */
import { z } from 'zod';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { defineOperation } from '../../../platform/catalog/types.ts';
import { errors } from '../../../platform/errors.ts';
import { STAFF } from '../../../platform/roles.ts';
import { STORAGE_FEE_RUN_WORKFLOW, STORAGE_QUEUE, storageFeeRunWorkflowId, type FeeRunTotals } from '../contract.ts';
import type { storageFeeRun } from '../workflows.ts';

/** One business's run by hand: one at a time, the same id each time, so its newest run is the one to read. */
const businessRunId = (businessId: number) => storageFeeRunWorkflowId(`b${businessId}`);

const RunStatus = z.enum(['running', 'completed', 'failed', 'cancelled', 'terminated', 'timed_out']);
const Totals = z.object({
  pages: z.number().int(),
  customers: z.number().int().describe('Customers looked at'),
  fees: z.number().int().describe('Storage periods charged (fee rows written)'),
  transfers: z.number().int().describe('Wallet transfers made'),
});

export const storageFeesRun = defineOperation({
  name: 'run_storage_fees',
  summary: "Charge the business's customers their storage periods due now, without waiting for the hourly run.",
  description:
    "Starts the storage fee run for the caller's business only: every stored package is charged each storage period started since it was received, and what wallets owe from earlier runs is collected (docs/customer-services.md). Answers 202 at once with the run's workflow id; read its outcome with get_storage_fee_run. While a run of the business is still going, the answer names that run (`already_running: true`) and starts none. Charging twice is impossible whatever is started: each package's period is one fee row. For client admins.",
  tag: 'Storage',
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/client/storage-fees/run', status: 202 },
  input: z.object({}).strict(),
  output: z.object({
    result: z.literal(true),
    workflow_id: z.string(),
    run_id: z.string(),
    already_running: z.boolean(),
  }),
  examples: {
    input: {},
    output: { result: true, workflow_id: 'storage-fees-b7', run_id: '0193…', already_running: false },
  },
  async handler(_input, ctx) {
    const workflowId = businessRunId(ctx.caller.businessId);
    const running = async () => {
      const d = await ctx.temporal.workflow.getHandle(workflowId).describe();
      return { result: true as const, workflow_id: workflowId, run_id: d.runId, already_running: true };
    };
    try {
      const handle = await ctx.temporal.workflow.start<typeof storageFeeRun>(STORAGE_FEE_RUN_WORKFLOW, {
        workflowId,
        taskQueue: STORAGE_QUEUE,
        args: [{ business_id: ctx.caller.businessId }],
        workflowIdConflictPolicy: 'FAIL',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
      return {
        result: true as const,
        workflow_id: workflowId,
        run_id: handle.firstExecutionRunId,
        already_running: false,
      };
    } catch (err) {
      // A run of the business is still going: it is the one to follow.
      if (err instanceof WorkflowExecutionAlreadyStartedError) return running();
      throw err;
    }
  },
});

export const storageFeesRunGet = defineOperation({
  name: 'get_storage_fee_run',
  summary: "The business's newest storage fee run started by hand: running or ended, and what it charged.",
  description:
    "`status` is running, completed, failed, cancelled, terminated or timed_out; `totals` (customers looked at, storage periods charged, wallet transfers made) once completed. NOT_FOUND when the business never started one (the hourly runs are the schedule storage-fee-run's, seen in the Temporal UI). For the business's client admins and employees.",
  tag: 'Storage',
  roles: STAFF,
  business: true,
  rest: { method: 'GET', path: '/v1/client/storage-fees/run' },
  failures: { NOT_FOUND: 'The business never started a storage fee run by hand' },
  input: z.object({}).strict(),
  output: z.object({
    result: z.literal(true),
    workflow_id: z.string(),
    run_id: z.string(),
    status: RunStatus,
    started_at: z.string(),
    closed_at: z.string().nullable(),
    totals: Totals.nullable(),
  }),
  examples: {
    input: {},
    output: {
      result: true,
      workflow_id: 'storage-fees-b7',
      run_id: '0193…',
      status: 'completed',
      started_at: '2026-12-10T09:00:00.000Z',
      closed_at: '2026-12-10T09:00:02.000Z',
      totals: { pages: 1, customers: 12, fees: 340, transfers: 12 },
    },
  },
  async handler(_input, ctx) {
    const workflowId = businessRunId(ctx.caller.businessId);
    const handle = ctx.temporal.workflow.getHandle<typeof storageFeeRun>(workflowId);
    let described;
    try {
      described = await handle.describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw errors.notFound();
      throw err;
    }
    const status = described.status.name.toLowerCase() as string;
    const shown = status === 'continued_as_new' ? 'running' : status;
    const totals: FeeRunTotals | null = shown === 'completed' ? await handle.result() : null;
    return {
      result: true as const,
      workflow_id: workflowId,
      run_id: described.runId,
      status: RunStatus.catch('failed').parse(shown),
      started_at: described.startTime.toISOString(),
      closed_at: described.closeTime?.toISOString() ?? null,
      totals,
    };
  },
});
