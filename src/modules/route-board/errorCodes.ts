import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const ROUTE_BOARD_ERRORS = {
  BOARD_NOT_OPEN: {
    status: 409,
    meaning:
      'The route board is not in the phase this needs: claims wait until it opens, a driver is named only once it has closed.',
  },
  BOARD_CLOSED: { status: 409, meaning: 'The route board has closed: claims are no longer taken or changed.' },
  BOARD_ENDED: { status: 409, meaning: 'The route board is settled or cancelled: nothing changes any more.' },
  ALREADY_CLAIMED: {
    status: 409,
    meaning: 'The contractor already has a live claim on this seat, or a live pooled claim on this board.',
  },
  CLAIM_VETOED: { status: 409, meaning: "The business vetoed the contractor's claim on this seat." },
  CLAIM_NOT_LIVE: {
    status: 409,
    meaning: 'The claim has ended (withdrawn, vetoed, replaced, lost, displaced, settled) or cannot take this step.',
  },
  CLAIM_NOT_AWARDED: { status: 409, meaning: 'Only an awarded claim names its driver.' },
  DRIVER_NOT_AVAILABLE: {
    status: 409,
    meaning:
      'The driver is not an active driver of the business, or already drives another route that is not cancelled on that date.',
  },
  ROUTE_NOT_PLANNED: {
    status: 409,
    meaning: 'The route has started, finished or been cancelled: its driver no longer changes through the board.',
  },
  ROUTE_NOT_OFFERABLE: {
    status: 409,
    meaning:
      'A route named is not planned for the board date, or is on another board that has not ended; `errors` says which.',
  },
} satisfies ErrorCodes;

export type RouteBoardCode = keyof typeof ROUTE_BOARD_ERRORS;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof ROUTE_BOARD_ERRORS, true> {}
}

export const fail = failWith(ROUTE_BOARD_ERRORS);
