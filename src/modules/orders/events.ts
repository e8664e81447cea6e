/**
 * The order events: creation, status changes, tracking, proof files, lifecycle, interception and the route board.
 * order.created and order.status_change have producers (repo.ts) and pin their event id forms; the others are
 * designed from the specification's descriptions for the families to come, and allow fields not listed.
 */
import type { EventDefinition, Schema } from '../../platform/events.ts';
import { describeEvents } from '../../platform/events.ts';
import {
  bool,
  enumOf,
  int,
  list,
  obj,
  orNull,
  OWN_EVENT_ID,
  str,
  tenantEnvelope,
  time,
} from '../../platform/jsonSchema.ts';

const orderRef = obj(
  {
    id: int('Order id'),
    order_ref: orNull(str('Merchant order reference')),
    tracking_number: orNull(str('Tracking number')),
    type: str('Order type, for example D (delivery), P (pickup), P2P (peer to peer)'),
    status_id: int('Current order status id'),
    status: str('Current order status name'),
  },
  { description: 'The order as it is now; price fields are omitted for price-hidden families' },
);

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

// ---- Order lifecycle ----

export const LIFECYCLE_EVENT_NAMES = [
  'order.assigned',
  'order.unassigned',
  'order.accepted',
  'order.rejected',
  'order.pickup_started',
  'order.picked_up',
  'order.on_the_way',
  'order.completed',
  'order.failed',
  'order.cancelled',
  'order.ready',
  'driver.on_duty_changed',
] as const;

const LIFECYCLE: Record<(typeof LIFECYCLE_EVENT_NAMES)[number], [string, Record<string, Schema>]> = {
  'order.assigned': [
    'A driver was assigned to the order.',
    {
      driver_id: int('Assigned driver'),
      'source?': enumOf(
        ['manual', 'route_planning', 'auto_assign'],
        'How it was assigned; auto_assign when by the orchestrator',
      ),
    },
  ],
  'order.unassigned': [
    'The order lost its driver.',
    {
      previous_driver_id: int('Driver who had it'),
      'reason?': enumOf(['handover', 'revoke', 'reject', 'timeout'], 'Why the driver lost it'),
    },
  ],
  'order.accepted': ['The driver accepted an auto-assigned order.', { driver_id: int('Driver who accepted') }],
  'order.rejected': [
    'The driver rejected the order.',
    { driver_id: int('Driver who rejected'), 'reason?': orNull(str('Free text from the driver')) },
  ],
  'order.pickup_started': ['The driver began the pickup.', { driver_id: driverId }],
  'order.picked_up': ['The parcel was picked up.', { driver_id: driverId }],
  'order.on_the_way': ['The parcel is on its way to the recipient.', { driver_id: driverId }],
  'order.completed': ['The parcel was delivered.', { driver_id: driverId }],
  'order.failed': [
    'A delivery attempt failed.',
    {
      driver_id: driverId,
      'failure_reason?': orNull(
        enumOf(['redispatch_later', 'needs_rescheduling', 'refused_by_recipient'], 'Kind of failure'),
      ),
    },
  ],
  'order.cancelled': ['The order was cancelled.', {}],
  'order.ready': ['The order was marked ready for pickup.', {}],
  'driver.on_duty_changed': ['A driver went on or off duty.', {}],
};

function lifecyclePayload(name: (typeof LIFECYCLE_EVENT_NAMES)[number]): Schema {
  const data =
    name === 'driver.on_duty_changed'
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
    id: int('Interception id; GET /v1/orders/{order id}/interception reads the newest'),
    'state?': enumOf(
      Object.keys(INTERCEPT_STEPS),
      'The step the interception is at: the event name after order.intercept.',
    ),
    'requested_via?': enumOf(
      ['back_office', 'api', 'customer'],
      "Who asked for it: the business's staff (back office), an AI agent over MCP (api), or the order's customer account",
    ),
    'outcome?': orNull(
      enumOf(['return_to_sender', 'hold_at_warehouse', 'redeliver'], 'The outcome asked for, carried out once held'),
    ),
    'new_address?': orNull(
      obj(
        {
          line1: str('Street and number'),
          'line2?': orNull(str('More of the address')),
          city: str('City'),
          postal_code: str('Postal code'),
          country: str('Country'),
        },
        { description: 'Where the parcel goes for the outcome redeliver; null otherwise' },
      ),
    ),
    'reason?': orNull(
      str(
        'The reason the requester gave; on rejected and failed, why (delivered, cancelled, returned_to_sender, refused_by_recipient, not_in_transit, already_intercepted, not_held_in_time)',
      ),
    ),
    'held_at?': orNull(
      obj({
        place: orNull(str("The warehouse's code, when a place of the business scanned it; null for a carrier's event")),
        package_number: str('The package seen there'),
        source: enumOf(
          ['scan', 'carrier', 'status'],
          'A distribution scan, the carrier tracking event, or status: the order was at a warehouse (29, 33) when intercepted',
        ),
        occurred_at: time('When it was seen there'),
      }),
    ),
  }),
  'operation_type?': int(
    'Operation type of the step: 3043/6012 in effect, 3044/6013 outcome executed, 3045/6014 withdrawn, 3047 failed, 3046 the other steps',
  ),
});

