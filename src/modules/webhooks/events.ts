/**
 * The events the webhooks module sends itself (webhook.test) and those of the provider channels it serves:
 * partner lockers and carrier packages, third-party delivery and OHP push. The provider events are designed
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

// ---- Partner locker (own channel; the only webhooks that carry pickup codes) ----

const compartment = obj({
  grid_id: int('Compartment id'),
  compartment_number: int('Hardware door number'),
  pickup_locker_number: orNull(int('Number shown to the recipient')),
  pickup_locker_code: orNull(str("'{shelf_code}-{number}'; null when there is no number")),
});

function lockerEvent(name: string, summary: string, props: Record<string, Schema>, extra: Schema = {}): EventDefinition {
  const data = obj({ delivery_id: str('Partner locker delivery id'), 'test?': bool('True on sandbox events'), ...props }, extra);
  return {
    name, sender: 'partner_locker', summary, payload: obj({
      event_id: str('PLE-<id>, or PLE-MOCK-<id> for sandbox events; stable across retries'),
      event: str('Event name', { const: name }),
      livemode: bool('False for sandbox (simulated locker) events'),
      occurred_at: time('When it happened'),
      data,
    }),
  };
}

const distribution = (status: Schema, extra: Record<string, Schema> = {}): Record<string, Schema> => ({
  package_number: str('Carrier package number'),
  carrier_reference: str('Carrier reference'),
  member_number: str('Carrier member number'),
  distribution: obj({ order_id: int('Distribution order id'), order_ref: str('Distribution order reference'), status }),
  origin: obj({}, { description: 'Where the package comes from' }),
  destination: obj({}, { description: 'Location the package goes to' }),
  ...extra,
});

const PARTNER_LOCKER_EVENTS: EventDefinition[] = [
  lockerEvent('partner_locker.delivery.doors_opened', 'Doors opened for a deposit attempt (also re-opens).', {
    pickup_code: str('Recipient pickup code, usable once the deposit is confirmed'),
    opening: obj({
      via: enumOf(['screen_code', 'remote_open'], 'How the doors were opened'),
      opened_at: time('When'),
      compartments: list(compartment, 'Each opened compartment'),
    }),
  }),
  lockerEvent('partner_locker.delivery.delivered', 'The deposit was confirmed.', {
    pickup_code: str('Recipient pickup code'),
    confirmed_by: enumOf(['courier_terminal', 'partner_api', 'door_close', 'timeout_door_closed', 'console'], 'What confirmed it'),
    compartments: list(compartment, 'Compartments holding the parcels'),
  }),
  lockerEvent('partner_locker.pickup.completed', 'The recipient collected the parcels.', { picked_up_at: time('When') }),
  lockerEvent('partner_locker.delivery.failed', 'The delivery failed.', {
    parcels: list(obj({ parcel_number: str('Parcel'), failure_code: str('Why it failed') }), 'Failure per parcel'),
  }),
  lockerEvent('partner_locker.delivery.expired', 'An unused code or an uncollected deposit passed its expiry.', {
    expired: enumOf(['delivery_code', 'deposit'], 'What expired'),
    expired_at: time('When'),
  }),
  lockerEvent('partner_locker.delivery.cancelled', 'The delivery was cancelled before completion.', { cancelled_at: time('When'), 'reason?': orNull(str('Why')) }),
  lockerEvent('partner_locker.delivery.correction_reopened', 'Compartments were reopened inside the correction window.', {
    correction: obj({ reopened_at: time('When'), compartments: list(compartment, 'Reopened compartments') }),
  }),
  lockerEvent('partner_locker.delivery.code_rotated', 'A delivery or pickup code was replaced; the new code is not sent.', {
    rotation: obj({ code: enumOf(['delivery_code', 'pickup_code'], 'Which code'), rotated_at: time('When'), recipient_notified: bool('Whether the recipient was told') }),
  }, { not: { anyOf: [{ required: ['pickup_code'] }, { required: ['delivery_code'] }] } }),
  lockerEvent('carrier_package.distribution.created', 'A carrier package was placed on a distribution order at the receiving warehouse.',
    distribution(str('Distribution status'))),
  lockerEvent('carrier_package.distribution.loaded', 'The package was scanned onto the truck.',
    distribution(str('in_transit', { const: 'in_transit' }), { loaded_at: time('When') })),
  lockerEvent('carrier_package.distribution.delivered', 'The driver handed the package to the location.',
    distribution(str('delivered', { const: 'delivered' }), { delivered_at: time('When') })),
  lockerEvent('carrier_package.distribution.shelved', 'The package was shelved at the location; the recipient is notified.',
    distribution(str('Distribution status'), { location: obj({ grid_id: orNull(int('Compartment id')), grid_code: orNull(str('Compartment code')), shelf_code: orNull(str('Shelf code')) }) })),
  lockerEvent('carrier_package.distribution.removed', 'The package was removed before departure or its order was cancelled.',
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
  ...PARTNER_LOCKER_EVENTS,
  ...THIRD_PARTY_EVENTS,
  ...Object.entries(OHP).map(([name, summary]) => ohpEvent(name, summary)),
];
