import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  patched,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import {
  CANCELLATION_ANSWERED,
  CANCELLATION_STATUS,
  cancellationStatusQuery,
  providerAnswerUpdate,
  type CancellationInput,
  type OrderCancellationActivities,
  type ProviderAnswerArgs,
  type SettleInput,
} from './contract.ts';
import { CARRIER_REFUSED_CODE, NO_ANSWER_CODE, type CancellationStatus } from './domain.ts';

const { confirmCancellation, finishCancelled, settleCancellation, endProviderAssignment } =
  proxyActivities<OrderCancellationActivities>({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
  });

/** The process waits for its request's transaction first (findings of the issue-36 review). */
const CONFIRM_REQUEST_PATCH = 'order-cancellation-confirm-request';

/**
 * The process of a cancellation request (docs/orders.md, "Cancellation and deletion"), started in the transaction
 * that writes the request: it first waits for that transaction, and ends at once if the request was never written.
 * A request decided at once (the order cancelled, no provider asked) only has the `orderCancelled` hooks' work after
 * the commit finished, retried until done. For an order a delivery provider holds, the provider was asked
 * (delivery.assignment.cancel_requested); it waits for the provider's answer until the deadline. An acceptance
 * cancels the order and ends the assignment (cancelled); a refusal, or no answer in time, sends order.cancel_failed
 * with the carrier's code. The wait is a server timer: a worker's restart loses nothing, and each outcome is written
 * once.
 */
export async function orderCancellationWorkflow(input: CancellationInput): Promise<CancellationStatus> {
  const deadline = input.answerDeadline;
  let status: CancellationStatus = deadline === null ? 'cancelled' : 'awaiting_provider';
  let answer: ProviderAnswerArgs | null = null;
  let closed = deadline === null;
  const snapshot = () => ({ cancellationId: input.cancellationId, status });
  const end = async (final: CancellationStatus): Promise<CancellationStatus> => {
    closed = true;
    status = final;
    upsertSearchAttributes([{ key: CANCELLATION_STATUS, value: status }]);
    await condition(allHandlersFinished);
    return status;
  };

  setHandler(cancellationStatusQuery, snapshot);
  setHandler(
    providerAnswerUpdate,
    async (args) => {
      answer = args;
      await condition(() => status !== 'awaiting_provider');
      return snapshot();
    },
    {
      validator: (args) => {
        // An answer meant for another request of the order (an older one, another provider's) is not this one's.
        const ours = args.cancellationId === input.cancellationId && args.providerId === input.providerId;
        if (closed || answer !== null || !ours)
          throw ApplicationFailure.create({
            type: CANCELLATION_ANSWERED,
            message: `cancellation ${input.cancellationId} is ${ours ? status : 'not the one answered'}`,
            nonRetryable: true,
          });
      },
    },
  );

  // A run started before its process confirmed its request (the first landing, histories *-first-landing.json)
  // goes straight to the wait, as it did.
  const written = patched(CONFIRM_REQUEST_PATCH)
    ? await confirmCancellation({ cancellationId: input.cancellationId, orderId: input.orderId })
    : 'awaiting_provider';
  // The request's transaction rolled back: there is nothing to wait for.
  if (written === null) return end('refused');
  if (deadline === null || written !== 'awaiting_provider') {
    if (written === 'cancelled') await finishCancelled({ cancellationId: input.cancellationId });
    return end(written);
  }

  const answered = await condition(() => answer !== null, Math.max(1, Date.parse(deadline) - Date.now()));
  closed = true;
  const given = answer as ProviderAnswerArgs | null;
  const settle: SettleInput =
    answered && given
      ? given.accept
        ? { cancellationId: input.cancellationId, outcome: 'accepted', actorId: given.actorId }
        : {
            cancellationId: input.cancellationId,
            outcome: 'refused',
            refusalCode: given.refusalCode ?? CARRIER_REFUSED_CODE,
            message: given.message,
            actorId: given.actorId,
          }
      : {
          cancellationId: input.cancellationId,
          outcome: 'timed_out',
          refusalCode: NO_ANSWER_CODE,
          message: null,
          actorId: null,
        };
  const after = await settleCancellation(settle);
  if (after === 'cancelled' && given && input.assignmentId !== null)
    await endProviderAssignment({ assignmentId: input.assignmentId, actorId: given.actorId });
  return end(after);
}
