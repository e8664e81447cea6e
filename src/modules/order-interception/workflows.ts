import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import {
  executeUpdate,
  heldSignal,
  INTERCEPTION_ENDING,
  INTERCEPTION_NOT_HELD,
  INTERCEPTION_NOT_OPEN,
  INTERCEPTION_STATUS,
  isOpen,
  requestUpdate,
  stateQuery,
  withdrawUpdate,
  type EndStep,
  type InterceptionActivities,
  type InterceptionInput,
  type InterceptionSnapshot,
  type StepActor,
} from './contract.ts';

/**
 * Each step is one short transaction that a retry after a killed worker finds done (the request by its key, the
 * other steps by the row's state), so the steps are retried until the database answers.
 */
const { beginInterception, recordHeld, endInterception } = proxyActivities<InterceptionActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const refuse = (type: string, message: string): never => {
  throw ApplicationFailure.create({ type, message, nonRetryable: true });
};

/**
 * An order's interception (docs/orders.md, "Interception"), started with its request by update-with-start: the
 * request is judged (in effect, status 48, or rejected); once in effect the parcel has `holdDeadlineMs` to be
 * reported at a warehouse (a signal from a scan or a carrier event), or the interception fails; once held, the
 * business's staff execute the outcome. The requester may withdraw it until then. Steps run one at a time, each
 * against the state the one before left; a request while the interception is open is recorded as rejected.
 */
export async function orderInterceptionWorkflow(input: InterceptionInput): Promise<InterceptionSnapshot> {
  let snap: InterceptionSnapshot = { interceptionId: null, state: 'requested', reason: null };
  let started = false;
  let requests = 0;
  let queue: Promise<unknown> = Promise.resolve();
  /**
   * Held reports queued or being recorded. The read model says held once the report is committed, a moment before
   * this process has the answer: an execute sent on the strength of it waits for the report's step instead of
   * being refused as not held.
   */
  let heldReports = 0;
  const serialized = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn);
    queue = run.catch(() => undefined);
    return run;
  };
  const settle = (next: InterceptionSnapshot) => {
    if (next.state !== snap.state) upsertSearchAttributes([{ key: INTERCEPTION_STATUS, value: next.state }]);
    snap = next;
  };
  /** Set once the interception has been judged and has ended (or is ending): a new request goes to the next run. */
  const ended = () => started && !isOpen(snap.state);

  const end = (step: EndStep, actor: StepActor | null) =>
    serialized(async () => {
      if (snap.interceptionId === null || !isOpen(snap.state))
        return refuse(INTERCEPTION_NOT_OPEN, `interception of order ${input.orderId} is ${snap.state}`);
      if (step === 'outcome_executed' && snap.state !== 'held_at_warehouse')
        return refuse(INTERCEPTION_NOT_HELD, `the parcel of order ${input.orderId} is not held yet`);
      if (step === 'failed' && snap.state !== 'in_effect') return snap;
      settle(await endInterception({ interceptionId: snap.interceptionId, step, actor }));
      return snap;
    });

  setHandler(stateQuery, () => snap);
  setHandler(
    requestUpdate,
    (request) =>
      serialized(async () => {
        const primary = !started;
        started = true;
        const answer = await beginInterception({
          orderId: input.orderId,
          businessId: input.businessId,
          requestKey: `${workflowInfo().workflowId}/${workflowInfo().runId}/${++requests}`,
          primary,
          holdDeadlineMs: input.holdDeadlineMs,
          workflowId: workflowInfo().workflowId,
          request,
        });
        if (primary) settle(answer);
        return answer;
      }),
    {
      validator: (_request) => {
        if (ended()) refuse(INTERCEPTION_ENDING, `interception of order ${input.orderId} has ended`);
      },
    },
  );
  setHandler(withdrawUpdate, (actor) => end('withdrawn', actor), {
    validator: (_actor) => {
      if (snap.interceptionId === null || !isOpen(snap.state))
        refuse(INTERCEPTION_NOT_OPEN, `interception of order ${input.orderId} is ${snap.state}`);
    },
  });
  setHandler(executeUpdate, (actor) => end('outcome_executed', actor), {
    validator: (_actor) => {
      if (snap.interceptionId === null || !isOpen(snap.state))
        refuse(INTERCEPTION_NOT_OPEN, `interception of order ${input.orderId} is ${snap.state}`);
      if (snap.state !== 'held_at_warehouse' && heldReports === 0)
        refuse(INTERCEPTION_NOT_HELD, `the parcel of order ${input.orderId} is not held yet`);
    },
  });
  setHandler(heldSignal, (report) => {
    heldReports++;
    void serialized(async () => {
      if (snap.interceptionId === null || snap.state !== 'in_effect') return;
      settle(await recordHeld({ interceptionId: snap.interceptionId, report }));
    }).finally(() => heldReports--);
  });

  // The request that started the process is judged first.
  await condition(() => snap.interceptionId !== null || (started && !isOpen(snap.state)));
  if (snap.state === 'in_effect') {
    const held = await condition(() => snap.state !== 'in_effect', input.holdDeadlineMs);
    // A step queued before the deadline (held, withdrawn) wins: `end` looks at the state again in its turn.
    if (!held) await end('failed', null).catch(() => undefined);
  }
  await condition(() => !isOpen(snap.state));
  await condition(allHandlersFinished);
  await queue;
  return snap;
}
