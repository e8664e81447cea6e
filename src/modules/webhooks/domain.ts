import type { EventSender } from '../../platform/events.ts';

/** How a receiver gets its events: native JSON, or CloudEvents in binary or structured mode (migrations check the same list). */
export const WEBHOOK_FORMATS = ['native', 'ce_binary', 'ce_structured'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/**
 * Retry schedules by sender, in seconds between attempts. Tenant webhooks: five attempts in all, about
 * 10 s, 100 s, 1000 s and 10000 s apart. Partner locker and third-party: up to seven retries with
 * exponential backoff (x4 from 10 s), then dead letter. WEBHOOK_RETRY_SCALE shrinks them for tests.
 */

const TENANT = [10, 100, 1_000, 10_000];
const PROVIDER = [10, 40, 160, 640, 2_560, 10_240, 40_960];

export function retryDelaysSec(sender: EventSender): readonly number[] {
  return sender === 'tenant' ? TENANT : PROVIDER;
}

/** Attempts in all: the first one plus the retries. */
export const maxAttempts = (sender: EventSender) => retryDelaysSec(sender).length + 1;

/** The wait before attempt `next` (2 = the first retry), scaled. */
export function delayBeforeAttemptMs(sender: EventSender, next: number, scale: number): number {
  return Math.round(retryDelaysSec(sender)[next - 2]! * 1000 * scale);
}
