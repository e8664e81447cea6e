import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const APPS_ERRORS = {
  APP_UNAVAILABLE: {
    status: 403,
    meaning: 'The app, or its assignment to this client, is switched off by the platform for now.',
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof APPS_ERRORS, true> {}
}

export const fail = failWith(APPS_ERRORS);
