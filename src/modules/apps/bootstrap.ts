/** The bootstrap body, computed once per change and kept by the read cache; the update verdict is added per request. */
import { type AppPlatform, type PlatformPolicy, updateAction, visibleQuickActions } from './domain.ts';
import type { BootstrapRow } from './repo/apps.ts';
import type { BootstrapData } from './views.ts';

/** What the cache keeps per app and client code: the body, or why there is none. */
export type CachedBootstrap = { state: 'missing' } | { state: 'unavailable' } | { state: 'ok'; data: BootstrapData };

/**
 * `smsProvider`: whether this deployment has an SMS provider (SMS_PROVIDER); without one the body says
 * sms_configured false whatever the configuration says, since no code could be sent (docs/apps.md, Registration).
 */
export function bootstrapOf(row: BootstrapRow | null, smsProvider = true): CachedBootstrap {
  if (!row) return { state: 'missing' };
  if (!row.app_available || !row.client_available) return { state: 'unavailable' };
  const c = row.config;
  return {
    state: 'ok',
    data: {
      app: { code: row.code, name: row.name, type: row.type, schema_version: row.schema_version },
      client: { code: row.client_code, display_name: row.client_name },
      configuration_version: row.configuration_version,
      capabilities: c.capabilities,
      authentication: smsProvider
        ? c.authentication
        : { ...c.authentication, registration: { ...c.authentication.registration, sms_configured: false } },
      services: c.services,
      settings: { home: { quick_actions: visibleQuickActions(c.quick_actions, c.capabilities) } },
      branding: c.branding,
      service_contracts: c.service_contracts,
      version_policy: c.version_policy,
      update: null,
    },
  };
}

/** Most verdicts kept per cached body: the platforms times the app versions in use, which are few. */
const VERDICTS_KEPT = 64;
const verdicts = new WeakMap<BootstrapData, Map<string, BootstrapData>>();

/**
 * The body with the verdict for the platform and version the app sent (both, or no verdict). Kept with the cached
 * body it was made from (and gone with it), since every app of one version asks the same.
 */
export function withVerdict(data: BootstrapData, platform?: AppPlatform, appVersion?: string): BootstrapData {
  if (!platform || !appVersion) return data;
  let kept = verdicts.get(data);
  if (!kept) verdicts.set(data, (kept = new Map()));
  const key = `${platform} ${appVersion}`;
  let answer = kept.get(key);
  if (!answer) {
    const policy = data.version_policy[platform] as PlatformPolicy;
    // Shared by every request that asks the same, like the cached body: frozen.
    answer = Object.freeze({
      ...data,
      update: { platform, app_version: appVersion, action: updateAction(policy, appVersion) },
    });
    if (kept.size < VERDICTS_KEPT) kept.set(key, answer);
  }
  return answer;
}
