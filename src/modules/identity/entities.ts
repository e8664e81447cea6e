import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps } from '../../platform/db/base.ts';
import { ROLES } from '../../platform/roles.ts';

export const Business = defineEntity({
  name: 'Business',
  tableName: 'business',
  properties: {
    id: p.integer().primary(),
    code: p.string().unique(),
    name: p.string(),
    timezone: p.string().default('UTC'),
    /** The platform switches the contractor order assignment module on per business. */
    assignmentModuleEnabled: p.boolean().default(false),
    ...timestamps,
  },
});
export type Business = InferEntity<typeof Business>;

export const User = defineEntity({
  name: 'User',
  tableName: 'app_user',
  properties: {
    id: p.integer().primary(),
    /** Null only for platform admins, who belong to no business. */
    businessId: p.integer().nullable(),
    email: p.string().unique(),
    name: p.string(),
    role: p.enum(ROLES),
    passwordHash: p.string().hidden().lazy(),
    ...timestamps,
  },
});
export type User = InferEntity<typeof User>;

/** A bearer token; only its SHA-256 digest is stored. */
export const AuthToken = defineEntity({
  name: 'AuthToken',
  tableName: 'auth_token',
  properties: {
    id: p.integer().primary(),
    userId: p.integer(),
    tokenHash: p.string().unique(),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** A standalone app's session (docs/apps.md, Sign-in): the app, its client business and the roles it admits. */
    appId: p.integer().nullable(),
    appBusinessId: p.integer().nullable(),
    appRoles: p.array().nullable(),
    deviceId: p.string().nullable(),
    devicePlatform: p.string().nullable(),
  },
});
export type AuthToken = InferEntity<typeof AuthToken>;
