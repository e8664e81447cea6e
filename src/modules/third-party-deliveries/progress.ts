/** A provider's tracking moves its assignments: each handed-over one whose packages had news is told so. */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Em } from '../../platform/db/orm.ts';
import { progressSignal, thirdPartyWorkflowId } from './contract.ts';
import { findProgressingAssignments } from './repo/assignments.ts';

export async function tellAssignmentsOfProgress(
  ctx: { em: Em; temporal: Client },
  providerId: number,
  packageNumbers: readonly string[],
): Promise<void> {
  const ids = await findProgressingAssignments(ctx.em, providerId, [...new Set(packageNumbers)]);
  await Promise.all(
    ids.map((id) =>
      ctx.temporal.workflow
        .getHandle(thirdPartyWorkflowId(id))
        .signal(progressSignal)
        .catch((err: unknown) => {
          // Ended between the read and the signal: nothing left to move.
          if (!(err instanceof WorkflowNotFoundError)) throw err;
        }),
    ),
  );
}
