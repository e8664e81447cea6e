/** The standalone apps' sign-in (specification A2) and the linking of an identity provider's identity to an account. */
import { z } from 'zod';
import { defineOperation, type OperationContext } from '../../../platform/catalog/types.ts';
import { emailParam, pathCode } from '../../../platform/catalog/schemas.ts';
import { errors } from '../../../platform/errors.ts';
import { translate } from '../../../platform/i18n/messages.ts';
import { ROLES } from '../../../platform/roles.ts';
import { accountForPassword, signInAllowed } from '../../identity/index.ts';
import { PLATFORMS } from '../domain.ts';
import { fail } from '../errorCodes.ts';
import { verifyIdToken } from '../idToken.ts';
import * as identities from '../repo/identities.ts';
import { admit, appSession, signInContext } from '../signIn.ts';
import { clientCode, semver } from '../views.ts';

const TAG = 'Platform apps';

export const device = {
  device_id: z
    .string()
    .min(1)
    .max(191)
    .meta({ examples: ['5f0c2a9e-8d1b-4f7e-9a65-3c2b1d0e4f77'] }),
  device_platform: z.enum(PLATFORMS),
  app_version: semver().nullable().optional(),
};
export const idToken = z
  .string()
  .min(1)
  .max(16_384)
  .meta({ examples: ['eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl'] });
export const context = { app_code: pathCode(64).meta({ examples: ['demo-customer'] }), client_code: clientCode() };

export const appSessionView = z.object({
  result: z.literal(true),
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_at: z.string().meta({ description: 'YYYY-MM-DD HH:MM:SS, UTC' }),
  expires_timestamp: z.number().int().meta({ description: 'Unix seconds' }),
  user: z.object({ id: z.number().int(), name: z.string(), email: z.string() }),
  app_context: z.object({
    app_code: z.string(),
    client_code: z.string(),
    client_name: z.string(),
    configuration_version: z.number().int(),
  }),
});
export /** The app, client and device of the examples. */
const signInExample = {
  app_code: 'demo-customer',
  client_code: 'DEMO',
  device_id: '5f0c2a9e-8d1b-4f7e-9a65-3c2b1d0e4f77',
  device_platform: 'ios' as const,
  app_version: '1.3.2',
};
export const sessionExample = {
  result: true as const,
  access_token: 'tms_3q2H8v0kYtq1Jx4Zb7Wm9Rr2Lp6Nc5Sd',
  token_type: 'Bearer' as const,
  expires_at: '2026-11-27 09:30:00',
  expires_timestamp: 1795772600,
  user: { id: 12, name: 'Demo Customer', email: 'customer@demo.example' },
  app_context: { app_code: 'demo-customer', client_code: 'DEMO', client_name: 'Demo', configuration_version: 3 },
};

/** The configured identity provider, or SIGN_IN_METHOD_OFF when the service has none. */
function providerOf(ctx: OperationContext) {
  if (!ctx.config.idp) throw fail('SIGN_IN_METHOD_OFF', 'apps.idp_not_configured');
  return ctx.config.idp;
}

const POLICY =
  "The client code selects the configuration and grants nothing: the account must have a role the app signs in (customer apps: customer accounts; driver apps: drivers; else ROLE_NOT_ALLOWED) and belong to that client business (else CLIENT_NOT_ALLOWED). APP_UNAVAILABLE (403) when the app is unknown, not bound to the client or switched off; SIGN_IN_METHOD_OFF when the app does not offer the method. The answer is the app session: a bearer token for REST, GraphQL and MCP like any other, refused once the account no longer has the app's role or client, with expires_at (YYYY-MM-DD HH:MM:SS, UTC) and expires_timestamp (Unix seconds), the user and the app context.";

