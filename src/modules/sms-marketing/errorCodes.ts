import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const SMS_MARKETING_ERRORS = {
  SMS_PROVIDER_MISSING: {
    status: 503,
    meaning: 'No SMS provider is configured for the service (SMS_PROVIDER): a campaign cannot be started for now.',
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof SMS_MARKETING_ERRORS, true> {}
}

export const fail = failWith(SMS_MARKETING_ERRORS);
