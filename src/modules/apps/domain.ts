/** Pure rules of the standalone apps (docs/apps.md): shortcuts and their capabilities, semantic versions, the update verdict. */

/** The home shortcuts the specification names, in no particular order: an app orders its own. */
export const QUICK_ACTIONS = ['send', 'return', 'store', 'lockers', 'luggage', 'handover', 'pay', 'wallet'] as const;
export type QuickAction = (typeof QUICK_ACTIONS)[number];

/** The capability each shortcut depends on: the bootstrap leaves a shortcut out while its capability is off or absent. */
export const QUICK_ACTION_CAPABILITY: Readonly<Record<QuickAction, string>> = {
  send: 'orders.send',
  return: 'orders.return',
  store: 'storage.store',
  lockers: 'lockers.pickup',
  luggage: 'luggage.send',
  handover: 'orders.handover',
  pay: 'payments.pay',
  wallet: 'wallet.view',
};

/** The platforms an app runs on. */
export const PLATFORMS = ['ios', 'android'] as const;
export type AppPlatform = (typeof PLATFORMS)[number];

/** The kinds of app; each signs in its own accounts (customer accounts, drivers). */
export const APP_TYPES = ['customer', 'driver'] as const;
export type AppType = (typeof APP_TYPES)[number];

/** The roles an app of each type signs in; its sessions are refused once the account's role is another. */
export const APP_ROLES: Readonly<Record<AppType, readonly ['customer'] | readonly ['driver']>> = {
  customer: ['customer'],
  driver: ['driver'],
};

/** A capability name: lowercase words joined by dots, at least two (`orders.send`). */
export const CAPABILITY_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** Semantic Versioning 2.0.0, without a leading `v` (semver.org's recommended expression). */
export const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** Orders two semantic versions by precedence (build metadata ignored): negative, zero or positive. */
export function compareVersions(a: string, b: string): number {
  const [ma, pa] = split(a);
  const [mb, pb] = split(b);
  for (let i = 0; i < 3; i++) if (ma[i] !== mb[i]) return ma[i]! < mb[i]! ? -1 : 1;
  // A pre-release comes before its release.
  if (!pa.length || !pb.length) return pb.length - pa.length;
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (x === y) continue;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) return BigInt(x) < BigInt(y) ? -1 : 1;
    if (nx !== ny) return nx ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

function split(v: string): [bigint[], string[]] {
  const [core, pre] = v.split('+', 1)[0]!.split(/-(.*)/s, 2);
  return [core!.split('.').map((n) => BigInt(n)), pre ? pre.split('.') : []];
}

export type UpdateAction = 'none' | 'suggest_update' | 'block';

export interface PlatformPolicy {
  minimum_version: string;
  recommended_version: string;
  below_minimum: 'block' | 'suggest_update';
  below_recommended: 'suggest_update' | 'none';
  store_url: string | null;
}

/** What an app of `version` should do under its platform's policy. */
export function updateAction(policy: PlatformPolicy, version: string): UpdateAction {
  if (compareVersions(version, policy.minimum_version) < 0) return policy.below_minimum;
  if (compareVersions(version, policy.recommended_version) < 0) return policy.below_recommended;
  return 'none';
}

/** The shortcuts in the app's order, without those whose capability is not on. */
export const visibleQuickActions = (order: readonly QuickAction[], capabilities: Readonly<Record<string, boolean>>) =>
  order.filter((a) => capabilities[QUICK_ACTION_CAPABILITY[a]] === true);
