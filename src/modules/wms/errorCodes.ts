import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

/**
 * The codes of warehouses and stored packages (docs/customer-services.md). The two 422 codes are refusals of
 * reservePackages, answered by the ship-out operations that reserve (they declare them in their failures).
 */
export const WMS_ERRORS = {
  WAREHOUSE_CODE_TAKEN: { status: 409, meaning: 'The business has a warehouse with this code already.' },
  WRONG_WAREHOUSE: {
    status: 409,
    meaning: 'The package scanned is expected at another warehouse of the business; nothing changed.',
  },
  PACKAGE_NOT_RECEIVABLE: {
    status: 409,
    meaning:
      'The package cannot be received: its storage order is not paid (unpaid, cancelled or expired), or the package was released or shipped; the message says which.',
  },
  PACKAGES_IN_SEVERAL_WAREHOUSES: {
    status: 422,
    meaning:
      'A package asked for is stored in another warehouse than the service’s: one ship-out leaves one warehouse.',
  },
  PACKAGE_NOT_AVAILABLE: {
    status: 422,
    meaning:
      'A package asked for is not the caller’s, not stored yet, or reserved by another ship-out (or shipped, or released).',
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof WMS_ERRORS, true> {}
}

export const fail = failWith(WMS_ERRORS);
