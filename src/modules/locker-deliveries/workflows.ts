import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { DoorState } from '../lockers/index.ts';
import type { LockerDeliveryActivities, LockerTransitionInput } from './activities.ts';
import {
  cancelUpdate,
  confirmUpdate,
  correctionUpdate,
  doorSignal,
  failUpdate,
  LOCKER_CORRECTION_CLOSED,
  LOCKER_DELIVERY_MISSING,
  LOCKER_DELIVERY_STATUS,
  LOCKER_INVALID_TRANSITION,
  lockerStatusQuery,
  openUpdate,
  pickupOpenUpdate,
  rotateUpdate,
  type LockerDeliveryInput,
  type RotateArgs,
} from './contract.ts';
import {
  isFinal,
  ROTATABLE,
  TRANSITIONS,
  type LockerAction,
  type LockerDeliveryStatus,
  type OpenMode,
} from './domain.ts';
import type { NoticeTemplate } from './notices.ts';
import type { LockerDeliveryView } from './views.ts';

// Each transition is one short transaction: a local activity, in the workflow task that decided it.
const { applyLockerTransition, abandonRecipientNotice, rotateCode, simulateDoorReports } =
  proxyLocalActivities<LockerDeliveryActivities>({
    startToCloseTimeout: '30 seconds',
    retry: {
      initialInterval: '1 second',
      maximumInterval: '1 minute',
      nonRetryableErrorTypes: [LOCKER_INVALID_TRANSITION, LOCKER_DELIVERY_MISSING],
    },
  });

/** A mail server down for hours still gets the message: 30 attempts, 5 s apart at first, then at most 10 minutes (about 4 hours). */
const noticeActivities = (scale: number) =>
  proxyActivities<LockerDeliveryActivities>({
    startToCloseTimeout: '1 minute',
    retry: {
      initialInterval: Math.max(1, 5_000 * scale),
      backoffCoefficient: 2,
      maximumInterval: Math.max(1, 600_000 * scale),
      maximumAttempts: 30,
      nonRetryableErrorTypes: [LOCKER_DELIVERY_MISSING],
    },
  });

