import type { DeliverySender } from './schedule.ts';

/**
 * Which settings field receives which tenant event. The specification names every field and most events;
 * the names it leaves open (order creation, interception, route board) are decided in docs/webhooks.md.
 */
export const URL_FIELDS = [
  'order_create_webhook_url',
  'order_status_change_webhook_url',
  'tracking_event_webhook_url',
  'order_create_async_postback_url',
  'pod_files_webhook_url',
  'order_deleted_webhook_url',
  'order_cancel_failed_webhook_url',
  'route_board_webhook_url',
  'device_order_webhook_url',
  'order_intercept_webhook_url',
  'order_lifecycle_webhook_url',
  'driver_location_webhook_url',
] as const;
export type UrlField = (typeof URL_FIELDS)[number];

export const DEVICE_ORDER_EVENTS = [
  'device_order.stored', 'device_order.collected', 'device_order.removed', 'device_order.overdue',
  'device_order.exception_opened', 'device_order.exception_resolved',
] as const;

export const LIFECYCLE_EVENTS = [
  'order.assigned', 'order.unassigned', 'order.accepted', 'order.rejected', 'order.pickup_started', 'order.picked_up',
  'order.on_the_way', 'order.completed', 'order.failed', 'order.cancelled', 'order.ready', 'driver.on_duty_changed',
] as const;

const FIXED: Record<string, UrlField> = {
  'order.created': 'order_create_webhook_url',
  'order.status_change': 'order_status_change_webhook_url',
  'tracking.event': 'tracking_event_webhook_url',
  'order.create_async': 'order_create_async_postback_url',
  'pod.files_updated': 'pod_files_webhook_url',
  'order.deleted': 'order_deleted_webhook_url',
  'order.cancel_failed': 'order_cancel_failed_webhook_url',
  'driver.location_update': 'driver_location_webhook_url',
};

export interface EventFilters {
  /** Comma-separated restriction; null or empty means every event of the family. */
  device_order_events: string | null;
  order_lifecycle_events: string | null;
}

const allows = (restriction: string | null, event: string) =>
  !restriction?.trim() || restriction.split(',').map((s) => s.trim()).includes(event);

/** The settings field whose URLs receive `eventType`, or null when the settings' restriction excludes it. */
export function urlFieldFor(eventType: string, filters: EventFilters): UrlField | null {
  if (eventType in FIXED) return FIXED[eventType]!;
  if (eventType.startsWith('device_order.')) return allows(filters.device_order_events, eventType) ? 'device_order_webhook_url' : null;
  if (eventType.startsWith('route_board.')) return 'route_board_webhook_url';
  if (eventType.startsWith('order.intercept.')) return 'order_intercept_webhook_url';
  if ((LIFECYCLE_EVENTS as readonly string[]).includes(eventType)) return allows(filters.order_lifecycle_events, eventType) ? 'order_lifecycle_webhook_url' : null;
  return null;
}

/** The URLs of a comma-separated settings value, trimmed, without empties or repeats. */
export function splitUrls(value: string | null | undefined): string[] {
  return [...new Set((value ?? '').split(',').map((u) => u.trim()).filter(Boolean))];
}

/** Who sends an event, by its name: provider channels and OHP have their own receivers; the rest is tenant. */
export function senderOf(eventType: string): DeliverySender {
  if (eventType.startsWith('partner_locker.') || eventType.startsWith('carrier_package.')) return 'partner_locker';
  if (eventType.startsWith('delivery.assignment.')) return 'third_party';
  if (OHP_EVENTS.includes(eventType)) return 'ohp';
  return 'tenant';
}

export const OHP_EVENTS: readonly string[] = [
  'handoff.accepted', 'handoff.rejected', 'handoff.expired', 'handoff.cancelled', 'amendment.accepted', 'amendment.rejected',
  'handoff.tracking', 'settlement_line.created',
];
