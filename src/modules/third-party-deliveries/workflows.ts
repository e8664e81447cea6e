import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  ParentClosePolicy,
  patched,
  proxyLocalActivities,
  setHandler,
  startChild,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import {
  ASSIGNMENT_INVALID_STEP,
  cancelUpdate,
  handoverUpdate,
  NOT_THE_ORDERS_PACKAGE,
  progressSignal,
  THIRD_PARTY_STATUS,
  THIRD_PARTY_WORKFLOW,
  thirdPartySearchAttributes,
  thirdPartyWorkflowId,
  type StepAnswer,
  type StepInput,
  type StepResult,
  type ThirdPartyActivities,
  type ThirdPartyInput,
} from './contract.ts';
import { allows, isLive, type AssignmentStatus } from './domain.ts';

/** A step is one short transaction: a local activity, in the workflow task that took it. */
const { applyAssignmentStep, assessAssignmentProgress } = proxyLocalActivities<ThirdPartyActivities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: [ASSIGNMENT_INVALID_STEP, NOT_THE_ORDERS_PACKAGE],
  },
});

/** Histories recorded before it replay without the look at the packages' tracking right after the last handover. */
const ASSESS_AFTER_HANDOVER_PATCH = 'third-party-assess-after-handover';

/**
 * An order handed to a third-party delivery provider (docs/third-party-deliveries.md), from its assignment to its
 * end: the warehouse hands every package over before the deadline or the order falls back to self delivery; the
 * provider may cancel it at its carrier; the business may reassign it to another provider before the handover.
 * Once handed over, each tracking event the provider pushes for a package is a signal: some packages delivered
 * make it partial_delivered, all of them delivered.
 */
export async function thirdPartyDeliveryWorkflow(input: ThirdPartyInput): Promise<AssignmentStatus> {
  let status: AssignmentStatus = 'assigned';
  let queue: Promise<unknown> = Promise.resolve();
  const refuse = (step: string) => {
    throw ApplicationFailure.create({
      type: ASSIGNMENT_INVALID_STEP,
      message: `assignment ${input.id} is ${status}`,
      details: [status, step],
      nonRetryable: true,
    });
  };

  // A package's news is looked at in turn with the steps; news before the handover changes nothing.
  const assess = () => {
    queue = queue
      .then(async () => {
        const after = await assessAssignmentProgress({ id: input.id });
        if (after !== status) {
          status = after;
          upsertSearchAttributes([{ key: THIRD_PARTY_STATUS, value: status }]);
        }
      })
      .catch(() => undefined);
  };

  async function take(step: StepInput): Promise<StepAnswer> {
    const result: StepResult = await applyAssignmentStep(step).catch((err: unknown) => {
      if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) throw err.cause;
      throw err;
    });
    status = result.answer.assignment.status;
    upsertSearchAttributes([{ key: THIRD_PARTY_STATUS, value: status }]);
    // Tracking that came before the last handover (a parcel delivered already) is looked at once it is complete.
    if (step.step === 'handover' && status === 'handed_over' && patched(ASSESS_AFTER_HANDOVER_PATCH)) assess();
    if (result.nextInput) {
      await startChild(THIRD_PARTY_WORKFLOW, {
        workflowId: thirdPartyWorkflowId(result.nextInput.id),
        args: [result.nextInput],
        typedSearchAttributes: thirdPartySearchAttributes(result.nextInput),
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    }
    return result.answer;
  }
  // One step at a time, each against the status the one before left.
  const serialized = (step: StepInput): Promise<StepAnswer> => {
    const answer = queue.then(() => take(step));
    queue = answer.catch(() => undefined);
    return answer;
  };

  setHandler(handoverUpdate, (args) => serialized({ id: input.id, step: 'handover', ...args }), {
    validator: (_args) => {
      if (!allows(status, 'handover')) refuse('handover');
    },
  });
  setHandler(cancelUpdate, (args) => serialized({ id: input.id, step: 'cancel', ...args }), {
    validator: (args) => {
      if (!allows(status, 'cancel', args.reason)) refuse('cancel');
    },
  });

  setHandler(progressSignal, assess);

  const handedOver = await condition(
    () => status !== 'assigned',
    Math.max(1, Date.parse(input.handoverDeadline) - Date.now()),
  );
  if (!handedOver) {
    await serialized({ id: input.id, step: 'cancel', reason: 'fallback_to_self_delivery', actorId: null }).catch(
      (err: unknown) => {
        // A step that came first (the last handover, a reassignment) wins.
        if (!(err instanceof ApplicationFailure && err.type === ASSIGNMENT_INVALID_STEP)) throw err;
      },
    );
  }
  await condition(() => !isLive(status) && allHandlersFinished());
  await queue;
  return status;
}
