import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import { ORDER_STEP_OPTIONS } from '../customer-services/contract.ts';
import {
  HAND_OVER_REFUSED,
  handOverUpdate,
  packUpdate,
  pickUpdate,
  SHIPOUT_WRONG_STATE,
  statusSignal,
  type ShipoutActivities,
  type ShipoutInput,
  type ShipoutStatus,
  type StepInput,
} from './contract.ts';
import { isEnded, STEPS, type Step } from './domain.ts';

/** Each step is one short transaction a retry finds done (by the row's status), so it is retried until it answers. */
const { expireShipout, recordStep, readShipoutStatus } = proxyActivities<ShipoutActivities>(ORDER_STEP_OPTIONS);

/**
 * While it waits for a signal (its price, or a cancel once paid), the process reads the row itself after this long,
 * then after twice as long each time up to RECHECK_MAX_MS: a lost signal costs at most that wait, and a ship-out
 * left waiting adds a few events a day to its history.
 */
const RECHECK_MS = 10 * 60 * 1000;
const RECHECK_MAX_MS = 6 * 60 * 60 * 1000;

/** The hand-over may wait on a carrier (LABEL_CARRIER_TIMEOUT_MS) before its transaction: two minutes bound it. */
const { handOver } = proxyActivities<ShipoutActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute' },
});

const refuse = (status: ShipoutStatus, step: Step): never => {
  throw ApplicationFailure.create({
    type: SHIPOUT_WRONG_STATE,
    message: `a ${status} ship-out cannot be ${step === 'hand_over' ? 'handed over' : `${step}ed`}`,
    nonRetryable: true,
  });
};

/** A hand-over the business's set-up refuses fails the update with the activity's own failure; nothing changed. */
const refused = (err: unknown): never => {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type === HAND_OVER_REFUSED)
    throw ApplicationFailure.create({
      type: HAND_OVER_REFUSED,
      message: err.cause.message,
      details: err.cause.details ? [...err.cause.details] : [],
      nonRetryable: true,
    });
  throw err;
};

/**
 * A ship-out (docs/customer-services.md, "Ship-outs"): waits for its price (method 2), then for the payment, a
 * cancel or the unpaid expiry (counted from when it became payable), then for the staff steps pick, pack and
 * hand_over, each judged against the status and taken one at a time. The operations write the price, the payment
 * and the cancel and tell the process their new status (one whose signal was lost is read from the row: see
 * RECHECK_MS); the expiry and the steps are its activities.
 */
export async function shipoutWorkflow(input: ShipoutInput): Promise<ShipoutStatus> {
  let status: ShipoutStatus = input.status;
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn);
    queue = run.catch(() => undefined);
    return run;
  };
  /** A status told by an operation: the row only moves forward, so an older one never wins over a newer one. */
  const advance = (next: ShipoutStatus) => {
    if (isEnded(status)) return;
    const order = ['awaiting_price', 'pending_payment', 'paid', 'picked', 'packed', 'handed_over'];
    if (isEnded(next) || order.indexOf(next) > order.indexOf(status)) status = next;
  };
  setHandler(statusSignal, advance);

  const step = (name: Step) => (who: StepInput) =>
    serialized(async () => {
      if (status !== STEPS[name].from) return refuse(status, name);
      const after =
        name === 'hand_over'
          ? await handOver({ shipoutId: input.shipoutId, userId: who.userId }).catch(refused)
          : await recordStep({ shipoutId: input.shipoutId, step: name });
      advance(after);
      if (after !== STEPS[name].to) return refuse(after, name);
      return after;
    });
  const validator = (name: Step) => (_who: StepInput) => {
    if (status !== STEPS[name].from) refuse(status, name);
  };
  setHandler(pickUpdate, step('pick'), { validator: validator('pick') });
  setHandler(packUpdate, step('pack'), { validator: validator('pack') });
  setHandler(handOverUpdate, step('hand_over'), { validator: validator('hand_over') });

  /** Waits while the status is `from`, which only a signal moves on, re-reading the row in case it was lost. */
  const leave = async (from: ShipoutStatus) => {
    for (let wait = RECHECK_MS; status === from; wait = Math.min(wait * 2, RECHECK_MAX_MS))
      if (!(await condition(() => status !== from, wait))) advance(await readShipoutStatus(input.shipoutId));
  };
  // The price or a cancel.
  await leave('awaiting_price');
  // The payment or a cancel, until the expiry, which reads the row under its lock: a payment is found there.
  if (status === 'pending_payment') {
    const moved = await condition(() => status !== 'pending_payment', input.unpaidExpiryMs);
    if (!moved) advance(await expireShipout(input.shipoutId));
  }
  // A cancel, or the pick (an update of this process).
  await leave('paid');
  await condition(() => isEnded(status));
  await condition(allHandlersFinished);
  await queue;
  return status;
}
