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
  type DoorState,
  type LockerDeliveryActivities,
  type LockerDeliveryInput,
  type LockerDeliverySnapshot,
  type LockerNoticeTemplate,
  type LockerTransitionDetails,
  type RotateArgs,
} from './contract.ts';
import { noticeActivityOptions } from '../notifications/contract.ts';
import {
  isFinal,
  ROTATABLE,
  TRANSITIONS,
  type LockerAction,
  type LockerDeliveryStatus,
  type OpenMode,
} from './domain.ts';

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

/** A mail server down for hours still gets the message (noticeActivityOptions). */
const noticeActivities = (scale: number) =>
  proxyActivities<LockerDeliveryActivities>(noticeActivityOptions(scale, [LOCKER_DELIVERY_MISSING]));

/**
 * The state of one delivery's process, and the only code that changes it. Every change that waits on an activity
 * (the updates, the timers' expiries, a rotation) runs through `exclusive`, one at a time in arrival order, so a
 * change always starts from the state the previous one left; each re-checks that its action is still allowed.
 */
class LockerDelivery {
  status: LockerDeliveryStatus = 'awaiting_deposit';
  /** What the last transition or rotation answered; null before the first. */
  snapshot: LockerDeliverySnapshot | null = null;
  /** The delivery's doors, by hardware number, from its first opening: opened by this process, then as the locker reports them. */
  readonly doors = new Map<number, DoorState>();
  openings = 0;
  lastOpening: { via: OpenMode; at: number };
  deliveredAt = 0;
  pickupOpenedAt: string | null = null;
  /** Work beside the process (messages to the recipient, the sandbox's door reports); it ends only once they are done. */
  readonly beside: Promise<void>[] = [];
  private noticeCount = 0;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly notifyRecipient: LockerDeliveryActivities['notifyRecipient'];

  readonly input: LockerDeliveryInput;

  constructor(input: LockerDeliveryInput) {
    this.input = input;
    this.lastOpening = { via: input.openMode, at: 0 };
    this.notifyRecipient = noticeActivities(input.notifyRetryScale).notifyRecipient;
  }

  /** Runs `change` once every change before it has finished. */
  exclusive<T>(change: () => Promise<T>): Promise<T> {
    const run = this.tail.then(change);
    this.tail = run.catch(() => undefined);
    return run;
  }

  allClosed(): boolean {
    return [...this.doors.values()].every((s) => s === 'closed');
  }

  refuse(type: string, action: LockerAction | 'rotate'): never {
    throw ApplicationFailure.create({
      type,
      message: `locker delivery ${this.input.id} is ${this.status}`,
      details: [this.status, action],
      nonRetryable: true,
    });
  }

  assertAllowed(action: LockerAction): void {
    if (!(TRANSITIONS[action].from as readonly LockerDeliveryStatus[]).includes(this.status))
      this.refuse(LOCKER_INVALID_TRANSITION, action);
  }

  assertRotatable(args: RotateArgs): void {
    if (
      !(ROTATABLE[args.code] as readonly LockerDeliveryStatus[]).includes(this.status) ||
      (args.code === 'pickup_code' && this.pickupOpenedAt !== null)
    )
      this.refuse(LOCKER_INVALID_TRANSITION, 'rotate');
  }

  assertCorrectable(): void {
    this.assertAllowed('correct');
    if (this.pickupOpenedAt !== null || Date.now() > this.deliveredAt + this.input.correctionWindowMs)
      this.refuse(LOCKER_CORRECTION_CLOSED, 'correct');
  }