/** A partner locker delivery from its create to its end (docs/locker-deliveries.md); the row is its read model. */
export async function lockerDeliveryWorkflow(input: LockerDeliveryInput): Promise<LockerDeliveryStatus> {
  // Cast, not annotated: the handlers change these, which control-flow narrowing cannot see.
  let status = 'awaiting_deposit' as LockerDeliveryStatus;
  let view = null as LockerDeliveryView | null;
  let busy = false;
  /** The delivery's doors, by hardware number, from its first opening: opened by this process, then as the locker reports them. */
  const doors = new Map<number, DoorState>();
  const allClosed = () => [...doors.values()].every((s) => s === 'closed');
  const openDoors = (numbers: readonly number[]) => {
    for (const n of numbers) doors.set(n, 'opened');
    simulateClosing(numbers);
  };
  let openings = 0;
  let lastOpening = { via: input.openMode as OpenMode, at: 0 };
  let deliveredAt = 0;
  let pickupOpenedAt = null as string | null;
  const { notifyRecipient } = noticeActivities(input.notifyRetryScale);
  /** Work beside the process (messages to the recipient, the sandbox's door reports); it ends only once they are done. */
  const beside: Promise<void>[] = [];
  let noticeCount = 0;
  const notify = (template: NoticeTemplate) => {
    const notice = { id: input.id, template, seq: ++noticeCount };
    beside.push(
      notifyRecipient(notice).then(
        () => undefined,
        (err: unknown) =>
          abandonRecipientNotice({
            ...notice,
            error: err instanceof ActivityFailure && err.cause ? err.cause.message : String(err),
          }),
      ),
    );
  };
  /** On a sandbox locker the simulator plays the locker: the doors just opened report closed a moment later. */
  const simulateClosing = (numbers: readonly number[]) => {
    const after = input.simulatedDoorsMs;
    if (!after || numbers.length === 0) return;
    beside.push(
      (async () => {
        await sleep(Math.max(1, after));
        await simulateDoorReports({ id: input.id, compartmentNumbers: [...numbers], state: 'closed' });
        for (const n of numbers) if (doors.has(n)) doors.set(n, 'closed');
      })(),
    );
  };

  const refuse = (type: string, action: LockerAction | 'rotate') => {
    throw ApplicationFailure.create({
      type,
      message: `locker delivery ${input.id} is ${status}`,
      details: [status, action],
      nonRetryable: true,
    });
  };
  const assertAllowed = (action: LockerAction) => {
    if (busy || !(TRANSITIONS[action].from as readonly LockerDeliveryStatus[]).includes(status))
      refuse(LOCKER_INVALID_TRANSITION, action);
  };
  const apply = async (
    action: LockerAction,
    details: Omit<LockerTransitionInput, 'id' | 'action'> = {},
  ): Promise<LockerDeliveryView> => {
    assertAllowed(action);
    busy = true;
    try {
      const next = await applyLockerTransition({ id: input.id, action, ...details }).catch((err: unknown) => {
        if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) throw err.cause;
        throw err;
      });
      // The doors this transition opened, before the new status lets the waits below look at them.
      if (action === 'open') openDoors(next.parcels.map((p) => p.compartment_number));
      if (action === 'correct') openDoors(details.compartmentNumbers ?? []);
      if (action === 'confirm') {
        deliveredAt = Date.now();
        notify('locker_pickup_code');
      }
      view = next;
      status = next.status;
      upsertSearchAttributes([{ key: LOCKER_DELIVERY_STATUS, value: status }]);
      return view;
    } finally {
      busy = false;
    }
  };

  setHandler(lockerStatusQuery, () => status);
  setHandler(
    openUpdate,
    (args) => {
      openings += 1;
      lastOpening = { via: args.via, at: Date.now() };
      return apply('open', { via: args.via });
    },
    { validator: (_args) => assertAllowed('open') },
  );
  setHandler(confirmUpdate, (args) => apply('confirm', { confirmedBy: args.by }), {
    validator: (_args) => assertAllowed('confirm'),
  });
  setHandler(failUpdate, (args) => apply('fail', { failures: args.parcels }), {
    validator: (_args) => assertAllowed('fail'),
  });
  setHandler(cancelUpdate, (args) => apply('cancel', { reason: args.reason }), {
    validator: (_args) => assertAllowed('cancel'),
  });
  setHandler(correctionUpdate, (args) => apply('correct', { compartmentNumbers: args.compartmentNumbers }), {
    validator: (_args) => {
      assertAllowed('correct');
      if (pickupOpenedAt !== null || Date.now() > deliveredAt + input.correctionWindowMs)
        refuse(LOCKER_CORRECTION_CLOSED, 'correct');
    },
  });
  setHandler(
    pickupOpenUpdate,
    () => {
      openDoors(view!.parcels.map((p) => p.compartment_number));
      pickupOpenedAt ??= new Date().toISOString();
      return view!;
    },
    { validator: () => assertAllowed('pickup') },
  );
  /** Replaces a code (docs/locker-deliveries.md, Codes); the recipient hears of a new pickup code when asked and already told the old one. */
  const rotate = async (args: RotateArgs): Promise<LockerDeliveryView> => {
    busy = true;
    try {
      const rotated = await rotateCode({
        id: input.id,
        code: args.code,
        deliveryCodeHash: args.deliveryCodeHash,
        notify: args.notifyRecipient,
      });
      view = rotated.view;
      if (rotated.recipientNotified) notify('locker_pickup_code_rotated');
      return rotated.view;
    } finally {
      busy = false;
    }
  };
  setHandler(rotateUpdate, rotate, {
    validator: (args: RotateArgs) => {
      if (
        busy ||
        !(ROTATABLE[args.code] as readonly LockerDeliveryStatus[]).includes(status) ||
        (args.code === 'pickup_code' && pickupOpenedAt !== null)
      ) {
        refuse(LOCKER_INVALID_TRANSITION, 'rotate');
      }
    },
  });
  setHandler(doorSignal, (report) => {
    if (doors.has(report.compartmentNumber)) doors.set(report.compartmentNumber, report.state);
  });

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

  /**
   * The deposit settles by a confirm call; by itself when the locker reports every door of a remote opening closed
   * (door_close); or, once the deposit timeout has passed since the last opening, when every door reports closed
   * (timeout_door_closed). A re-opening starts the wait again.
   */
  const settleDeposit = async () => {
    while (status === 'depositing') {
      const opening = openings;
      const current = () => status === 'depositing' && openings === opening;
      const remote = lastOpening.via === 'remote_open';
      const closedEarly = await condition(
        () => !current() || (remote && allClosed()),
        Math.max(1, lastOpening.at + input.depositTimeoutMs - Date.now()),
      );
      if (!closedEarly) await condition(() => !current() || allClosed());
      await condition(() => !busy);
      if (current() && allClosed())
        await apply('confirm', { confirmedBy: remote ? 'door_close' : 'timeout_door_closed' });
    }
  };

  /**
   * Delivered: the recipient's code opens the doors and the pickup completes once they are all closed again; until
   * then the business's periodic rotation replaces the pickup code, and an uncollected deposit expires.
   */
  const awaitPickup = async () => {
    const expiresAt = Date.parse(view!.pickup_expires_at!);
    let nextRotation = input.codeRotationMs > 0 ? Date.now() + input.codeRotationMs : Infinity;
    const waiting = () => status === 'delivered' && pickupOpenedAt === null;
    while (waiting()) {
      if (await condition(() => !waiting(), Math.max(1, Math.min(expiresAt, nextRotation) - Date.now()))) break;
      await condition(() => !busy);
      if (!waiting()) break;
      if (Date.now() >= expiresAt) {
        await apply('expire_deposit');
      } else if (Date.now() >= nextRotation) {
        await rotate({ code: 'pickup_code', deliveryCodeHash: null, notifyRecipient: true });
        nextRotation = Date.now() + input.codeRotationMs;
      }
    }
    while (status === 'delivered') {
      await condition(() => status !== 'delivered' || (!busy && allClosed()));
      if (status === 'delivered') await apply('pickup', { pickupOpenedAt });
    }
  };

  if (!(await expireAt('awaiting_deposit', input.deliveryCodeExpiresAt, 'expire_delivery_code'))) return status;
  await settleDeposit();
  if (status === 'delivered') await awaitPickup();
  await condition(() => isFinal(status));
  await condition(allHandlersFinished);
  await Promise.all(beside);
  return status;
}
