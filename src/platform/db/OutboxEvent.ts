import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** An event written in the same transaction as the state change that caused it; the relay publishes it. */
export const OutboxEvent = defineEntity({
  name: 'OutboxEvent',
  tableName: 'outbox_event',
  properties: {
    id: p.bigint('number').primary(),
    businessId: p.integer(),
    eventId: p.string().unique(),
    eventType: p.string(),
    referenceType: p.string(),
    referenceId: p.string(),
    payload: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    publishedAt: p.datetime().nullable(),
  },
});
export type OutboxEvent = InferEntity<typeof OutboxEvent>;