  /** Writes one transition (call inside `exclusive`); the doors it opens and the notice it owes follow. */
  async apply(action: LockerAction, details: LockerTransitionDetails = {}): Promise<LockerDeliverySnapshot> {
    this.assertAllowed(action);
    const next = await applyLockerTransition({ id: this.input.id, action, ...details }).catch((err: unknown) => {
      if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) throw err.cause;
      throw err;
    });
    // The doors this transition opened, before the new status lets the waits look at them.
    if (action === 'open') this.openDoors(next.parcels.map((p) => p.compartment_number));
    if (action === 'correct') this.openDoors(details.compartmentNumbers ?? []);
    if (action === 'confirm') {
      this.deliveredAt = Date.now();
      this.notify('locker_pickup_code');
    }
    this.snapshot = next;
    this.status = next.status;
    upsertSearchAttributes([{ key: LOCKER_DELIVERY_STATUS, value: this.status }]);
    return next;
  }

  /** Replaces a code (docs/locker-deliveries.md, Codes; call inside `exclusive`); the recipient hears of a new pickup code when asked and already told the old one. */
  async rotate(args: RotateArgs): Promise<LockerDeliverySnapshot> {
    this.assertRotatable(args);
    const rotated = await rotateCode({
      id: this.input.id,
      code: args.code,
      deliveryCodeHash: args.deliveryCodeHash,
      notify: args.notifyRecipient,
    });
    this.snapshot = rotated.view;
    if (rotated.recipientNotified) this.notify('locker_pickup_code_rotated');
    return rotated.view;
  }

  /** The recipient's code opened the doors for the pickup (nothing to write until they close again). */
  openForPickup(): LockerDeliverySnapshot {
    this.assertAllowed('pickup');
    this.openDoors(this.snapshot!.parcels.map((p) => p.compartment_number));
    this.pickupOpenedAt ??= new Date().toISOString();
    return this.snapshot!;
  }

  private openDoors(numbers: readonly number[]): void {
    for (const n of numbers) this.doors.set(n, 'opened');
    this.simulateClosing(numbers);
  }

  /** On a sandbox locker the simulator plays the locker: the doors just opened report closed a moment later. */
  private simulateClosing(numbers: readonly number[]): void {
    const after = this.input.simulatedDoorsMs;
    if (!after || numbers.length === 0) return;
    this.beside.push(
      (async () => {
        await sleep(Math.max(1, after));
        await simulateDoorReports({ id: this.input.id, compartmentNumbers: [...numbers], state: 'closed' });
        for (const n of numbers) if (this.doors.has(n)) this.doors.set(n, 'closed');
      })(),
    );
  }

  private notify(template: LockerNoticeTemplate): void {
    const notice = { id: this.input.id, template, seq: ++this.noticeCount };
    this.beside.push(
      this.notifyRecipient(notice).then(
        () => undefined,
        (err: unknown) =>
          abandonRecipientNotice({
            ...notice,
            error: err instanceof ActivityFailure && err.cause ? err.cause.message : String(err),
          }),
      ),
    );
  }
}