const ROUTE_BOARD_ACTIONS = [
  'claimed',
  'standby',
  'pooled',
  'promoted',
  'withdrawn',
  'vetoed',
  'replaced',
  'assigned',
  'awarded',
  'lost',
  'displaced',
  'settled',
  'board_opened',
  'board_closed',
  'board_cancelled',
] as const;

const tenant = (field: string, name: string, summary: string, data: Schema, eventId?: Schema): EventDefinition => ({
  name,
  sender: 'tenant',
  summary,
  payload: tenantEnvelope(name, data, { eventId }),
  route: { field },
});

const DECLARED: readonly EventDefinition[] = [
  tenant(
    'order_create_webhook_url',
    'order.created',
    'A local delivery order (D, P or P2P) was created through any entry.',
    orderData({
      packages: list(
        str('Package number'),
        "The order's package numbers in position order; the first is the order's tracking number",
      ),
      'shipping_price?': str(
        "What the delivery was priced at, tax included: an exact decimal string with the currency's decimals. Absent for an order not priced, and for a receiver prices are hidden from",
        { pattern: '^[0-9]+(\\.[0-9]+)?$' },
      ),
      'tax?': str('The tax in shipping_price, an exact decimal string', { pattern: '^[0-9]+(\\.[0-9]+)?$' }),
      'currency?': str('ISO 4217 code of the amounts', { pattern: '^[A-Z]{3}$' }),
      'price_details?': list(
        obj({
          code: enumOf(
            ['base_fee', 'distance', 'weight', 'p2p_surcharge', 'time_window_surcharge', 'extra_package_surcharge'],
            'What the line charges',
          ),
          quantity: str('How much of it: 1 delivery, kilometres to the metre, started kilograms, packages'),
          unit: enumOf(['delivery', 'km', 'kg', 'package'], 'The unit of quantity'),
          unit_amount: str("The price model's figure per unit"),
          amount: str("What the line charges, rounded half-up to the currency's minor unit"),
        }),
        'The lines of the price before tax; they add up to shipping_price minus tax',
      ),
    }),
    str('ORC-<order id>, stable across retries', { pattern: '^ORC-[0-9]+$' }),
  ),
  tenant(
    'order_status_change_webhook_url',
    'order.status_change',
    'The order status changed.',
    orderData({
      'before_status?': orNull(int('Status id before the change')),
      after_status: int('Status id after the change; 48 when intercepted'),
      'operation_type?': int(
        'Operation code of the change (the operation types of docs/order-statuses.md): 3031 held, 3032 released from hold, 6008 pushed by the carrier, 3043/6012 intercepted, ...',
      ),
      'operation_description?': str('Text of the operation; empty for carrier-held shipments'),
      'ip_address?': str('Address the change came from; empty for carrier-held shipments'),
    }),
    str('OSC-<status history id>, stable across retries', { pattern: '^OSC-[0-9]+$' }),
  ),
  tenant(
    'tracking_event_webhook_url',
    'tracking.event',
    'A parcel tracking event was recorded.',
    orderData({
      tracking_event: obj({
        id: int('Tracking event id'),
        status_id: int('Status id of the event'),
        key: str('Event key'),
        description: str('Text of the event'),
        occurred_at: time('When it happened'),
        'package_number?': str("The package the event is about (the order's tracking number for its first package)"),
      }),
      'proof_files?': list(podFile, 'Proof files; on delivered and picked-up events'),
      'proof_files_detail?': list(
        podFile,
        'Proof files with their tracking context; on delivered and picked-up events',
      ),
    }),
  ),
  tenant(
    'order_create_async_postback_url',
    'order.create_async',
    'An async order batch (POST /v1/client/batchOrderCreateAsync) finished; one result per row. Sent once per batch.',
    obj({
      async_id: str('The batch, as bulk_create_orders_async answered it'),
      total: int('Rows in the batch'),
      succeeded: int('Rows that created an order'),
      failed: int('Rows refused'),
      results: list(
        obj({
          index: int('Position of the row in the batch, from 0'),
          result: bool('True when the row created an order'),
          'order?': orNull(orderRef),
          'errors?': list(
            obj({
              field: str('The field, as a path inside the row (recipient.address.postal_code)'),
              message: str("Why, in the language of the batch's request"),
            }),
            'Field errors of a refused row',
          ),
        }),
        'Per-row results, in row order',
      ),
    }),
    str('OCA-<asyncId>, stable across retries', { pattern: '^OCA-[0-9a-f-]{36}$' }),
  ),
  tenant(
    'pod_files_webhook_url',
    'pod.files_updated',
    'A proof-of-delivery file was added, replaced or removed (one push per file).',
    orderData({
      action: enumOf(
        ['added', 'updated', 'removed'],
        'What happened to the file; updated carries only the current image',
      ),
      file: podFile,
    }),
    OWN_EVENT_ID,
  ),
  tenant(
    'order_deleted_webhook_url',
    'order.deleted',
    'The order was permanently deleted.',
    obj({
      order: obj({
        id: int('Order id'),
        order_ref: orNull(str('Merchant order reference')),
        tracking_number: orNull(str('Tracking number')),
      }),
      deleted_at: time('When it was deleted'),
    }),
    str('ODL-<order id>: an order is deleted once', { pattern: '^ODL-[0-9]+$' }),
  ),
  tenant(
    'order_cancel_failed_webhook_url',
    'order.cancel_failed',
    'A cancel request was refused.',
    orderData({
      error_code: str(
        "Refusal code: the service's (ORDER_GONE_OUT, ORDER_FINISHED, ORDER_ALREADY_CANCELLED, ORDER_UNDER_INTERCEPTION), or the delivery provider's own code, PROVIDER_NO_ANSWER when it did not answer in time; a customer account receives a carrier's refusal as ORDER_CANCEL_REFUSED",
      ),
      'message?': str('Reason in words'),
      'cancellation_id?': int('The cancellation request refused'),
    }),
    str('OCF-<cancellation id>, stable across retries', { pattern: '^OCF-[0-9]+$' }),
  ),
  ...LIFECYCLE_EVENT_NAMES.map((name): EventDefinition => ({
    name,
    sender: 'tenant',
    summary: LIFECYCLE[name][0],
    payload: lifecyclePayload(name),
    route: { field: 'order_lifecycle_webhook_url', restrictedBy: 'order_lifecycle_events' },
  })),
  ...Object.entries(INTERCEPT_STEPS).map(([step, summary]) =>
    tenant(
      'order_intercept_webhook_url',
      `order.intercept.${step}`,
      summary,
      interceptData,
      str('ICP-<interception id>.<step>, stable across retries', { pattern: '^ICP-[0-9]+\\.[a-z_]+$' }),
    ),
  ),
  tenant(
    'route_board_webhook_url',
    'route_board.changed',
    'A route board seat or the board itself changed (enterprise level).',
    obj({
      action: enumOf(ROUTE_BOARD_ACTIONS, 'What happened: the new status of `claim`, or of the board'),
      board: obj({
        id: int('Board id'),
        'status?': str('Board status: scheduled, open, closed, settled, cancelled'),
        'route_date?': str('The day of the routes offered (YYYY-MM-DD)'),
      }),
      'seat?': orNull(
        obj({
          id: int('Seat id'),
          'driver_id?': orNull(int('Driver on the seat: the one the contractor named, null until then')),
          'route_id?': int('The route the seat offers'),
          'status?': str('Seat status: open, claimed, awarded, assigned, settled, unfilled, cancelled'),
        }),
      ),
      'claim?': orNull(
        obj({
          id: int('Claim id'),
          contractor_id: int('The contractor (user) who claimed'),
          status: str('The claim status after the change'),
          position: orNull(
            int('1: holds the seat; 2 and on: standby in line; in the pool: its place; null once ended'),
          ),
        }),
      ),
    }),
    str('RBC-<board id>.<seq>: one per change, stable across retries', { pattern: '^RBC-[0-9]+\\.[0-9]+$' }),
  ),
];

