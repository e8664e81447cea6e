import type { Em } from './orm.ts';

/** The price families an event can belong to; a receiver whose account hides a family gets its events without prices. */
export const PRICE_FAMILIES = ['local_delivery', 'label_service', 'shipping_service', 'ltl_service', 'storage_services', 'moving_services', 'device_orders'] as const;
export type PriceFamily = (typeof PRICE_FAMILIES)[number];

export interface NewOutboxEvent {
  businessId: number;
  /** The customer account the event concerns, so its webhook override receives it. */
  customerId?: number | null;
  eventId: string;
  eventType: string;
  referenceType: string;
  referenceId: string;
  /** The native body; it names its event in `event`. */
  payload: Record<string, unknown>;
  family?: PriceFamily | null;
  carrierHeld?: boolean;
  /** The provider business a partner locker or third-party event is addressed to. */
  providerId?: number | null;
  /** A test send: only this settings row (and this URL of it) receives the event. */
  targetSettingsId?: number | null;
  targetUrl?: string | null;
}

/** Writes an event into the outbox in the caller's transaction; the insert trigger wakes the relay. */
export async function insertOutboxEvent(em: Em, e: NewOutboxEvent): Promise<void> {
  await em.execute(
    `insert into outbox_event (business_id, customer_id, event_id, event_type, reference_type, reference_id, payload, family, carrier_held, provider_id, target_settings_id, target_url)
     values (?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?)`,
    [e.businessId, e.customerId ?? null, e.eventId, e.eventType, e.referenceType, e.referenceId, JSON.stringify(e.payload), e.family ?? null,
      e.carrierHeld ?? false, e.providerId ?? null, e.targetSettingsId ?? null, e.targetUrl ?? null]);
}