/** A partner locker delivery from its create to its end (docs/locker-deliveries.md); the row is its read model. */
export async function lockerDeliveryWorkflow(input: LockerDeliveryInput): Promise<LockerDeliveryStatus> {
  const d = new LockerDelivery(input);

  setHandler(lockerStatusQuery, () => d.status);
  setHandler(
    openUpdate,
    (args) =>
      d.exclusive(() => {
        d.assertAllowed('open');
        d.openings += 1;
        d.lastOpening = { via: args.via, at: Date.now() };
        return d.apply('open', { via: args.via });
      }),
    { validator: (_args) => d.assertAllowed('open') },
  );
  setHandler(confirmUpdate, (args) => d.exclusive(() => d.apply('confirm', { confirmedBy: args.by })), {
    validator: (_args) => d.assertAllowed('confirm'),
  });
  setHandler(failUpdate, (args) => d.exclusive(() => d.apply('fail', { failures: args.parcels })), {
    validator: (_args) => d.assertAllowed('fail'),
  });
  setHandler(cancelUpdate, (args) => d.exclusive(() => d.apply('cancel', { reason: args.reason })), {
    validator: (_args) => d.assertAllowed('cancel'),
  });
  setHandler(
    correctionUpdate,
    (args) =>
      d.exclusive(() => {
        d.assertCorrectable();
        return d.apply('correct', { compartmentNumbers: args.compartmentNumbers });
      }),
    { validator: (_args) => d.assertCorrectable() },
  );
  setHandler(pickupOpenUpdate, () => d.exclusive(async () => d.openForPickup()), {
    validator: () => d.assertAllowed('pickup'),
  });
  setHandler(rotateUpdate, (args) => d.exclusive(() => d.rotate(args)), {
    validator: (args: RotateArgs) => d.assertRotatable(args),
  });
  setHandler(doorSignal, (report) => {
    if (d.doors.has(report.compartmentNumber)) d.doors.set(report.compartmentNumber, report.state);
  });

  /** Waits until the status leaves `waiting` or `at` passes; then, unless something else moved it meanwhile, applies `action`. */
  const expireAt = async (waiting: LockerDeliveryStatus, at: number, action: LockerAction): Promise<boolean> => {
    if (await condition(() => d.status !== waiting, Math.max(1, at - Date.now()))) return true;
    // A change under way when the time came goes first; the expiry applies only if it left the status as it was.
    return d.exclusive(async () => {
      if (d.status !== waiting) return true;
      try {
        await d.apply(action);
        return true;
      } catch (err) {
        // The row's create was rolled back after this workflow started: there is nothing to expire.
        if (err instanceof ApplicationFailure && err.type === LOCKER_DELIVERY_MISSING) return false;
        throw err;
      }
    });
  };

  /**
   * The deposit settles by a confirm call; by itself when the locker reports every door of a remote opening closed
   * (door_close); or, once the deposit timeout has passed since the last opening, when every door reports closed
   * (timeout_door_closed). A re-opening starts the wait again.
   */
  const settleDeposit = async () => {
    while (d.status === 'depositing') {
      const opening = d.openings;
      const current = () => d.status === 'depositing' && d.openings === opening;
      const remote = d.lastOpening.via === 'remote_open';
      const closedEarly = await condition(
        () => !current() || (remote && d.allClosed()),
        Math.max(1, d.lastOpening.at + input.depositTimeoutMs - Date.now()),
      );
      if (!closedEarly) await condition(() => !current() || d.allClosed());
      await d.exclusive(async () => {
        if (current() && d.allClosed())
          await d.apply('confirm', { confirmedBy: remote ? 'door_close' : 'timeout_door_closed' });
      });
    }
  };

  /**
   * Delivered: the recipient's code opens the doors and the pickup completes once they are all closed again; until
   * then the business's periodic rotation replaces the pickup code, and an uncollected deposit expires. The expiry
   * is the one the confirming transition answered, kept in the process's snapshot.
   */
  const awaitPickup = async () => {
    const expiresAt = Date.parse(d.snapshot!.pickup_expires_at!);
    let nextRotation = input.codeRotationMs > 0 ? Date.now() + input.codeRotationMs : Infinity;
    const waiting = () => d.status === 'delivered' && d.pickupOpenedAt === null;
    while (waiting()) {
      if (await condition(() => !waiting(), Math.max(1, Math.min(expiresAt, nextRotation) - Date.now()))) break;
      await d.exclusive(async () => {
        if (!waiting()) return;
        if (Date.now() >= expiresAt) {
          await d.apply('expire_deposit');
        } else if (Date.now() >= nextRotation) {
          await d.rotate({ code: 'pickup_code', deliveryCodeHash: null, notifyRecipient: true });
          nextRotation = Date.now() + input.codeRotationMs;
        }
      });
    }
    while (d.status === 'delivered') {
      await condition(() => d.status !== 'delivered' || d.allClosed());
      await d.exclusive(async () => {
        if (d.status === 'delivered' && d.allClosed()) await d.apply('pickup', { pickupOpenedAt: d.pickupOpenedAt });
      });
    }
  };

  if (!(await expireAt('awaiting_deposit', Date.parse(input.deliveryCodeExpiresAt), 'expire_delivery_code')))
    return d.status;
  await settleDeposit();
  if (d.status === 'delivered') await awaitPickup();
  await condition(() => isFinal(d.status));
  await condition(allHandlersFinished);
  await Promise.all(d.beside);
  return d.status;
}
