/**
 * The third-party delivery events (the specification's third-party rows): sent to the provider's own endpoint
 * (`PUT /v1/provider/webhook-settings`), signed with its secret, retried 7 times, then dead-lettered.
 * Event id `TPE-<assignment id>.<step>`: each step happens once per assignment, so the id is stable across retries.
 */
import type { NewOutboxEvent } from '../../platform/db/outbox.ts';
import type { EventDefinition, Schema } from '../../platform/events.ts';
import { describeEvents } from '../../platform/events.ts';
import { bool, enumOf, int, list, obj, orNull, str, time } from '../../platform/jsonSchema.ts';
import { CANCEL_REASONS, type PackageOutcome } from './domain.ts';
import type { StoredAssignment } from './repo/assignments.ts';

function assignmentEvent(name: string, summary: string, props: Record<string, Schema>): EventDefinition {
  const data = obj({
    assignment_number: str('Assignment number'),
    order: obj({
      id: int('Order id'),
      order_ref: orNull(str('Merchant order reference')),
      tracking_number: str("Tracking number (its first package's)"),
    }),
    packages: list(obj({ tracking_number: str('Package tracking number') }), 'Packages of the order'),
    'test?': bool('True on test (mock) events'),
    ...props,
  });
  return {
    name,
    sender: 'third_party',
    summary,
    payload: obj({
      event_id: str('TPE-<assignment id>.<step>; stable across retries'),
      event: str('Event name', { const: name }),
      occurred_at: time('When'),
      data,
    }),
  };
}

const DECLARED: readonly EventDefinition[] = [
  assignmentEvent('delivery.assignment.created', 'An order was assigned to the provider.', {
    source: enumOf(['rule', 'manual'], 'How it was assigned'),
    handover_deadline: time(
      'The warehouse hands the packages over before this, or the order falls back to self delivery',
    ),
  }),
  assignmentEvent('delivery.assignment.handed_over', 'The warehouse handed all packages to the provider.', {
    handed_over_at: time('When the last package was handed over'),
  }),
  assignmentEvent('delivery.assignment.cancelled', 'The assignment was withdrawn.', {
    reason: enumOf([...CANCEL_REASONS], 'Why'),
  }),
  assignmentEvent(
    'delivery.assignment.partial_delivered',
    'Some packages were delivered while others are still in transit.',
    {
      packages: list(
        obj({
          tracking_number: str('Package'),
          outcome: enumOf(
            ['delivered', 'returned', 'in_transit'],
            'Where the package stands by its newest tracking event',
          ),
        }),
        'Outcome per package',
      ),
      legs: list(
        obj({
          carrier_order_number: str('Order placed with the carrier'),
          tracking_numbers: list(str('Package'), 'Packages on it'),
        }),
        'Orders placed with the carrier; one per package when it lacks multi-piece shipments',
      ),
    },
  ),
];

export type AssignmentEventStep = 'created' | 'handed_over' | 'cancelled' | 'partial_delivered';

/**
 * The event of a step of the assignment, addressed to its provider. A partial delivery is reported each time more
 * packages are delivered: its id carries how many (`TPE-<id>.partial_delivered.<n>`).
 */
export function assignmentOutboxEvent(
  a: StoredAssignment,
  step: AssignmentEventStep,
  outcomes: readonly { package_number: string; outcome: PackageOutcome }[] = [],
): NewOutboxEvent {
  const event = `delivery.assignment.${step}`;
  const eventId = step === 'partial_delivered' ? `TPE-${a.id}.${step}.${a.delivered_packages}` : `TPE-${a.id}.${step}`;
  const extra =
    step === 'created'
      ? { source: a.source, handover_deadline: new Date(a.handover_deadline).toISOString() }
      : step === 'handed_over'
        ? { handed_over_at: new Date(a.handed_over_at!).toISOString() }
        : step === 'cancelled'
          ? { reason: a.cancel_reason! }
          : {
              packages: outcomes.map((o) => ({ tracking_number: o.package_number, outcome: o.outcome })),
              legs: a.legs.map((l) => ({
                carrier_order_number: l.carrier_order_number,
                tracking_numbers: l.package_numbers,
              })),
            };
  return {
    businessId: a.business_id,
    providerId: a.provider_id,
    eventId,
    eventType: event,
    referenceType: 'third_party_assignment',
    referenceId: a.number,
    payload: {
      event_id: eventId,
      event,
      occurred_at: new Date().toISOString(),
      data: {
        assignment_number: a.number,
        order: { id: a.order_id, order_ref: a.order_ref, tracking_number: a.tracking_number },
        packages: a.packages.map((p) => ({ tracking_number: p.package_number })),
        ...extra,
      },
    },
  };
}

/** Each event as its receiver should read it: when it is sent and what to do with it (the AsyncAPI description). */
export const THIRD_PARTY_EVENTS = describeEvents(DECLARED, {
  'delivery.assignment.created':
    "Sent when a business hands you an order, by a rule or by hand. Be ready to receive its packages at the warehouse before `handover_deadline`: if they are not handed over by then, the order falls back to the business's own delivery.",
  'delivery.assignment.handed_over':
    'Sent when the warehouse has handed you every package of the order: the delivery is yours from now on.',
  'delivery.assignment.cancelled':
    "Sent when the assignment ends without your delivery (`reason`: cancelled, reassigned to another provider, or back to the business's own delivery after a missed handover). Do not deliver the order.",
  'delivery.assignment.partial_delivered':
    'Sent when some packages of the order are delivered while others are still in transit: the outcome of each package by its newest tracking event, and the orders you placed with your carrier.',
});
