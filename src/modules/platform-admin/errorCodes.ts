import { failWith, type ErrorCodes } from '../../platform/errorCodes.ts';

export const PLATFORM_ADMIN_ERRORS = {
  FEATURE_DISABLED: {
    status: 409,
    meaning:
      "An opt-in feature family (Order Chat, SMS Marketing, Operations AI Agent) is switched off for the caller's business, or SMS Marketing is revoked by the platform admin or not migrated; the body carries `feature_enabled: false`.",
    where: 'every operation of the opt-in families (docs/opt-in-families.md)',
    body: { feature_enabled: false },
  },
} satisfies ErrorCodes;

declare module '../../platform/errorCodes.ts' {
  interface ModuleErrorCodes extends Record<keyof typeof PLATFORM_ADMIN_ERRORS, true> {}
}

export const fail = failWith(PLATFORM_ADMIN_ERRORS);
