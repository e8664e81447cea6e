import type { EventDefinition, EventSender } from '../../platform/events.ts';

/**
 * The settings fields that hold receiver URLs. Which field receives which tenant event is declared by the event
 * itself (its `route`, in its module's events.ts); the names the specification leaves open (order creation,
 * interception, route board) are decided in docs/webhooks.md.
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

export interface EventFilters {
  /** Comma-separated restriction; null or empty means every event of the family. */
  device_order_events: string | null;
  order_lifecycle_events: string | null;
}

const allows = (restriction: string | null, event: string) =>
  !restriction?.trim() ||
  restriction
    .split(',')
    .map((s) => s.trim())
    .includes(event);

/**
 * Every webhook event of the service, as the modules declare them in their descriptors (`events`): the webhooks
 * module is built with this list (src/modules/index.ts), and routes, documents and checks test sends from it.
 */
export class EventRouting {
  readonly events: readonly EventDefinition[];
  private readonly byName: Map<string, EventDefinition>;

  constructor(events: readonly EventDefinition[]) {
    this.events = events;
    this.byName = new Map(events.map((e) => [e.name, e]));
    if (this.byName.size !== events.length) throw new Error('two modules declare the same webhook event');
  }

  definition(name: string): EventDefinition | undefined {
    return this.byName.get(name);
  }

  /** The settings field whose URLs receive `eventType`, or null when the settings' restriction excludes it. */
  urlFieldFor(eventType: string, filters: EventFilters): UrlField | null {
    const route = this.byName.get(eventType)?.route;
    if (!route) return null;
    if (route.restrictedBy && !allows(filters[route.restrictedBy as keyof EventFilters], eventType)) return null;
    return route.field as UrlField;
  }

  /** The events a settings restriction field can name. */
  restrictedBy(filter: keyof EventFilters): string[] {
    return this.events.filter((e) => e.route?.restrictedBy === filter).map((e) => e.name);
  }

  /** The events of one sender, as a non-empty list for a zod enum. */
  eventsOf(sender: EventSender): [string, ...string[]] {
    const names = this.events.filter((e) => e.sender === sender).map((e) => e.name);
    if (names.length === 0) throw new Error(`no webhook event is sent by ${sender}`);
    return names as [string, ...string[]];
  }

  /** Who sends an event: provider channels and OHP have their own receivers; the rest, and any unknown name, is tenant. */
  senderOf(eventType: string): EventSender {
    return this.byName.get(eventType)?.sender ?? 'tenant';
  }
}

/** The URLs of a comma-separated settings value, trimmed, without empties or repeats. */
export function splitUrls(value: string | null | undefined): string[] {
  return [
    ...new Set(
      (value ?? '')
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
    ),
  ];
}
