/**
 * Every webhook event the specification names, with its payload as a JSON Schema (draft-07 subset, which is
 * also the AsyncAPI schema format). asyncapi.ts publishes these under components.schemas/<event name>, the
 * target of the CloudEvents `dataschema` link, so each schema is self-contained (no $ref).
 *
 * Device order schemas are strict (a pickup code can never slip in), and order.created and order.status_change
 * pin their event id forms. The rest (tracking.event and driver.location_update have producers too) are
 * designed from the specification's descriptions and allow fields not listed.
 */
import { DEVICE_ORDER_KINDS, DEVICE_ORDER_STATUSES, EVENT_OF_ACTION, NEXT_ACTORS, outcomeOf, REMOVAL_REASONS, type DeviceOrderAction } from '../device-orders/domain.ts';
import { DEVICE_ORDER_EVENTS, LIFECYCLE_EVENTS } from './routing.ts';

export type Schema = { [keyword: string]: unknown };
export type EventSender = 'tenant' | 'partner_locker' | 'third_party' | 'ohp';

export interface CatalogEvent {
  name: string;
  sender: EventSender;
  summary: string;
  payload: Schema;
}

// ---- Schema shorthands: a property name ending in '?' is optional ----

const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
const int = (description: string, extra: Schema = {}): Schema => ({ type: 'integer', description, ...extra });
const num = (description: string, extra: Schema = {}): Schema => ({ type: 'number', description, ...extra });
const bool = (description: string): Schema => ({ type: 'boolean', description });
const time = (description: string): Schema => str(description, { format: 'date-time' });
const enumOf = (values: readonly string[], description: string): Schema => str(description, { enum: [...values] });
const list = (items: Schema, description: string): Schema => ({ type: 'array', description, items });

function orNull(s: Schema): Schema {
  const nullable: Schema = { ...s, type: [s.type, 'null'] };
  if (Array.isArray(s.enum)) nullable.enum = [...s.enum, null];
  return nullable;
}

function obj(props: Record<string, Schema>, extra: Schema = {}): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [key, schema] of Object.entries(props)) {
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    properties[name] = schema;
    if (!optional) required.push(name);
  }
  return { type: 'object', properties, required, ...extra };
}

/** Closed object: a field not listed (a pickup code, say) makes the payload invalid. */
const strict = (props: Record<string, Schema>, extra: Schema = {}): Schema => obj(props, { ...extra, additionalProperties: false });

// ---- Tenant envelope ----

/**
 * The envelope the outbox writes (see deviceOrderRepo.eventPayload): the event name travels in `event`.
 * The spec guarantees a body event_id only for device order, lifecycle, pod.files_updated and order.deleted
 * events; elsewhere receivers fall back to X-Webhook-Event-Id, as the CloudEvents id rule does.
 */
function tenantEnvelope(name: string, data: Schema, opts: { eventId?: Schema; strict?: boolean } = {}): Schema {
  // transform.ts adds this for a receiver whose account hides the event's price family.
  const priceHidden = { type: 'boolean', const: true, description: 'Present when price fields were left out for this receiver' };
  const shown = { ...data, properties: { ...(data.properties as Record<string, Schema>), price_hidden: priceHidden } };
  const props = {
    [opts.eventId ? 'event_id' : 'event_id?']: opts.eventId ?? str('Event id when the event has its own; otherwise use X-Webhook-Event-Id'),
    event: str('Event name', { const: name }),
    business_id: int('Merchant (business) the event belongs to'),
    occurred_at: time('When the change happened'),
    data: shown,
  };
  return opts.strict ? strict(props) : obj(props);
}

const OWN_EVENT_ID = str('Event id, stable across retries; deduplicate on it');

const orderRef = obj({
  id: int('Order id'),
  order_ref: orNull(str('Merchant order reference')),
  tracking_number: orNull(str('Tracking number')),
  type: str('Order type, for example D (delivery), P (pickup), P2P (peer to peer)'),
  status_id: int('Current order status id'),
  status: str('Current order status name'),
}, { description: 'The order as it is now; price fields are omitted for price-hidden families' });

const podFile = obj({
  file_id: int('File id'),
  type: str('File kind, for example photo or signature'),
  url: str('File path'),
  full_url: str('Signed download URL'),
  'tracking_event_id?': orNull(int('Tracking event the file belongs to; null for old files')),
  'tracking_event_status_id?': orNull(int('Status id of that tracking event')),
  'tracking_event_key?': orNull(str('Key of that tracking event')),
  'service_type?': orNull(int('1 = delivery, 2 = pickup', { enum: [1, 2] })),
  'service_status?': orNull(int('1 = success, 2 = failed', { enum: [1, 2] })),
});

