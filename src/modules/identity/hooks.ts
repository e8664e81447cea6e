/**
 * The hook point signInAllowed: a module may hold back an account whose password is right (a driver the business has
 * not approved, or has suspended). Identity then answers as it does a wrong password, so the refusal says nothing of
 * the account; it knows nothing of who listens.
 */
import type { Em } from '../../platform/db/orm.ts';
import { hooksOf } from '../../platform/hooks.ts';
import type { Role } from '../../platform/roles.ts';

export interface SigningIn {
  id: number;
  role: Role;
  businessId: number | null;
}

/** False holds the account back. */
export type SignInAllowedHook = (em: Em, account: SigningIn) => Promise<boolean>;

declare module '../../platform/hooks.ts' {
  interface ModuleHooks {
    signInAllowed: SignInAllowedHook;
  }
}

/** True unless a registered hook holds the account back. */
export async function signInAllowed(em: Em, account: SigningIn): Promise<boolean> {
  for (const hook of hooksOf('signInAllowed')) if (!(await hook(em, account))) return false;
  return true;
}
