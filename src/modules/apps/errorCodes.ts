import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const APPS_ERRORS = {
  APP_UNAVAILABLE: {
    status: 403,
    meaning: 'The app, or its assignment to this client, is switched off by the platform for now.',
  },
  INVALID_ID_TOKEN: {
    status: 401,
    meaning:
      "The ID token is not one of the identity provider's for this app: bad signature, another issuer or audience, expired or malformed.",
  },
  SIGN_IN_METHOD_OFF: {
    status: 403,
    meaning: 'The app does not offer this sign-in method, or the service has no identity provider configured.',
  },
  ROLE_NOT_ALLOWED: { status: 403, meaning: "The account's role is not one the app signs in (customer or driver)." },
  CLIENT_NOT_ALLOWED: {
    status: 403,
    meaning: 'The account does not belong to the client business the app was opened for.',
  },
  REGISTRATION_REQUIRED: {
    status: 409,
    meaning: 'No account is bound to this identity yet: register it (where the app allows) or link it to an account.',
  },
  IDENTITY_CONFLICT: {
    status: 409,
    meaning:
      'The identity and the account do not match: the identity is bound to another account, the account to another identity of the provider, or an unbound identity carries the email of an existing account.',
  },
  IDP_UNAVAILABLE: { status: 503, meaning: "The identity provider's keys could not be read; try again shortly." },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof APPS_ERRORS, true> {}
}

export const fail = failWith(APPS_ERRORS);
