import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps } from '../../platform/db/base.ts';

/** A smart locker (or another device with compartments) of a business; its compartments are rows of `compartment`. */
export const Device = defineEntity({
  name: 'Device',
  tableName: 'device',
  properties: {
    id: p.integer().primary(),
    businessId: p.integer(),
    code: p.string().unique(),
    name: p.string(),
    deviceType: p.string().default('locker'),
    /** A simulated locker: partner deliveries into it are sandbox deliveries, its doors played by the simulator. */
    sandbox: p.boolean().default(false),
    ...timestamps,
  },
});
export type Device = InferEntity<typeof Device>;