const orderData = (props: Record<string, Schema> = {}) => obj({ order: orderRef, ...props });
const driverId = orNull(int('Driver the order is assigned to, if any'));

// ---- Device orders (strict: this is exactly what deviceOrderRepo writes) ----

const deviceOrderOf = (status: Schema) => strict({
  id: int('Device order id'),
  kind: enumOf(DEVICE_ORDER_KINDS, 'What the compartment is used for'),
  status,
  next_actor: enumOf(NEXT_ACTORS, 'Who has to act next'),
  device_type: str('Device type, for example locker'),
  device_id: str('Device code'),
  device_name: str('Device name'),
  grid_code: str('Compartment code'),
  reference_number: str('Parcel reference'),
  order_id: orNull(int('Linked order id')),
  external_order_id: orNull(str('Caller\'s order id')),
  due_at: time('Pickup deadline'),
  overdue_at: orNull(time('When it became overdue')),
  stored_at: time('When the parcel was placed'),
  ended_at: orNull(time('When it was collected or removed')),
  removal_reason: orNull(enumOf(REMOVAL_REASONS, 'Why staff removed it')),
}, { description: 'The device order; the pickup code is never included' });

const deviceException = (status: Schema) => strict({
  id: int('Exception id'),
  type: str('Exception type, for example door_left_open, deposit_unverified, item_missing, overdue'),
  severity: str('Severity'),
  status,
  resolution_action: orNull(str('What was done to resolve it; null while open')),
});

/** The status each transition event carries, taken from the domain's own transition table. */
const TRANSITIONS: readonly DeviceOrderAction[] = ['collect', 'remove', 'overdue'];
const STATUS_OF_EVENT = new Map<string, string>([[EVENT_OF_ACTION.store, 'stored'], ...TRANSITIONS.map((a) => [EVENT_OF_ACTION[a], outcomeOf(a).status] as [string, string])]);

function deviceOrderPayload(name: string): Schema {
  const status = STATUS_OF_EVENT.get(name);
  const order = deviceOrderOf(status ? str('Device order status', { const: status }) : enumOf(DEVICE_ORDER_STATUSES, 'Device order status'));
  const exception = deviceException(name === 'device_order.exception_resolved'
    ? enumOf(['resolved', 'dismissed'], 'How it was closed')
    : str('Exception status'));
  const data = name.startsWith('device_order.exception_') ? strict({ device_order: order, exception }) : strict({ device_order: order });
  return tenantEnvelope(name, data, { strict: true, eventId: str('DOE-<ledger event id>, stable across retries', { pattern: '^DOE-[0-9]+$' }) });
}

const DEVICE_ORDER_SUMMARIES: Record<(typeof DEVICE_ORDER_EVENTS)[number], string> = {
  'device_order.stored': 'A parcel was placed in a device compartment; due_at is the pickup deadline.',
  'device_order.collected': 'The awaited party took the parcel out.',
  'device_order.removed': 'Staff took the parcel out; removal_reason says why.',
  'device_order.overdue': 'The parcel was not collected by due_at.',
  'device_order.exception_opened': 'An exception was raised on the device order.',
  'device_order.exception_resolved': 'An exception on the device order was resolved or dismissed.',
};

// ---- Order lifecycle ----

const LIFECYCLE: Record<(typeof LIFECYCLE_EVENTS)[number], [string, Record<string, Schema>]> = {
  'order.assigned': ['A driver was assigned to the order.', {
    driver_id: int('Assigned driver'),
    'source?': enumOf(['manual', 'route_planning', 'auto_assign'], 'How it was assigned; auto_assign when by the orchestrator'),
  }],
  'order.unassigned': ['The order lost its driver.', {
    previous_driver_id: int('Driver who had it'),
    'reason?': enumOf(['handover', 'revoke', 'reject', 'timeout'], 'Why the driver lost it'),
  }],
  'order.accepted': ['The driver accepted an auto-assigned order.', { driver_id: int('Driver who accepted') }],
  'order.rejected': ['The driver rejected the order.', { driver_id: int('Driver who rejected'), 'reason?': orNull(str('Free text from the driver')) }],
  'order.pickup_started': ['The driver began the pickup.', { driver_id: driverId }],
  'order.picked_up': ['The parcel was picked up.', { driver_id: driverId }],
  'order.on_the_way': ['The parcel is on its way to the recipient.', { driver_id: driverId }],
  'order.completed': ['The parcel was delivered.', { driver_id: driverId }],
  'order.failed': ['A delivery attempt failed.', {
    driver_id: driverId,
    'failure_reason?': orNull(enumOf(['redispatch_later', 'needs_rescheduling', 'refused_by_recipient'], 'Kind of failure')),
  }],
  'order.cancelled': ['The order was cancelled.', {}],
  'order.ready': ['The order was marked ready for pickup.', {}],
  'driver.on_duty_changed': ['A driver went on or off duty.', {}],
};

