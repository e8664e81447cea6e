/**
 * The events the webhooks module sends itself (webhook.test) and those of the provider channels it serves:
 * carrier packages, third-party delivery and OHP push. The provider events are designed
 * from the specification for the families to come; each moves into its family's module when that lands.
 */
import type { EventDefinition, Schema } from '../../platform/events.ts';
import { bool, enumOf, int, list, obj, orNull, providerEnvelope, str, tenantEnvelope, time } from '../../platform/jsonSchema.ts';

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

// ---- Carrier packages (the partner locker envelope; they move to their family's module when it lands) ----

const carrierEvent = (name: string, summary: string, props: Record<string, Schema>): EventDefinition => ({
  name, sender: 'partner_locker', summary,
  payload: providerEnvelope(name, 'PLE-<id>, or PLE-MOCK-<id> for sandbox events; stable across retries', obj({ 'test?': bool('True on sandbox events'), ...props })),
});

const distribution = (status: Schema, extra: Record<string, Schema> = {}): Record<string, Schema> => ({
  package_number: str('Carrier package number'),
  carrier_reference: str('Carrier reference'),
  member_number: str('Carrier member number'),
  distribution: obj({ order_id: int('Distribution order id'), order_ref: str('Distribution order reference'), status }),
  origin: obj({}, { description: 'Where the package comes from' }),
  destination: obj({}, { description: 'Location the package goes to' }),
  ...extra,
});

const CARRIER_PACKAGE_EVENTS: EventDefinition[] = [
  carrierEvent('carrier_package.distribution.created', 'A carrier package was placed on a distribution order at the receiving warehouse.',
    distribution(str('Distribution status'))),
  carrierEvent('carrier_package.distribution.loaded', 'The package was scanned onto the truck.',
    distribution(str('in_transit', { const: 'in_transit' }), { loaded_at: time('When') })),
  carrierEvent('carrier_package.distribution.delivered', 'The driver handed the package to the location.',
    distribution(str('delivered', { const: 'delivered' }), { delivered_at: time('When') })),
  carrierEvent('carrier_package.distribution.shelved', 'The package was shelved at the location; the recipient is notified.',
    distribution(str('Distribution status'), { location: obj({ grid_id: orNull(int('Compartment id')), grid_code: orNull(str('Compartment code')), shelf_code: orNull(str('Shelf code')) }) })),
  carrierEvent('carrier_package.distribution.removed', 'The package was removed before departure or its order was cancelled.',
    distribution(str('Distribution status'), { reason: enumOf(['removed', 'cancelled'], 'Why') })),
];

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
  ...CARRIER_PACKAGE_EVENTS,
  ...THIRD_PARTY_EVENTS,
  ...Object.entries(OHP).map(([name, summary]) => ohpEvent(name, summary)),
];
