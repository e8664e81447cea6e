import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  type ActivityOptions,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  allHandlersFinished,
  log,
} from '@temporalio/workflow';
import {
  DOOR_OPEN_LIMIT_SECONDS,
  DOOR_WATCH_SECONDS,
  isTerminal,
  nextStatus,
  type DeviceOrderAction,
  type DeviceOrderStatus,
  type RemovalReason,
} from './domain.ts';
import {
  collectUpdate,
  doorReportSignal,
  openExceptionUpdate,
  removeUpdate,
  resolveExceptionUpdate,
  statusQuery,
  INVALID_TRANSITION,
  DEVICE_ORDER_MISSING,
  DEVICE_ORDER_STATUS,
  type DeviceOrderActivities,
  type DeviceOrderInput,
  type DeviceOrderSnapshot,
} from './contract.ts';
import { noticeActivityOptions } from '../notifications/contract.ts';
import { DoorState, OrderExceptions, unwrapRefusal, watchDoor } from './workflowExceptions.ts';
import { Lane } from './workflowLane.ts';

const transitionOptions: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: [INVALID_TRANSITION, DEVICE_ORDER_MISSING],
  },
};
const remote = proxyActivities<DeviceOrderActivities>(transitionOptions);
const local = proxyLocalActivities<DeviceOrderActivities>(transitionOptions);
/**
 * A transition is one short transaction, so it runs as a local activity: in the workflow task that decided it,
 * without an activity task through the server and a second workflow task for its result. An overdue costs the
 * server about half as much, which is what bounds how many fall due per second (docs/performance.md). Workflows
 * started before this change keep their remote activities (the patch marker), so their histories still replay.
 */
const LOCAL_TRANSITIONS_PATCH = 'device-order-local-transitions';
const applyDeviceOrderTransition: DeviceOrderActivities['applyDeviceOrderTransition'] = (input) =>
  (patched(LOCAL_TRANSITIONS_PATCH) ? local : remote).applyDeviceOrderTransition(input);
/**
 * Exceptions through the process, the door watch after a pickup and the wait for open exceptions before the end
 * (docs/device-order-exceptions.md). Histories recorded before it replay without any of them.
 */
const EXCEPTIONS_PATCH = 'device-order-exceptions';

/**
 * The recipient's pickup code by mail (docs/device-orders.md, Pickup code), beside the process's own course. Remote
 * activities: a mail server down for hours still gets it (noticeActivityOptions), and their answers come from the history
 * in replay, so they need no place in the lane. Runs started before it send nothing (the patch marker).
 */
const RECIPIENT_NOTICE_PATCH = 'device-order-recipient-notice';
const noticeActivities = (scale: number) => proxyActivities<DeviceOrderActivities>(noticeActivityOptions(scale));
const { abandonDeviceOrderNotice } = proxyActivities<DeviceOrderActivities>(transitionOptions);

/** Sends the notice; one given up after its last attempt is recorded as failed. Never throws. */
function notifyRecipient(input: DeviceOrderInput): Promise<void> {
  return noticeActivities(input.notifyRetryScale ?? 1)
    .notifyDeviceOrderRecipient({ id: input.id })
    .then(
      () => undefined,
      (err: unknown) =>
        abandonDeviceOrderNotice({
          id: input.id,
          error: err instanceof ActivityFailure && err.cause ? err.cause.message : String(err),
        }),
    );
}

/** Holds the status and serialises transitions so that a timer and an update never both apply. */
class DeviceOrderState {
  status: DeviceOrderStatus;
  private busy = false;
  private readonly id: number;
  private readonly lane: Lane;
  constructor(id: number, status: DeviceOrderStatus, lane: Lane) {
    this.id = id;
    this.status = status;
    this.lane = lane;
  }