function lifecyclePayload(name: (typeof LIFECYCLE_EVENTS)[number]): Schema {
  const data = name === 'driver.on_duty_changed'
    ? obj({ driver_id: int('Driver'), on_duty: bool('True when now on duty'), changed_at: time('When it changed') })
    : orderData(LIFECYCLE[name][1]);
  return tenantEnvelope(name, data, { eventId: OWN_EVENT_ID });
}

// ---- Other tenant events ----

const INTERCEPT_STEPS: Record<string, string> = {
  requested: 'Interception of the order was requested.',
  in_effect: 'Interception is in effect (order status 48).',
  held_at_warehouse: 'The intercepted parcel is held at the warehouse.',
  outcome_executed: 'The interception outcome was carried out; the order leaves status 48.',
  withdrawn: 'The interception was withdrawn; the order leaves status 48.',
  rejected: 'The interception request was refused.',
  failed: 'The interception could not be carried out.',
};

const interceptData = orderData({
  interception: obj({
    id: int('Interception id'),
    'requested_via?': enumOf(['back_office', 'api', 'customer'], 'Who asked for it'),
    'outcome?': orNull(str('Requested outcome, for example return_to_sender or redirect')),
    'reason?': orNull(str('Reason given, or why it was refused or failed')),
  }),
  'operation_type?': int('Operation type of the matching order.status_change: 3043/6012 applied, 3044/6013 outcome, 3045/6014 withdrawn'),
});

const ROUTE_BOARD_ACTIONS = ['claimed', 'standby', 'pooled', 'promoted', 'withdrawn', 'vetoed', 'replaced', 'assigned', 'awarded', 'lost',
  'displaced', 'settled', 'board_opened', 'board_closed', 'board_cancelled'] as const;

const tenant = (name: string, summary: string, data: Schema, eventId?: Schema): CatalogEvent =>
  ({ name, sender: 'tenant', summary, payload: tenantEnvelope(name, data, { eventId }) });

const TENANT_EVENTS: CatalogEvent[] = [
  tenant('order.created', 'A local delivery order (D, P or P2P) was created through any entry.', orderData(),
    str('ORC-<order id>, stable across retries', { pattern: '^ORC-[0-9]+$' })),
  tenant('order.status_change', 'The order status changed.', orderData({
    'before_status?': orNull(int('Status id before the change')),
    after_status: int('Status id after the change; 48 when intercepted'),
    'operation_type?': int('Operation code of the change'),
    'operation_description?': str('Text of the operation; empty for carrier-held shipments'),
    'ip_address?': str('Address the change came from; empty for carrier-held shipments'),
  }), str('OSC-<status history id>, stable across retries', { pattern: '^OSC-[0-9]+$' })),
  tenant('tracking.event', 'A parcel tracking event was recorded.', orderData({
    tracking_event: obj({
      id: int('Tracking event id'),
      status_id: int('Status id of the event'),
      key: str('Event key'),
      description: str('Text of the event'),
      occurred_at: time('When it happened'),
    }),
    'proof_files?': list(podFile, 'Proof files; on delivered and picked-up events'),
    'proof_files_detail?': list(podFile, 'Proof files with their tracking context; on delivered and picked-up events'),
  })),
  tenant('order.create_async', 'A bulk order import finished; one result per row.', obj({
    import_id: str('Import batch id'),
    total: int('Rows in the import'),
    succeeded: int('Rows that created an order'),
    failed: int('Rows refused'),
    results: list(obj({
      row: int('Row number, from 1'),
      result: bool('True when the row created an order'),
      'order?': orNull(orderRef),
      'errors?': list(str('Why the row was refused'), 'Messages for a refused row'),
    }), 'Per-row results'),
  })),
  tenant('pod.files_updated', 'A proof-of-delivery file was added, replaced or removed (one push per file).', orderData({
    action: enumOf(['added', 'updated', 'removed'], 'What happened to the file; updated carries only the current image'),
    file: podFile,
  }), OWN_EVENT_ID),
  tenant('order.deleted', 'The order was permanently deleted.', obj({
    order: obj({ id: int('Order id'), order_ref: str('Merchant order reference'), tracking_number: orNull(str('Tracking number')) }),
    deleted_at: time('When it was deleted'),
  }), OWN_EVENT_ID),
  tenant('order.cancel_failed', 'A cancel request was refused.', orderData({
    error_code: str('Refusal code; a carrier refusal is ORDER_CANCEL_REFUSED'),
    'message?': str('Reason in words'),
  })),
  ...LIFECYCLE_EVENTS.map((name) => ({ name, sender: 'tenant' as const, summary: LIFECYCLE[name][0], payload: lifecyclePayload(name) })),
  tenant('driver.location_update', 'A driver position, throttled per driver.', obj({
    driver_id: int('Driver'),
    lat: num('Latitude', { minimum: -90, maximum: 90 }),
    lng: num('Longitude', { minimum: -180, maximum: 180 }),
    heading: orNull(num('Heading in degrees from north', { minimum: 0, maximum: 360 })),
    speed: orNull(num('Speed in m/s', { minimum: 0 })),
    recorded_at: time('When the device took the position'),
  }), OWN_EVENT_ID),
  ...DEVICE_ORDER_EVENTS.map((name) => ({ name, sender: 'tenant' as const, summary: DEVICE_ORDER_SUMMARIES[name], payload: deviceOrderPayload(name) })),
  ...Object.entries(INTERCEPT_STEPS).map(([step, summary]) => tenant(`order.intercept.${step}`, summary, interceptData)),
  tenant('route_board.changed', 'A route board seat or the board itself changed (enterprise level).', obj({
    action: enumOf(ROUTE_BOARD_ACTIONS, 'What happened'),
    board: obj({ id: int('Board id'), 'status?': str('Board status') }),
    'seat?': orNull(obj({ id: int('Seat id'), 'driver_id?': orNull(int('Driver on the seat')) })),
  })),
  tenant('webhook.test', 'A test push sent on request to check a receiver URL and its signature check.', obj({
    test: bool('Always true; a receiver can tell test pushes apart'),
    'message?': str('Free text'),
  })),
];

