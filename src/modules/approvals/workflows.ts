import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import {
  APPROVAL_DECIDED,
  APPROVAL_STATUS,
  decideUpdate,
  type ApprovalInput,
  type ApprovalStatus,
  type ApprovalActivities,
} from './contract.ts';

/**
 * The approved write runs once: its activity claims the proposal before running the tool, and a retry that finds
 * the claim taken records the outcome as unknown instead of running it again.
 */
const { runApprovedWrite, closeApproval } = proxyActivities<ApprovalActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * A write an agent proposed (docs/mcp.md, Approvals), from its proposal to its end: a person of the business
 * approves it, which runs the tool once as the proposer, or rejects it; nobody deciding by `expiresAt` expires it.
 * The first of these wins; a later decision is refused.
 */
export async function approvalWorkflow(input: ApprovalInput): Promise<ApprovalStatus> {
  let status: ApprovalStatus = 'pending';
  let decided = false;
  const settle = (after: ApprovalStatus) => {
    status = after;
    upsertSearchAttributes([{ key: APPROVAL_STATUS, value: after }]);
    return after;
  };

  setHandler(
    decideUpdate,
    async (d) => {
      decided = true;
      return settle(
        d.decision === 'approve'
          ? await runApprovedWrite({ id: input.id, reviewerId: d.reviewerId })
          : await closeApproval({ id: input.id, status: 'rejected', reviewerId: d.reviewerId, reason: d.reason }),
      );
    },
    {
      validator: (_decision) => {
        if (decided)
          throw ApplicationFailure.create({
            type: APPROVAL_DECIDED,
            message: `approval ${input.id} is decided`,
            nonRetryable: true,
          });
      },
    },
  );

  if (!(await condition(() => decided, Math.max(1, Date.parse(input.expiresAt) - Date.now())))) {
    decided = true;
    settle(await closeApproval({ id: input.id, status: 'expired' }));
  }
  await condition(() => status !== 'pending' && allHandlersFinished());
  return status;
}
