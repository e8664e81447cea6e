import { z } from 'zod';
import { translate } from '../../platform/i18n/messages.ts';
import { ROLES } from '../../platform/roles.ts';
import { formatDateTime } from '../../platform/time.ts';
import { businessById, revokeToken } from './repo.ts';
import { accountForPassword, openSession } from './session.ts';
import { defineOperation } from '../../platform/catalog/types.ts';
import { emailParam } from '../../platform/catalog/schemas.ts';

const ANY_ROLE = ROLES;

export const login = defineOperation({
  name: 'user_login',
  summary: 'Sign in with email and password; answers a bearer token.',
  description:
    'Send the token as `Authorization: Bearer <token>` on every other call; it lasts 24 hours by default (`expires_at` says when) unless user_logout revokes it. A wrong email or password answers INVALID_CREDENTIALS, the same whether or not an account has the email. From the third wrong password in a row the email is held back for growing waits, and after 10 it is refused for 15 minutes, the right password too (TOO_MANY_ATTEMPTS, see Retry-After); each address may try 30 times a minute (RATE_LIMITED).',
  tag: 'User',
  roles: 'public',
  limit: 'sign_in',
  rest: { method: 'POST', path: '/v1/user/login' },
  failures: {
    INVALID_CREDENTIALS: 'Wrong email or password, the same answer whether or not an account has the email',
    TOO_MANY_ATTEMPTS:
      'Sign-in refused for this email after repeated wrong passwords, whether or not an account has it; see Retry-After',
  },
  graphql: { name: 'userLogin', kind: 'mutation' },
  input: z.object({ email: emailParam().toLowerCase(), password: z.string().min(1).max(1024) }).strict(),
  output: z.object({ access_token: z.string(), token_type: z.literal('Bearer'), expires_at: z.string() }),
  async handler(input, ctx) {
    const user = await accountForPassword(ctx.em, input.email, input.password, ctx.config);
    const { token, expiresAt } = await openSession(ctx.em, user.id, ctx.config);
    return { access_token: token, token_type: 'Bearer' as const, expires_at: formatDateTime(expiresAt) };
  },
});

export const logout = defineOperation({
  name: 'user_logout',
  summary: 'Revoke the bearer token of this request.',
  description:
    "Use it when a session ends. Only the token sent with this call stops working: the account's other sessions and its machine keys stay valid, and the revoked token answers UNAUTHENTICATED from then on, to this operation too. Machine keys (device, scanner, OTEP ingest) cannot call it (FORBIDDEN); each kind has its own revoke operation.",
  tag: 'User',
  roles: ANY_ROLE,
  rest: { method: 'POST', path: '/v1/user/logout' },
  graphql: { name: 'userLogout', kind: 'mutation' },
  input: z.object({}).strict(),
  output: z.object({ result: z.boolean(), message: z.string() }),
  async handler(_input, ctx) {
    await revokeToken(ctx.em, ctx.caller!.tokenHash);
    // Other API processes hear of it from PostgreSQL; this one forgets at once, before it answers.
    ctx.reads.changed();
    return { result: true, message: translate('auth.logged_out', ctx.lang) };
  },
});

export const me = defineOperation({
  name: 'user_me',
  summary: 'Read the signed-in account and its business.',
  description:
    "Answers the account's id, name, email and role, and its business's id, code and name; `business` is null for an account that belongs to no business. Use it after signing in to learn what the role allows; a contractor's `id` is the `broker_id` that contractor assignments name. Takes a session token only: a machine key (device, scanner, OTEP ingest) answers FORBIDDEN.",
  tag: 'User',
  roles: ANY_ROLE,
  rest: { method: 'GET', path: '/v1/user/me' },
  graphql: { name: 'userMe', kind: 'query' },
  input: z.object({}).strict(),
  output: z.object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    business: z.object({ id: z.number().int(), code: z.string(), name: z.string() }).nullable(),
  }),
  async handler(_input, ctx) {
    const c = ctx.caller!;
    const business = c.businessId === null ? null : await businessById(ctx.em, c.businessId);
    return {
      id: c.id,
      name: c.name,
      email: c.email,
      role: c.role,
      business: business && { id: business.id, code: business.code, name: business.name },
    };
  },
});
