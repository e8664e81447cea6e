import type { ActivityOptions } from '@temporalio/workflow';

/**
 * How a process retries the notice it sends a person (a pickup code by mail): a mail server down for hours still
 * gets it, 30 attempts 5 s apart at first, doubling to at most 10 minutes, about 4 hours in all. `scale` shrinks the
 * waits (the tests' timer scales). Locker deliveries, device orders and distributions send theirs so.
 */
export const NOTICE_ATTEMPTS = 30;

export function noticeActivityOptions(scale: number, nonRetryableErrorTypes?: string[]): ActivityOptions {
  return {
    startToCloseTimeout: '1 minute',
    retry: {
      initialInterval: Math.max(1, 5_000 * scale),
      backoffCoefficient: 2,
      maximumInterval: Math.max(1, 600_000 * scale),
      maximumAttempts: NOTICE_ATTEMPTS,
      ...(nonRetryableErrorTypes && { nonRetryableErrorTypes }),
    },
  };
}
