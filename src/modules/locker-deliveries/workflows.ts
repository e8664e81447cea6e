import { ActivityFailure, allHandlersFinished, ApplicationFailure, condition, proxyLocalActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { LockerDeliveryActivities, LockerTransitionInput } from './activities.ts';
import { cancelUpdate, confirmUpdate, LOCKER_DELIVERY_MISSING, openUpdate, LOCKER_DELIVERY_STATUS, LOCKER_INVALID_TRANSITION, lockerStatusQuery, type LockerDeliveryInput } from './contract.ts';
import { isFinal, TRANSITIONS, type LockerAction, type LockerDeliveryStatus } from './domain.ts';
import type { LockerDeliveryView } from './views.ts';

// Each transition is one short transaction: a local activity, in the workflow task that decided it.
const { applyLockerTransition } = proxyLocalActivities<LockerDeliveryActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', nonRetryableErrorTypes: [LOCKER_INVALID_TRANSITION, LOCKER_DELIVERY_MISSING] },
});

/** A partner locker delivery from its create to its end (docs/locker-deliveries.md); the row is its read model. */
export async function lockerDeliveryWorkflow(input: LockerDeliveryInput): Promise<LockerDeliveryStatus> {
  // Cast, not annotated: the handlers change it, which control-flow narrowing cannot see.
  let status = 'awaiting_deposit' as LockerDeliveryStatus;
  let busy = false;
  const assertAllowed = (action: LockerAction) => {
    if (busy || !(TRANSITIONS[action].from as readonly LockerDeliveryStatus[]).includes(status)) {
      throw ApplicationFailure.create({ type: LOCKER_INVALID_TRANSITION, message: `locker delivery ${input.id} is ${status}`, details: [status, action], nonRetryable: true });
    }
  };
  let pickupExpiresAt = null as string | null;
  const apply = async (action: LockerAction, details: Omit<LockerTransitionInput, 'id' | 'action'> = {}): Promise<LockerDeliveryView> => {
    assertAllowed(action);
    busy = true;
    try {
      const view = await applyLockerTransition({ id: input.id, action, ...details }).catch((err: unknown) => {
        if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) throw err.cause;
        throw err;
      });
      status = view.status;
      pickupExpiresAt = view.pickup_expires_at;
      upsertSearchAttributes([{ key: LOCKER_DELIVERY_STATUS, value: status }]);
      return view;
    } finally {
      busy = false;
    }
  };
  setHandler(lockerStatusQuery, () => status);
  setHandler(openUpdate, (args) => apply('open', { via: args.via }), { validator: (_args) => assertAllowed('open') });
  setHandler(confirmUpdate, (args) => apply('confirm', { confirmedBy: args.by }), { validator: (_args) => assertAllowed('confirm') });
  setHandler(cancelUpdate, (args) => apply('cancel', { reason: args.reason }), { validator: (_args) => assertAllowed('cancel') });

  /** Waits until `status` leaves `waiting` or `at` passes; then, unless something else moved it meanwhile, applies `action`. */
  const expireAt = async (waiting: LockerDeliveryStatus, at: string, action: LockerAction): Promise<boolean> => {
    if (await condition(() => status !== waiting, Math.max(1, Date.parse(at) - Date.now()))) return true;
    // A transition under way when the time came goes first; the expiry applies only if it left the status as it was.
    await condition(() => !busy);
    if (status !== waiting) return true;
    try {
      await apply(action);
      return true;
    } catch (err) {
      // The row's create was rolled back after this workflow started: there is nothing to expire.
      if (err instanceof ApplicationFailure && err.type === LOCKER_DELIVERY_MISSING) return false;
      throw err;
    }
  };

  // The delivery code, until the courier opens the doors; then the deposit, until it is confirmed; then the pickup.
  if (!(await expireAt('awaiting_deposit', input.deliveryCodeExpiresAt, 'expire_delivery_code'))) return status;
  await condition(() => status === 'delivered' || isFinal(status));
  if (status === 'delivered' && pickupExpiresAt !== null) await expireAt('delivered', pickupExpiresAt, 'expire_deposit');
  await condition(() => isFinal(status));
  await condition(allHandlersFinished);
  return status;
}