/** Each event as its receiver should read it: when it is sent and what to do with it (the AsyncAPI description). */
export const ORDER_EVENTS = describeEvents(DECLARED, {
  'order.created':
    "Sent once when an order of yours is created, whatever the entry (API, console, import, another system). Use it to record the order's id, reference and tracking number on your side; `packages` lists its package numbers, the first being the tracking number. The event id is ORC-<order id>, so a repeat is easy to recognise. A priced order carries its `shipping_price`, `tax`, `currency` and `price_details`; a customer account whose business hides local delivery prices from it gets them left out and `price_hidden: true`.",
  'order.status_change':
    "Sent each time an order's status changes, with the status before and after. Keep the newest status by `occurred_at` rather than by arrival: pushes can be retried and so arrive out of order. An after_status of 48 means the order is intercepted (see the order.intercept.* events).",
  'tracking.event':
    "Sent when a tracking event is recorded for a parcel of the order: the event's key, text and time, and on delivered and picked-up events the proof files. Use it to show the parcel's progress to your customer.",
  'order.create_async':
    'Sent to the postback URL when a bulk order import finishes: how many rows created an order and, per row, the order or why the row was refused. Nothing is created for a refused row; correct it and import it again.',
  'pod.files_updated':
    'Sent once per proof-of-delivery file added, replaced or removed on an order. Fetch or drop your copy of the file as `action` says; an update carries only the current image.',
  'order.deleted':
    'Sent when an order is deleted for good. Remove or archive it on your side: the service will answer nothing more about it.',
  'order.cancel_failed':
    'Sent when a request to cancel an order was refused (by the service, or by the carrier holding it: ORDER_CANCEL_REFUSED). The order goes on as before; `error_code` and `message` say why.',
  'order.assigned':
    'Sent when a driver is assigned to the order, by hand, by route planning or by auto-assignment (`source`).',
  'order.unassigned':
    'Sent when the order loses its driver (handed over, revoked, rejected or timed out); it waits for another driver.',
  'order.accepted': 'Sent when the driver accepts an order that was auto-assigned to them.',
  'order.rejected':
    "Sent when the driver rejects the order, with the driver's reason when given; the order goes back to be assigned again.",
  'order.pickup_started': 'Sent when the driver starts the pickup of the order.',
  'order.picked_up': 'Sent when the driver has picked the parcel up.',
  'order.on_the_way':
    'Sent when the parcel is on its way to the recipient: a good moment to tell the recipient it is coming.',
  'order.completed': 'Sent when the parcel was delivered: the order is done.',
  'order.failed':
    'Sent when a delivery attempt failed, with the kind of failure when known (redispatch later, needs rescheduling, refused by the recipient). The order is not done: expect another attempt or a rescheduling.',
  'order.cancelled': 'Sent when the order is cancelled; no driver will handle it any more.',
  'order.ready': 'Sent when the order is marked ready for pickup.',
  'driver.on_duty_changed': 'Sent when one of your drivers goes on or off duty.',
  'order.intercept.requested':
    'Sent when interception of the order is requested (by the business, or by the customer account the order is for): it is to be stopped on its way, and `outcome` says what is then to be done with it. The following order.intercept.* events of the same `interception.id` say how it goes (docs/orders.md, Interception). The event id is ICP-<interception id>.<step>.',
  'order.intercept.in_effect':
    'Sent when the interception takes effect: the order is in status 48 and will not be delivered as planned.',
  'order.intercept.held_at_warehouse':
    'Sent when the intercepted parcel is held at a warehouse (a warehouse scan, or its carrier received it at a facility), waiting for its outcome; `held_at` says where.',
  'order.intercept.outcome_executed':
    "Sent when the interception's outcome was carried out; the order leaves status 48: returned to the sender (15), on hold at the warehouse for pickup (8), or back at the warehouse (29) for delivery to `new_address`.",
  'order.intercept.withdrawn':
    'Sent when the interception is withdrawn; the order leaves status 48 and goes on as before.',
  'order.intercept.rejected':
    'Sent when the interception request is refused, with the reason (delivered, cancelled, not yet in transit, already intercepted...); the order goes on as before.',
  'order.intercept.failed':
    'Sent when the parcel was not held at a warehouse within the deadline (72 hours); the order leaves status 48 for the status it had before and goes on as before.',
  'route_board.changed':
    'Sent when a route board is opened, closed or cancelled, or a claim on it changes (docs/routes.md, "The route board"); `action` says which, `claim` and `seat` show them after the change. Sent to the merchant-level route_board_webhook_url only, never to a customer override. The event id is RBC-<board id>.<seq>, numbered in the order of the changes.',
});
