import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { DEVICE_ORDER_KINDS, DEVICE_ORDER_STATUSES, NEXT_ACTORS, REMOVAL_REASONS } from '../domain.ts';
import { timestamps } from '../../../platform/db/base.ts';

export const DeviceOrder = defineEntity({
  name: 'DeviceOrder',
  tableName: 'device_order',
  properties: {
    id: p.integer().primary(),
    businessId: p.integer(),
    kind: p.enum(DEVICE_ORDER_KINDS),
    status: p.enum(DEVICE_ORDER_STATUSES),
    nextActor: p.enum(NEXT_ACTORS),
    deviceId: p.integer(),
    gridCode: p.string(),
    referenceNumber: p.string(),
    orderId: p.integer().nullable(),
    externalOrderId: p.string().nullable(),
    dueAt: p.datetime(),
    overdueAt: p.datetime().nullable(),
    storedAt: p.datetime(),
    endedAt: p.datetime().nullable(),
    removalReason: p.enum(REMOVAL_REASONS).nullable(),
    /** Salted SHA-256 of the pickup code; the code itself is shown once and never stored. */
    pickupCodeHash: p.string().hidden().lazy(),
    ...timestamps,
  },
});
export type DeviceOrder = InferEntity<typeof DeviceOrder>;
