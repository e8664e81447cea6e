import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const DISTRIBUTION_ERRORS = {
  PLACE_CODE_TAKEN: { status: 409, meaning: 'The business already has a place with this code.' },
  PLACE_IDENTIFIER_TAKEN: { status: 409, meaning: 'Another place already has this identifier (SGLN).' },
  SUPPLIER_ACCOUNT_EXISTS: {
    status: 409,
    meaning: 'The carrier already has an active supplier account with the business.',
  },
  MEMBER_NUMBER_TAKEN: {
    status: 409,
    meaning: 'Another active supplier account of the business has this member number.',
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof DISTRIBUTION_ERRORS, true> {}
}

export const fail = failWith(DISTRIBUTION_ERRORS);
