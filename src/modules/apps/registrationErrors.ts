/** The error codes of app registration (docs/apps.md, Registration), merged into the registry like errorCodes.ts. */
import { AppError } from '../../platform/errors.ts';
import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const REGISTRATION_ERRORS = {
  EMAIL_TAKEN: {
    status: 409,
    meaning: 'An account, or a registration waiting for approval, already has this email: sign in instead.',
  },
  IDENTITY_TAKEN: {
    status: 409,
    meaning:
      "The ID token's identity is already bound to an account, or waits for approval in another registration: sign in with it instead.",
  },
  SMS_UNAVAILABLE: {
    status: 403,
    meaning:
      'The app verifies phone numbers by SMS, and no SMS provider is set up for it (the bootstrap shows sms_configured false): registration is not possible for now.',
  },
  REGISTRATION_EXPIRED: {
    status: 410,
    meaning: 'The registration was not verified in time: start a new one.',
  },
  REGISTRATION_CLOSED: {
    status: 409,
    meaning: 'The registration is no longer open for this: it was verified, approved or rejected already.',
  },
  RESEND_TOO_SOON: {
    status: 429,
    meaning: "A new code was asked for before the app's resend_after had passed since the last; see Retry-After.",
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof REGISTRATION_ERRORS, true> {}
}

export const failRegistration = failWith(REGISTRATION_ERRORS);

/** 429 RESEND_TOO_SOON with Retry-After. */
export const resendTooSoon = (seconds: number) =>
  new AppError(429, 'RESEND_TOO_SOON', 'apps.resend_too_soon', {
    params: { seconds },
    extra: { retry_after: seconds },
    headers: { 'Retry-After': String(seconds) },
  });
