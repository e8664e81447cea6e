import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

/** The catalog's codes (docs/customer-services.md, "The catalog"). */
export const CUSTOMER_SERVICES_ERRORS = {
  SERVICE_CODE_TAKEN: {
    status: 409,
    meaning: 'The business has a service of this kind with this code already (inactive ones included).',
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof CUSTOMER_SERVICES_ERRORS, true> {}
}

export const fail = failWith(CUSTOMER_SERVICES_ERRORS);
