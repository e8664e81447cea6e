import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  log,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import {
  closeSignal,
  REGISTRATION_CLOSED,
  RESEND_TOO_SOON,
  resendUpdate,
  SMS_REFUSED,
  type RegistrationActivities,
  type RegistrationInput,
  type RegistrationOutcome,
} from './contract.ts';

/**
 * An app registration waiting for its SMS code (docs/apps.md, Registration): it sends the first code, sends another
 * on request once `resendAfterMs` has passed since the last, and expires the registration at `expiresAt` unless the
 * API closes it first (the code was verified). The expiry is a durable timer; a code's send is an activity whose
 * idempotency key is the code's number, so a worker killed between steps neither loses the expiry nor sends twice.
 */
export async function appRegistrationWorkflow(input: RegistrationInput): Promise<RegistrationOutcome> {
  const deadline = Date.parse(input.expiresAt);
  const retry = { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: [SMS_REFUSED] };
  const { expireRegistration } = proxyActivities<RegistrationActivities>({ startToCloseTimeout: '30 seconds', retry });
  // An attempt lost with its worker is tried again after this: 30 s of a 10-minute window, never so long that a short
  // window (REGISTRATION_TIMER_SCALE) ends before the retry.
  const attemptMs = Math.min(30_000, Math.max(2_000, (deadline - Date.now()) / 20));
  /** A code's send is worth trying for the time left before the expiry, counted when it is asked for; a refused number is not. */
  const sendCode = (codeNumber: number) =>
    proxyActivities<RegistrationActivities>({
      startToCloseTimeout: attemptMs,
      scheduleToCloseTimeout: Math.max(1_000, deadline - Date.now()),
      retry,
    }).sendRegistrationCode({ id: input.id, codeNumber });
  let closed = false;
  let wanted = 1;
  let sent = 0;
  let lastAskedAt = Date.now();

  setHandler(closeSignal, () => {
    closed = true;
  });
  setHandler(
    resendUpdate,
    () => {
      wanted += 1;
      lastAskedAt = Date.now();
      return { codeNumber: wanted, resendAt: new Date(lastAskedAt + input.resendAfterMs).toISOString() };
    },
    {
      validator: () => {
        if (closed || Date.now() >= deadline)
          throw ApplicationFailure.create({
            type: REGISTRATION_CLOSED,
            message: `registration ${input.id} is closed`,
            nonRetryable: true,
          });
        const wait = lastAskedAt + input.resendAfterMs - Date.now();
        if (wait > 0)
          throw ApplicationFailure.create({
            type: RESEND_TOO_SOON,
            message: 'a new code was asked for too soon',
            details: [Math.ceil(wait / 1000)],
            nonRetryable: true,
          });
      },
    },
  );

  while (!closed && Date.now() < deadline) {
    if (sent < wanted) {
      const codeNumber = wanted;
      try {
        await sendCode(codeNumber);
      } catch (err) {
        // Not sent (refused, or not before the expiry): the person may ask for another code.
        log.warn('registration code not sent', { codeNumber, error: (err as Error).message });
      }
      sent = codeNumber;
      continue;
    }
    await condition(() => closed || sent < wanted, Math.max(1, deadline - Date.now()));
  }
  const outcome: RegistrationOutcome = closed ? 'closed' : await expireRegistration({ id: input.id });
  await condition(allHandlersFinished);
  return outcome;
}