export const appSignInIdp = defineOperation({
  name: 'app_sign_in_idp',
  summary: "Sign in to a standalone app with the identity provider's ID token.",
  description: `Verifies id_token (signature by a key of the provider's JWKS, issuer, expiry, and audience: the app's server_client_id from the bootstrap), then finds the account bound to that identity, the one binding the web uses too. INVALID_ID_TOKEN (401) for a token that fails any check; REGISTRATION_REQUIRED (409) when no account is bound to the identity (register where the app allows it, or sign in with email and link it); IDENTITY_CONFLICT (409) when the identity is unbound but its verified email is an account's (that account links it after signing in with its password); IDP_UNAVAILABLE (503) when the provider's keys cannot be read; INVALID_CREDENTIALS (401) for an account that may not sign in now (a driver not approved, or suspended). ${POLICY}`,
  tag: TAG,
  roles: 'public',
  limit: 'sign_in',
  rest: { method: 'POST', path: '/v1/apps/{app_code}/clients/{client_code}/auth/idp' },
  failures: {
    APP_UNAVAILABLE: 'The app is unknown, not bound to the client, or switched off',
    SIGN_IN_METHOD_OFF: 'The app does not offer identity provider sign-in, or the service has no provider configured',
    INVALID_ID_TOKEN: 'The ID token fails its signature, issuer, audience or expiry',
    REGISTRATION_REQUIRED: 'No account is bound to the identity',
    IDENTITY_CONFLICT: "The unbound identity's verified email belongs to an account",
    ROLE_NOT_ALLOWED: "The account's role is not one the app signs in",
    CLIENT_NOT_ALLOWED: 'The account belongs to another business',
    IDP_UNAVAILABLE: "The identity provider's keys cannot be read",
    INVALID_CREDENTIALS: 'The account may not sign in now (a driver the business has not approved, or has suspended)',
  },
  input: z.object({ ...context, id_token: idToken, ...device }).strict(),
  output: appSessionView,
  examples: {
    input: { ...signInExample, id_token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl' },
    output: sessionExample,
  },
  async handler(input, ctx) {
    const app = await signInContext(ctx.em, input.app_code, input.client_code, 'idp');
    const who = await verifyIdToken(providerOf(ctx), input.id_token, [app.config.authentication.idp.server_client_id]);
    const account = await identities.accountOfIdentity(ctx.em, who.issuer, who.subject);
    if (!account) {
      const sameEmail = who.emailVerified && who.email ? await identities.accountByEmail(ctx.em, who.email) : null;
      if (sameEmail) throw fail('IDENTITY_CONFLICT', 'apps.identity_conflict');
      throw fail('REGISTRATION_REQUIRED', 'apps.registration_required');
    }
    admit(app, account);
    // An account another module holds back (a driver not approved, or suspended) as the email sign-in does.
    if (!(await signInAllowed(ctx.em, { id: account.id, role: account.role, businessId: account.business_id })))
      throw errors.invalidCredentials();
    return appSession(ctx, app, account, input);
  },
});

export const appSignInEmail = defineOperation({
  name: 'app_sign_in_email',
  summary: 'Sign in to a standalone app with email and password.',
  description: `Checks the account's password as user_login does: INVALID_CREDENTIALS (401) for a wrong email or password, the same whether or not an account has the email, and TOO_MANY_ATTEMPTS (429, see Retry-After) after repeated wrong passwords for the email, counted together with user_login's. ${POLICY}`,
  tag: TAG,
  roles: 'public',
  limit: 'sign_in',
  rest: { method: 'POST', path: '/v1/apps/{app_code}/clients/{client_code}/auth/email' },
  failures: {
    APP_UNAVAILABLE: 'The app is unknown, not bound to the client, or switched off',
    SIGN_IN_METHOD_OFF: 'The app does not offer email sign-in',
    INVALID_CREDENTIALS: 'Wrong email or password, the same answer whether or not an account has the email',
    TOO_MANY_ATTEMPTS: 'Sign-in refused for this email after repeated wrong passwords; see Retry-After',
    ROLE_NOT_ALLOWED: "The account's role is not one the app signs in",
    CLIENT_NOT_ALLOWED: 'The account belongs to another business',
  },
  input: z
    .object({ ...context, email: emailParam().toLowerCase(), password: z.string().min(1).max(1024), ...device })
    .strict(),
  output: appSessionView,
  examples: {
    input: { ...signInExample, email: 'customer@demo.example', password: 'demo-password' },
    output: sessionExample,
  },
  async handler(input, ctx) {
    const app = await signInContext(ctx.em, input.app_code, input.client_code, 'email');
    const account = await accountForPassword(ctx.em, input.email, input.password, ctx.config);
    admit(app, { role: account.role, business_id: account.businessId ?? null });
    return appSession(ctx, app, account, input);
  },
});

export const identityLink = defineOperation({
  name: 'user_identity_link',
  summary: "Link the identity provider's identity to the signed-in account.",
  description:
    "Binds the identity of id_token to this account, so that auth/idp signs it in from then on. The token's audience is the web's client id or the server_client_id of an app bound to the account's business. One identity of the provider per account and one account per identity: IDENTITY_CONFLICT (409) when the identity is another account's or this account has another; linking the same again answers as the first time. INVALID_ID_TOKEN (401) for a token that fails its checks; SIGN_IN_METHOD_OFF when the service has no identity provider configured.",
  tag: 'User',
  roles: ROLES,
  rest: { method: 'POST', path: '/v1/user/identity' },
  failures: {
    SIGN_IN_METHOD_OFF: 'The service has no identity provider configured',
    INVALID_ID_TOKEN: 'The ID token fails its signature, issuer, audience or expiry',
    IDENTITY_CONFLICT: 'The identity is bound to another account, or this account to another identity',
    IDP_UNAVAILABLE: "The identity provider's keys cannot be read",
  },
  input: z.object({ id_token: idToken }).strict(),
  output: z.object({ result: z.literal(true), message: z.string(), issuer: z.string() }),
  async handler({ id_token }, ctx) {
    const idp = providerOf(ctx);
    const audiences = await identities.audiencesFor(ctx.em, ctx.caller!.businessId);
    if (idp.webClientId) audiences.push(idp.webClientId);
    const who = await verifyIdToken(idp, id_token, audiences);
    if (!(await identities.bindIdentity(ctx.em, who.issuer, who.subject, ctx.caller!.id)))
      throw fail('IDENTITY_CONFLICT', 'apps.identity_conflict');
    return { result: true as const, message: translate('apps.identity_linked', ctx.lang), issuer: who.issuer };
  },
});

export const identityUnlink = defineOperation({
  name: 'user_identity_unlink',
  summary: "Remove the identity provider's identity from the signed-in account.",
  description:
    'After it, auth/idp no longer signs this account in with that identity (REGISTRATION_REQUIRED); sessions already open stay valid until they expire or user_logout revokes them. NOT_FOUND when the account has no identity of the configured provider linked; SIGN_IN_METHOD_OFF when the service has no identity provider configured.',
  tag: 'User',
  roles: ROLES,
  rest: { method: 'DELETE', path: '/v1/user/identity' },
  failures: {
    SIGN_IN_METHOD_OFF: 'The service has no identity provider configured',
    NOT_FOUND: 'No identity of the provider is linked to this account',
  },
  input: z.object({}).strict(),
  output: z.object({ result: z.literal(true), message: z.string() }),
  async handler(_input, ctx) {
    if (!(await identities.unbindIdentity(ctx.em, providerOf(ctx).issuer, ctx.caller!.id))) throw errors.notFound();
    return { result: true as const, message: translate('apps.identity_unlinked', ctx.lang) };
  },
});

export const SIGN_IN_OPERATIONS = [appSignInIdp, appSignInEmail, identityLink, identityUnlink];
