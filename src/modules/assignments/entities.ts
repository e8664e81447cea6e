import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ASSIGNMENT_STATUSES } from './domain.ts';

export const BrokerOrderAssignment = defineEntity({
  name: 'BrokerOrderAssignment',
  tableName: 'broker_order_assignment',
  properties: {
    id: p.integer().primary(),
    businessId: p.integer(),
    orderId: p.integer(),
    brokerId: p.integer(),
    status: p.enum(ASSIGNMENT_STATUSES),
    note: p.string().nullable(),
    assignedBy: p.integer().nullable(),
    assignedAt: p.datetime(),
    endedBy: p.integer().nullable(),
    endedAt: p.datetime().nullable(),
    endReason: p.string().nullable(),
  },
});
export type BrokerOrderAssignment = InferEntity<typeof BrokerOrderAssignment>;
