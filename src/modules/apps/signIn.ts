/**
 * The policy both app sign-ins apply (docs/apps.md, Sign-in): the app must be bound and available to the client and
 * offer the method; the account must have one of the app's roles and belong to the client business. The session is
 * a bearer token held to the same app, client and roles.
 */
import type { OperationContext } from '../../platform/catalog/types.ts';
import type { Em } from '../../platform/db/orm.ts';
import { formatDateTime } from '../../platform/time.ts';
import { openSession } from '../identity/index.ts';
import { APP_ROLES, type AppType } from './domain.ts';
import { fail } from './errorCodes.ts';
import type { AccountRow } from './repo/identities.ts';
import { bootstrapRow, type BootstrapRow } from './repo/apps.ts';

export type SignInMethod = 'idp' | 'email' | 'registration';

/** The app as bound to the client, when it is available and offers `method`; read afresh, never from the cache. */
export async function signInContext(
  em: Em,
  appCode: string,
  clientCode: string,
  method: SignInMethod,
): Promise<BootstrapRow> {
  const row = await bootstrapRow(em, appCode, clientCode);
  // Unknown, unbound and switched off answer alike, so that sign-in tells nobody which client codes exist.
  if (!row || !row.app_available || !row.client_available) throw fail('APP_UNAVAILABLE', 'apps.unavailable');
  if (!row.config.authentication.methods[method]) throw fail('SIGN_IN_METHOD_OFF', 'apps.method_off');
  return row;
}

/** Refuses an account the app may not sign in: ROLE_NOT_ALLOWED, then CLIENT_NOT_ALLOWED. */
export function admit(app: BootstrapRow, account: Pick<AccountRow, 'role' | 'business_id'>): void {
  if (!(APP_ROLES[app.type as AppType] as readonly string[]).includes(account.role))
    throw fail('ROLE_NOT_ALLOWED', 'apps.role_not_allowed');
  if (account.business_id !== app.business_id) throw fail('CLIENT_NOT_ALLOWED', 'apps.client_not_allowed');
}

export interface Device {
  device_id: string;
  device_platform: string;
}

/** The specification's app session, for an account `admit` let through. */
export async function appSession(
  ctx: OperationContext,
  app: BootstrapRow,
  account: Pick<AccountRow, 'id' | 'name' | 'email'>,
  device: Device,
) {
  const { token, expiresAt } = await openSession(ctx.em, account.id, ctx.config, {
    appId: app.app_id,
    businessId: app.business_id,
    roles: APP_ROLES[app.type as AppType],
    deviceId: device.device_id,
    devicePlatform: device.device_platform,
  });
  return {
    result: true as const,
    access_token: token,
    token_type: 'Bearer' as const,
    expires_at: formatDateTime(expiresAt),
    expires_timestamp: Math.floor(expiresAt.getTime() / 1000),
    user: { id: account.id, name: account.name, email: account.email },
    app_context: {
      app_code: app.code,
      client_code: app.client_code,
      client_name: app.client_name,
      configuration_version: app.configuration_version,
    },
  };
}
