import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const DELIVERY_PRICE_ERRORS = {
  PRICE_MODEL_MISSING: {
    status: 409,
    meaning:
      'The business has no local delivery price model yet; its administrator sets one (PUT /v1/client/delivery-price-model).',
  },
  DELIVERY_COORDINATES_REQUIRED: {
    status: 422,
    meaning:
      "The price model charges per kilometre and the recipient's address has no coordinates (lat and lng) to measure the distance to.",
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof DELIVERY_PRICE_ERRORS, true> {}
}

export const fail = failWith(DELIVERY_PRICE_ERRORS);