// ---- Partner locker (own channel; the only webhooks that carry pickup codes) ----

const compartment = obj({
  grid_id: int('Compartment id'),
  compartment_number: int('Hardware door number'),
  pickup_locker_number: orNull(int('Number shown to the recipient')),
  pickup_locker_code: orNull(str("'{shelf_code}-{number}'; null when there is no number")),
});

function lockerEvent(name: string, summary: string, props: Record<string, Schema>, extra: Schema = {}): CatalogEvent {
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

const PARTNER_LOCKER_EVENTS: CatalogEvent[] = [
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

function assignmentEvent(name: string, summary: string, props: Record<string, Schema>): CatalogEvent {
  const data = obj({
    assignment_number: str('Assignment number'),
    order: obj({ id: int('Order id'), order_ref: str('Merchant order reference'), tracking_number: orNull(str('Tracking number')) }),
    packages: list(obj({ tracking_number: str('Package tracking number') }), 'Packages of the order'),
    'test?': bool('True on test (mock) events'),
    ...props,
  });
  return { name, sender: 'third_party', summary, payload: obj({ event_id: str('Event id, stable across retries'), event: str('Event name', { const: name }), occurred_at: time('When'), data }) };
}

const THIRD_PARTY_EVENTS: CatalogEvent[] = [
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

const ohpEvent = (name: string, summary: string): CatalogEvent => ({
  name, sender: 'ohp', summary, payload: obj({
    message_id: str('Stable across retries (equals X-Ohp-Delivery); deduplicate on it'),
    event: str('Event name', { const: name }),
    occurred_at: time('When'),
    handoff_id: str('Handoff the event is about'),
    data: obj({}, { description: 'Event details; pull the handoff for the source of truth' }),
  }, { description: 'OHP envelope' }),
});

// ---- The catalog ----

export const EVENT_CATALOG: readonly CatalogEvent[] = [
  ...TENANT_EVENTS,
  ...PARTNER_LOCKER_EVENTS,
  ...THIRD_PARTY_EVENTS,
  ...Object.entries(OHP).map(([name, summary]) => ohpEvent(name, summary)),
];

export const EVENT_NAMES: readonly string[] = EVENT_CATALOG.map((e) => e.name);

const BY_NAME = new Map(EVENT_CATALOG.map((e) => [e.name, e]));

/** The payload schema of an event, or undefined for a name the catalog does not know. */
export function eventSchema(name: string): Schema | undefined {
  return BY_NAME.get(name)?.payload;
}
