import { ActivityFailure, allHandlersFinished, ApplicationFailure, condition, proxyLocalActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { LockerDeliveryActivities } from './activities.ts';
import { cancelUpdate, LOCKER_DELIVERY_MISSING, LOCKER_DELIVERY_STATUS, LOCKER_INVALID_TRANSITION, lockerStatusQuery, type LockerDeliveryInput } from './contract.ts';
import { isFinal, TRANSITIONS, type LockerAction, type LockerDeliveryStatus } from './domain.ts';
import type { LockerDeliveryView } from './views.ts';

// Each transition is one short transaction: a local activity, in the workflow task that decided it.
const { applyLockerTransition } = proxyLocalActivities<LockerDeliveryActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', nonRetryableErrorTypes: [LOCKER_INVALID_TRANSITION, LOCKER_DELIVERY_MISSING] },
});

/** A partner locker delivery from its create to its end (docs/locker-deliveries.md); the row is its read model. */
export async function lockerDeliveryWorkflow(input: LockerDeliveryInput): Promise<LockerDeliveryStatus> {
  let status: LockerDeliveryStatus = 'awaiting_deposit';
  let busy = false;
  const assertAllowed = (action: LockerAction) => {
    if (busy || !(TRANSITIONS[action].from as readonly LockerDeliveryStatus[]).includes(status)) {
      throw ApplicationFailure.create({ type: LOCKER_INVALID_TRANSITION, message: `locker delivery ${input.id} is ${status}`, details: [status, action], nonRetryable: true });
    }
  };
  const apply = async (action: LockerAction, reason: string | null = null): Promise<LockerDeliveryView> => {
    assertAllowed(action);
    busy = true;
    try {
      const view = await applyLockerTransition({ id: input.id, action, reason }).catch((err: unknown) => {
        if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) throw err.cause;
        throw err;
      });
      status = view.status;
      upsertSearchAttributes([{ key: LOCKER_DELIVERY_STATUS, value: status }]);
      return view;
    } finally {
      busy = false;
    }
  };
  setHandler(lockerStatusQuery, () => status);
  setHandler(cancelUpdate, (args) => apply('cancel', args.reason), { validator: (_args) => assertAllowed('cancel') });

  const untilExpiry = Math.max(1, Date.parse(input.deliveryCodeExpiresAt) - Date.now());
  if (!(await condition(() => status !== 'awaiting_deposit', untilExpiry))) {
    // A transition under way when the code expired goes first; the code expires only if it left the status as it was.
    await condition(() => !busy);
    if (status === 'awaiting_deposit') {
      try {
        await apply('expire_delivery_code');
      } catch (err) {
        // The row's create was rolled back after this workflow started: there is nothing to expire.
        if (err instanceof ApplicationFailure && err.type === LOCKER_DELIVERY_MISSING) return status;
        throw err;
      }
    }
  }
  await condition(() => isFinal(status));
  await condition(allHandlersFinished);
  return status;
}
