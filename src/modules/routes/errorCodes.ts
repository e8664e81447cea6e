import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const ROUTES_ERRORS = {
  NOTHING_TO_PLAN: {
    status: 422,
    meaning:
      'Every order or every driver of the build was left out (the answer lists each with its code in `skipped`): nothing is solved or written.',
  },
  BUILD_FINISHED: {
    status: 409,
    meaning: 'The route build has ended, or is writing its routes: it can no longer be cancelled.',
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof ROUTES_ERRORS, true> {}
}

export const fail = failWith(ROUTES_ERRORS);
