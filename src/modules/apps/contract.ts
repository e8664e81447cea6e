/**
 * The app registration process (docs/apps.md, Registration), imported by the API (to start it, ask for a new code
 * and close it) and by the workflow. Workflow id `app-registration-<id>`; the app_registration row is the read model
 * its activities write.
 */
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';

export const REGISTRATION_WORKFLOW = 'appRegistrationWorkflow';
export const REGISTRATION_QUEUE = PROCESS_QUEUE;
export const registrationWorkflowId = (id: string): string => `app-registration-${id}`;

/** How long a registration waits for its code, before REGISTRATION_TIMER_SCALE. */
export const REGISTRATION_TTL_MS = 10 * 60_000;

export interface RegistrationInput {
  /** The registration's opaque id (a UUID). */
  id: string;
  /** ISO 8601: a registration not verified by then expires. */
  expiresAt: string;
  /** Milliseconds from one code to the next request for one (the app's resend_after, scaled). */
  resendAfterMs: number;
}

/** What a resend answers: the number of the code on its way and when the next may be asked for (ISO 8601). */
export interface ResendAnswer {
  codeNumber: number;
  resendAt: string;
}

/** A new code, refused before the wait has passed (RESEND_TOO_SOON) or once the registration has closed. */
export const resendUpdate = defineUpdate<ResendAnswer, []>('resend');
/** The registration was verified: the process ends without expiring it. */
export const closeSignal = defineSignal('close');

/** Failure type of a resend asked for too soon; its details hold the seconds left. */
export const RESEND_TOO_SOON = 'ResendTooSoon';
/** Failure type of a resend once the registration was verified or expired. */
export const REGISTRATION_CLOSED = 'RegistrationClosed';
/** Failure type of a code the provider refused to send (a number it does not serve): not retried. */
export const SMS_REFUSED = 'SmsRefused';

export type RegistrationOutcome = 'closed' | 'expired';

/** The registration's activities, as they cross into history (activities.ts implements them). */
export type RegistrationActivities = {
  /**
   * Sends code number `codeNumber` of the registration, unless it has closed. The code is derived from the secrets
   * key, the id and the number, and the provider is given one idempotency key per code: a retry sends the same code,
   * and none that already went out.
   */
  sendRegistrationCode(input: { id: string; codeNumber: number }): Promise<'sent' | 'closed'>;
  /** Expires the registration unless it was verified meanwhile. */
  expireRegistration(input: { id: string }): Promise<'expired' | 'closed'>;
};
