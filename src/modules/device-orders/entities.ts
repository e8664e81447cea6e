import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps } from '../../platform/db/base.ts';

export const Device = defineEntity({
  name: 'Device',
  tableName: 'device',
  properties: {
    id: p.integer().primary(),
    businessId: p.integer(),
    code: p.string().unique(),
    name: p.string(),
    deviceType: p.string().default('locker'),
    /** Compartment codes of the device, for example A01 to A24. */
    gridCodes: p.json<string[]>(),
    ...timestamps,
  },
});
export type Device = InferEntity<typeof Device>;
