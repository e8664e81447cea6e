import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const WEBHOOKS_ERRORS = {
  CHALLENGE_FAILED: { status: 400, meaning: 'The subscribed URL did not echo the challenge; the message says why.' },
  DELIVERY_IN_PROGRESS: { status: 409, meaning: 'The delivery is still being tried; replay it once it has finished.' },
  PROVIDER_WEBHOOK_NOT_CONFIGURED: { status: 409, meaning: 'The provider account has no webhook endpoint set up yet.' },
  SANDBOX_DISABLED: { status: 409, meaning: "The partner locker endpoint's sandbox is switched off." },
  SUBSCRIPTION_EXISTS: { status: 409, meaning: 'A live subscription already has the same URL and events.' },
  TOO_MANY_SUBSCRIPTIONS: {
    status: 409,
    meaning: 'The business already holds the most live OHP subscriptions allowed.',
  },
  TOO_MANY_SUBSCRIPTIONS_FOR_URL: {
    status: 409,
    meaning: 'The URL already has the most live OHP subscriptions allowed for one URL.',
  },
  WEBHOOK_SECRET_MISSING: { status: 409, meaning: 'No webhook signing secret is set; set one before sending a test.' },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof WEBHOOKS_ERRORS, true> {}
}

export const fail = failWith(WEBHOOKS_ERRORS);