  assertAllowed(action: DeviceOrderAction): void {
    if (this.busy || nextStatus(this.status, action) === null) {
      throw ApplicationFailure.create({
        type: INVALID_TRANSITION,
        message: `device order ${this.id} is ${this.status}`,
        details: [this.status, action],
        nonRetryable: true,
      });
    }
  }

  async apply(
    action: DeviceOrderAction,
    args: { removalReason?: RemovalReason; actorId?: number | null } = {},
  ): Promise<DeviceOrderSnapshot> {
    this.assertAllowed(action);
    this.busy = true;
    try {
      return await this.lane.run(async () => {
        // The read model refusing the transition reaches the caller as its own failure.
        const snapshot = await applyDeviceOrderTransition({ id: this.id, action, ...args }).catch(unwrapRefusal);
        this.status = snapshot.status;
        upsertSearchAttributes([{ key: DEVICE_ORDER_STATUS, value: this.status }]);
        return snapshot;
      });
    } finally {
      this.busy = false;
    }
  }
}

/** Runs started before it ran local activities side by side (workflowLane.ts says why that was a replay hazard). */
const LANE_PATCH = 'device-order-one-local-activity-at-a-time';

export async function deviceOrderWorkflow(input: DeviceOrderInput): Promise<DeviceOrderStatus> {
  const lane = new Lane(patched(LANE_PATCH));
  const state = new DeviceOrderState(input.id, input.status ?? 'stored', lane);
  // A run resumed after the parcel left only waits for its exceptions.
  const parcelInside = !isTerminal(state.status);
  setHandler(statusQuery, () => state.status);
  setHandler(collectUpdate, (args) => state.apply('collect', args), {
    validator: (_args) => state.assertAllowed('collect'),
  });
  setHandler(removeUpdate, (args) => state.apply('remove', args), {
    validator: (_args) => state.assertAllowed('remove'),
  });
  const exceptions = patched(EXCEPTIONS_PATCH) ? new OrderExceptions(input.id, lane) : null;
  const door = new DoorState();
  if (exceptions) {
    setHandler(openExceptionUpdate, (args) => exceptions.open(args));
    setHandler(resolveExceptionUpdate, (args) => exceptions.resolve(args));
    setHandler(doorReportSignal, (report) => {
      door.state = report.state;
    });
    // A run resumed from the read model learns what is open (an overdue exception to settle on collect).
    if (input.status) await exceptions.load();
  }
  // Started at once: the code works from the store on. The process ends only once the notice has.
  const notice = input.notifyRecipient === true && patched(RECIPIENT_NOTICE_PATCH) ? notifyRecipient(input) : null;

  if (state.status === 'stored') {
    const untilDue = Math.max(1, Date.parse(input.dueAt) - Date.now());
    const ended = await condition(() => isTerminal(state.status), untilDue);
    if (!ended && state.status === 'stored') {
      try {
        await state.apply('overdue');
      } catch (err) {
        // The row left 'stored' without this workflow (or its store was rolled back): nothing is overdue.
        if (!(
          err instanceof ApplicationFailure &&
          (err.type === INVALID_TRANSITION || err.type === DEVICE_ORDER_MISSING)
        ))
          throw err;
        if (err.type === DEVICE_ORDER_MISSING) return state.status;
      }
      log.info('device order overdue', { deviceOrderId: input.id, status: state.status });
      if ((state.status as DeviceOrderStatus) === 'overdue') await exceptions?.raise('overdue');
    }
  }
  await condition(() => isTerminal(state.status));
  if (exceptions) {
    if (parcelInside) {
      await exceptions.settle('overdue', state.status === 'collected' ? 'collected' : 'removed');
      await watchDoor(
        door,
        exceptions,
        input.doorWatchMs ?? DOOR_WATCH_SECONDS * 1000,
        input.doorOpenLimitMs ?? DOOR_OPEN_LIMIT_SECONDS * 1000,
      );
    }
    await exceptions.untilAllClosed();
  }
  await notice;
  await condition(allHandlersFinished);
  return state.status;
}
