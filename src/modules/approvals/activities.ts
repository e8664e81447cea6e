import type { Operation } from '../../platform/catalog/types.ts';
import { processContext } from '../../../src/platform/catalog/processContext.ts';
import { runOperation } from '../../platform/catalog/run.ts';
import { operationOfTool } from '../../platform/catalog/tools.ts';
import { AppError } from '../../platform/errors.ts';
import type { WorkerDeps } from '../../platform/module.ts';
import { QuotaCounter } from '../../platform/quotaCounter.ts';
import type { ApprovalActivities, ApprovalStatus } from './contract.ts';
import { fail } from './errorCodes.ts';
import {
  argumentsToRun,
  claimApproval,
  closeApprovalRow,
  approvalById,
  proposerAsCaller,
  type StoredFailure,
} from './repo.ts';

const stored = (err: AppError): StoredFailure => ({
  status: err.status,
  code: err.code,
  key: err.key,
  ...(err.params && { params: err.params as Record<string, unknown> }),
  ...(err.fields && {
    fields: err.fields.map((f) => ({
      field: f.field,
      key: f.key,
      ...(f.params && { params: f.params as Record<string, unknown> }),
    })),
  }),
});

export function createApprovalActivities(deps: WorkerDeps, catalog: () => readonly Operation[]): ApprovalActivities {
  return {
    /**
     * Runs an approved proposal's tool once, through the one runner, as the proposer with the proposer's scopes
     * and the approval as the confirmation; records the answer or the failure. A retry after a crash that came
     * between the claim and the record cannot know whether the tool ran: it records that, and runs nothing.
     */
    async runApprovedWrite({ id, reviewerId }: { id: number; reviewerId: number }): Promise<ApprovalStatus> {
      const em = deps.orm.em.fork();
      const claimed = await claimApproval(em, id, reviewerId);
      if (!claimed) {
        const row = await approvalById(em, id);
        if (row?.status !== 'approved') return row?.status ?? 'failed';
        return closeApprovalRow(em, id, 'failed', null, {
          error: stored(fail('OUTCOME_UNKNOWN', 'approval.outcome_unknown')),
        });
      }
      const op = operationOfTool(catalog(), claimed.server, claimed.tool);
      const caller = await proposerAsCaller(em, claimed.proposed_by, claimed.business_id, id);
      if (!op || !caller)
        return closeApprovalRow(em, id, 'failed', null, {
          error: stored(fail('PROPOSER_GONE', 'approval.proposer_gone')),
        });
      const quotas = new QuotaCounter(deps.orm, deps.log);
      let outcome: { result: unknown } | { error: StoredFailure };
      try {
        outcome = {
          result: await runOperation(
            op,
            argumentsToRun(claimed),
            processContext(deps, {
              caller,
              name: `approval-${id}`,
              quotas,
              logFields: { approvalId: id },
              agent: { scopes: claimed.proposer_scopes ?? '*', confirmed: true },
            }),
          ),
        };
      } catch (err) {
        if (!(err instanceof AppError)) deps.log.error({ err, approvalId: id }, 'approved write failed');
        outcome = { error: stored(err instanceof AppError ? err : fail('INTERNAL', 'error.internal')) };
      } finally {
        await quotas.stop();
      }
      // A record that fails here is retried, finds the claim taken and says the outcome is unknown: never "failed"
      // for a write that was done.
      return 'result' in outcome
        ? closeApprovalRow(em, id, 'done', null, { result: outcome.result ?? null })
        : closeApprovalRow(em, id, 'failed', null, { error: outcome.error });
    },
    async closeApproval({
      id,
      status,
      reviewerId = null,
      reason,
    }: {
      id: number;
      status: 'rejected' | 'expired';
      reviewerId?: number | null;
      reason?: string;
    }): Promise<ApprovalStatus> {
      return closeApprovalRow(deps.orm.em.fork(), id, status, reviewerId, { reason });
    },
  };
}
