/**
 * The events the webhooks module sends itself (webhook.test) and those of the provider channels it serves:
 * third-party delivery and OHP push. The provider events are designed
 * from the specification for the families to come; each moves into its family's module when that lands.
 */
import type { EventDefinition, Schema } from '../../platform/events.ts';
import { bool, enumOf, int, list, obj, orNull, str, tenantEnvelope, time } from '../../platform/jsonSchema.ts';

export const TEST_EVENT = 'webhook.test';

const testEvent: EventDefinition = {
  name: TEST_EVENT,
  sender: 'tenant',
  summary: 'A test push sent on request to check a receiver URL and its signature check.',
  payload: tenantEnvelope(TEST_EVENT, obj({
    test: bool('Always true; a receiver can tell test pushes apart'),
    'message?': str('Free text'),
  })),
};

// ---- Third-party delivery ----

function assignmentEvent(name: string, summary: string, props: Record<string, Schema>): EventDefinition {
  const data = obj({
    assignment_number: str('Assignment number'),
    order: obj({ id: int('Order id'), order_ref: str('Merchant order reference'), tracking_number: orNull(str('Tracking number')) }),
    packages: list(obj({ tracking_number: str('Package tracking number') }), 'Packages of the order'),
    'test?': bool('True on test (mock) events'),
    ...props,
  });
  return { name, sender: 'third_party', summary, payload: obj({ event_id: str('Event id, stable across retries'), event: str('Event name', { const: name }), occurred_at: time('When'), data }) };
}

const THIRD_PARTY_EVENTS: EventDefinition[] = [
  assignmentEvent('delivery.assignment.created', 'An order was assigned to the provider.', { 'source?': enumOf(['rule', 'manual'], 'How it was assigned') }),
  assignmentEvent('delivery.assignment.handed_over', 'The warehouse handed all packages to the provider.', { handed_over_at: time('When') }),
  assignmentEvent('delivery.assignment.cancelled', 'The assignment was withdrawn.', {
    reason: enumOf(['cancelled', 'fallback_to_self_delivery', 'reassigned'], 'Why'),
  }),
  assignmentEvent('delivery.assignment.partial_delivered', 'Some packages were delivered while others are still in transit.', {
    packages: list(obj({ tracking_number: str('Package'), outcome: str('Outcome, for example delivered or in_transit') }), 'Outcome per package'),
    legs: list(obj({ carrier_order_number: str('Order placed with the carrier'), tracking_numbers: list(str('Package'), 'Packages on it') }),
      'Orders placed with the carrier; one per package when it lacks multi-piece shipments'),
  }),
];

// ---- OHP push ----

const OHP: Record<string, string> = {
  'handoff.accepted': 'The handoff was accepted.',
  'handoff.rejected': 'The handoff was rejected.',
  'handoff.expired': 'The handoff expired unanswered.',
  'handoff.cancelled': 'The handoff was cancelled.',
  'amendment.accepted': 'An amendment to a handoff was accepted.',
  'amendment.rejected': 'An amendment to a handoff was rejected.',
  'handoff.tracking': 'Tracking progress of a handed-off order.',
  'settlement_line.created': 'A settlement line was created for a handoff.',
};

const ohpEvent = (name: string, summary: string): EventDefinition => ({
  name, sender: 'ohp', summary, payload: obj({
    message_id: str('Stable across retries (equals X-Ohp-Delivery); deduplicate on it'),
    event: str('Event name', { const: name }),
    occurred_at: time('When'),
    handoff_id: str('Handoff the event is about'),
    data: obj({}, { description: 'Event details; pull the handoff for the source of truth' }),
  }, { description: 'OHP envelope' }),
});
export const WEBHOOK_EVENTS: readonly EventDefinition[] = [
  testEvent,
  ...THIRD_PARTY_EVENTS,
  ...Object.entries(OHP).map(([name, summary]) => ohpEvent(name, summary)),
];
