/**
 * A dry run (X-MCP-Dry-Run: 1, docs/mcp.md): the operation runs as usual, every check included, inside a
 * transaction that is rolled back, with a Temporal client that reads through to the server and records every
 * change instead of making it. The answer says what the call would have written, emitted and started.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { IsolationLevel } from '@mikro-orm/core';
import { outboxHighWater, outboxRowsAfter, tableWriteCounts, writesBetween } from '../db/writtenRows.ts';
import { runOperation } from './run.ts';
import type { Operation, OperationContext } from './types.ts';

export interface DryRunReport {
  result: true;
  dry_run: true;
  /** False when the call stopped at a step a running workflow decides (an update or a signal): what follows is the workflow's. */
  complete: boolean;
  /** Rows by table, as PostgreSQL counted them in the rolled-back transaction (writtenRows.ts). */
  rows: { table: string; inserted: number; updated: number; deleted: number }[];
  /** Events that would have gone to the outbox, and from there to webhooks. */
  events: { event_id: string; event_type: string; reference_type: string; reference_id: string }[];
  /** Workflows that would have been started, updated or signalled. */
  workflows: { action: string; workflow_id: string; name?: string }[];
  /** The operation's answer, when it ran to its end. */
  answer?: unknown;
}

/**
 * Ends a dry run at a workflow step whose outcome only the workflow can give. Inside a GraphQL document run as a
 * dry run it becomes that field's error, with this message (api/graphql/schema.ts).
 */
export class StopsAtWorkflow extends Error {
  constructor(action: string, workflowId: string) {
    super(`Dry run: the call stops at the ${action} of workflow ${workflowId}, whose outcome only the workflow gives`);
  }
}
/** Carries the report out of the transaction it rolls back. */
class RollBack extends Error {
  readonly report: DryRunReport;
  constructor(report: DryRunReport) {
    super('dry run');
    this.report = report;
  }
}

const nameOf = (def: unknown): string | undefined =>
  typeof def === 'string' ? def : (def as { name?: string } | undefined)?.name;

/** The real client for reads; every start, update, signal, cancel or schedule change is recorded and not made. */
function recordingClient(real: Client, report: DryRunReport): Client {
  const stop = (action: string, workflowId: string, name?: string): never => {
    report.workflows.push({ action, workflow_id: workflowId, ...(name && { name }) });
    report.complete = false;
    throw new StopsAtWorkflow(action, workflowId);
  };
  const passThrough = <T extends object>(target: T, key: string | symbol) => {
    const value = Reflect.get(target, key) as unknown;
    return typeof value === 'function' ? value.bind(target) : value;
  };
  const handle = (h: WorkflowHandle) =>
    new Proxy(h, {
      get(target, key) {
        if (key === 'signal') return (def: unknown) => stop('signal', target.workflowId, nameOf(def));
        if (key === 'executeUpdate' || key === 'startUpdate')
          return (def: unknown) => stop('update', target.workflowId, nameOf(def));
        if (key === 'terminate' || key === 'cancel') return () => stop(key, target.workflowId);
        return passThrough(target, key);
      },
    });
  const workflow = new Proxy(real.workflow, {
    get(target, key) {
      if (key === 'start') {
        return async (type: unknown, opts: { workflowId: string }) => {
          report.workflows.push({
            action: 'start',
            workflow_id: opts.workflowId,
            ...(nameOf(type) && { name: nameOf(type) }),
          });
          // Ending it (a start whose rows were refused) ends nothing: it never started.
          return {
            workflowId: opts.workflowId,
            firstExecutionRunId: 'dry-run',
            terminate: async () => undefined,
            cancel: async () => undefined,
          };
        };
      }
      if (key === 'getHandle')
        return (...args: Parameters<Client['workflow']['getHandle']>) => handle(target.getHandle(...args));
      if (key === 'execute' || key === 'signalWithStart')
        return async (type: unknown, opts: { workflowId: string }) =>
          stop(key === 'execute' ? 'start' : 'signal_with_start', opts.workflowId, nameOf(type));
      if (key === 'executeUpdateWithStart' || key === 'startUpdateWithStart') {
        return async (def: unknown, opts: { startWorkflowOperation: { options: { workflowId: string } } }) =>
          stop('update_with_start', opts.startWorkflowOperation.options.workflowId, nameOf(def));
      }
      return passThrough(target, key);
    },
  });
  const schedule = new Proxy(real.schedule, {
    get(target, key) {
      if (key === 'create') return async (opts: { scheduleId: string }) => stop('schedule_create', opts.scheduleId);
      return passThrough(target, key);
    },
  });
  return new Proxy(real, {
    get: (target, key) => (key === 'workflow' ? workflow : key === 'schedule' ? schedule : passThrough(target, key)),
  });
}

/**
 * Runs `op` as a dry run. A failure of the call itself (bad input, a refused check) is thrown as it would be
 * without the dry run. A high-risk tool needs no confirmation to be previewed.
 */
export async function dryRunOperation(op: Operation, raw: unknown, ctx: OperationContext): Promise<DryRunReport> {
  const report: DryRunReport = { result: true, dry_run: true, complete: true, rows: [], events: [], workflows: [] };
  try {
    await ctx.em.transactional(
      async (tx) => {
        const before = await outboxHighWater(tx);
        const counted = await tableWriteCounts(tx);
        try {
          report.answer = await runOperation(op, raw, {
            ...ctx,
            em: tx,
            dryRun: true,
            temporal: recordingClient(ctx.temporal, report),
            ...(ctx.agent && { agent: { ...ctx.agent, confirmed: true } }),
          });
        } catch (err) {
          if (!(err instanceof StopsAtWorkflow)) throw err;
        }
        report.rows = writesBetween(counted, await tableWriteCounts(tx));
        report.events = await outboxRowsAfter(tx, before);
        throw new RollBack(report);
      },
      { isolationLevel: IsolationLevel.REPEATABLE_READ },
    );
  } catch (err) {
    if (err instanceof RollBack) return err.report;
    throw err;
  }
  return report;
}
