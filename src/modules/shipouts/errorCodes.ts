import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

/**
 * The ship-out's codes (docs/customer-services.md, "Ship-outs"). It also answers codes other modules define: the
 * wallet's INSUFFICIENT_FUNDS, wms's PACKAGES_IN_SEVERAL_WAREHOUSES and PACKAGE_NOT_AVAILABLE, and
 * PRICE_HIDDEN_SETTLE_OFFLINE and NOTHING_DUE, which every paying module answers alike.
 */
export const SHIPOUTS_ERRORS = {
  SHIPOUT_WRONG_STATE: {
    status: 409,
    meaning:
      'The ship-out’s status does not allow this step (a pick before it is paid, a pack before the pick, a cancel once picked, a payment of a cancelled or expired one); nothing changed.',
  },
  SHIPOUT_NOT_PRICED: {
    status: 409,
    meaning: 'The ship-out waits for the business to price it (a service priced later): it can be paid once priced.',
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof SHIPOUTS_ERRORS, true> {}
}

export const fail = failWith(SHIPOUTS_ERRORS);
