import { z } from 'zod';
import { errors } from '../../platform/errors.ts';
import { translate } from '../../platform/i18n/messages.ts';
import { ROLES } from '../../platform/roles.ts';
import { DUMMY_PASSWORD_HASH, newToken, sha256Hex, verifyPassword } from '../../platform/secrets.ts';
import { formatDateTime } from '../../platform/time.ts';
import { AuthToken, Business, User } from '../entities.ts';
import { defineOperation } from '../../platform/catalog/types.ts';

const ANY_ROLE = ROLES;

export const login = defineOperation({
  name: 'user_login',
  summary: 'Sign in with email and password; answers a bearer token.',
  tag: 'User',
  roles: 'public',
  rest: { method: 'POST', path: '/v1/user/login' },
  graphql: { name: 'userLogin', kind: 'mutation' },
  input: z.object({ email: z.string().trim().toLowerCase().email().max(255), password: z.string().min(1).max(1024) }),
  output: z.object({ access_token: z.string(), token_type: z.literal('Bearer'), expires_at: z.string() }),
  async handler(input, ctx) {
    const user = await ctx.em.findOne(User, { email: input.email }, { populate: ['passwordHash'] });
    const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
    if (!user || !ok) throw errors.invalidCredentials();
    const token = newToken();
    const expiresAt = new Date(Date.now() + ctx.config.tokenTtlHours * 3600_000);
    ctx.em.create(AuthToken, { userId: user.id, tokenHash: sha256Hex(token), expiresAt, revokedAt: null });
    await ctx.em.flush();
    return { access_token: token, token_type: 'Bearer' as const, expires_at: formatDateTime(expiresAt) };
  },
});

export const logout = defineOperation({
  name: 'user_logout',
  summary: 'Revoke the bearer token of this request.',
  tag: 'User',
  roles: ANY_ROLE,
  rest: { method: 'POST', path: '/v1/user/logout' },
  graphql: { name: 'userLogout', kind: 'mutation' },
  input: z.object({}).strict(),
  output: z.object({ result: z.boolean(), message: z.string() }),
  async handler(_input, ctx) {
    await ctx.em.nativeUpdate(AuthToken, { tokenHash: ctx.caller!.tokenHash, revokedAt: null }, { revokedAt: new Date() });
    return { result: true, message: translate('auth.logged_out', ctx.lang) };
  },
});

export const me = defineOperation({
  name: 'user_me',
  summary: 'The signed-in account and its business.',
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
    const business = c.businessId === null ? null : await ctx.em.findOneOrFail(Business, c.businessId);
    return { id: c.id, name: c.name, email: c.email, role: c.role, business: business && { id: business.id, code: business.code, name: business.name } };
  },
});
