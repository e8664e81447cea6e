/**
 * The question a cancellation puts to the delivery provider holding the order: sent to the provider's own endpoint
 * (`PUT /v1/provider/webhook-settings`) like the other delivery.assignment.* events, signed and retried the same way.
 * The tenant side of a cancellation (order.cancel_failed, order.deleted, order.cancelled) is declared by the orders
 * module.
 */
import type { NewOutboxEvent } from '../../platform/db/outbox.ts';
import { describeEvents, type EventDefinition } from '../../platform/events.ts';
import { bool, int, list, obj, orNull, str, time } from '../../platform/jsonSchema.ts';
import type { AssignmentFacts } from './repo.ts';

const CANCEL_REQUESTED = 'delivery.assignment.cancel_requested';

const DECLARED: readonly EventDefinition[] = [
  {
    name: CANCEL_REQUESTED,
    sender: 'third_party',
    summary: 'The business asks to cancel an order handed to the provider.',
    payload: obj({
      event_id: str('TPE-<assignment id>.cancel_requested.<cancellation id>; stable across retries'),
      event: str('Event name', { const: CANCEL_REQUESTED }),
      occurred_at: time('When'),
      data: obj({
        assignment_number: str('Assignment number'),
        order: obj({
          id: int('Order id'),
          order_ref: orNull(str('Merchant order reference')),
          tracking_number: str("Tracking number (its first package's)"),
        }),
        packages: list(obj({ tracking_number: str('Package tracking number') }), 'Packages of the order'),
        cancellation_id: int('The request to answer'),
        answer_deadline: time('Accept or refuse before this; no answer by then counts as a refusal'),
        'test?': bool('True on test (mock) events'),
      }),
    }),
  },
];

export const ORDER_CANCELLATION_EVENTS = describeEvents(DECLARED, {
  [CANCEL_REQUESTED]:
    'Sent when the business asks to cancel an order it handed you. Answer before `answer_deadline` with `POST /v1/provider/third-party-assignments/{number}/cancel-request`: `accept: true` if you can still stop it (the assignment then ends `cancelled` and the order is cancelled), or `accept: false` with your own `refusal_code` if you cannot. No answer by the deadline counts as a refusal.',
});

/** The event asking the provider, addressed to it. */
export function cancelRequestedEvent(
  businessId: number,
  providerId: number,
  assignmentId: number,
  facts: AssignmentFacts,
  orderId: number,
  cancellationId: number,
  answerDeadline: string,
): NewOutboxEvent {
  const eventId = `TPE-${assignmentId}.cancel_requested.${cancellationId}`;
  return {
    businessId,
    providerId,
    eventId,
    eventType: CANCEL_REQUESTED,
    referenceType: 'third_party_assignment',
    referenceId: facts.number,
    payload: {
      event_id: eventId,
      event: CANCEL_REQUESTED,
      occurred_at: new Date().toISOString(),
      data: {
        assignment_number: facts.number,
        order: { id: orderId, order_ref: facts.order_ref, tracking_number: facts.tracking_number },
        packages: facts.packages.map((tracking_number) => ({ tracking_number })),
        cancellation_id: cancellationId,
        answer_deadline: answerDeadline,
      },
    },
  };
}
