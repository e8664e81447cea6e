import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ROLES } from '../../../platform/roles.ts';
import { timestamps } from '../../../platform/db/base.ts';

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
