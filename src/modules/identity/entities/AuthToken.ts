import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

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
  },
});
export type AuthToken = InferEntity<typeof AuthToken>;
