import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

/** Codes no operation answers: an approved write that failed keeps them in its approval's `error`. */
const STORED = "a failed approval's `error` (`get_approval`, `list_pending_approvals`)";

export const APPROVALS_ERRORS = {
  SELF_APPROVAL: { status: 403, meaning: 'The reviewer proposed the write; another person must approve it.' },
  APPROVAL_DECIDED: { status: 409, meaning: 'The proposal is no longer pending: it was decided or it expired.' },
  PROPOSER_GONE: {
    status: 409,
    meaning: "The approved write's proposer left the business, or its tool no longer exists; nothing was done.",
    where: STORED,
  },
  OUTCOME_UNKNOWN: {
    status: 500,
    meaning: 'The approved write was interrupted; whether it took effect is unknown.',
    where: STORED,
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof APPROVALS_ERRORS, true> {}
}

export const fail = failWith(APPROVALS_ERRORS);
