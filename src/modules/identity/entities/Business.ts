import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps } from '../../../platform/db/base.ts';

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
