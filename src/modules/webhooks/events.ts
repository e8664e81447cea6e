/**
 * The events the webhooks module sends itself (webhook.test) and those of the OHP push channel it serves, designed
 * from the specification for the family to come; they move into its module when that lands.
 */
import type { EventDefinition } from '../../platform/events.ts';
import { describeEvents } from '../../platform/events.ts';
import { bool, obj, str, tenantEnvelope, time } from '../../platform/jsonSchema.ts';

export const TEST_EVENT = 'webhook.test';

const testEvent: EventDefinition = {
  name: TEST_EVENT,
  sender: 'tenant',
  summary: 'A test push sent on request to check a receiver URL and its signature check.',
  payload: tenantEnvelope(
    TEST_EVENT,
    obj({
      test: bool('Always true; a receiver can tell test pushes apart'),
      'message?': str('Free text'),
    }),
  ),
};

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
  name,
  sender: 'ohp',
  summary,
  payload: obj(
    {
      message_id: str('Stable across retries (equals X-Ohp-Delivery); deduplicate on it'),
      event: str('Event name', { const: name }),
      occurred_at: time('When'),
      handoff_id: str('Handoff the event is about'),
      data: obj({}, { description: 'Event details; pull the handoff for the source of truth' }),
    },
    { description: 'OHP envelope' },
  ),
});
const DECLARED: readonly EventDefinition[] = [
  testEvent,
  ...Object.entries(OHP).map(([name, summary]) => ohpEvent(name, summary)),
];

/** Each event as its receiver should read it: when it is sent and what to do with it (the AsyncAPI description). */
export const WEBHOOK_EVENTS = describeEvents(DECLARED, {
  'webhook.test':
    "Sent only when someone asks for a test send from the webhook settings, to check that your URL answers and that your signature check accepts the service's signature. `test` is always true: acknowledge it with 2xx and change nothing.",
  'handoff.accepted':
    'Sent when a handoff is accepted. Pull the handoff for the details: the push only tells you to look.',
  'handoff.rejected': 'Sent when a handoff is rejected. Pull the handoff for the reason.',
  'handoff.expired': 'Sent when a handoff expired without an answer.',
  'handoff.cancelled': 'Sent when a handoff is cancelled.',
  'amendment.accepted': 'Sent when an amendment to a handoff is accepted. Pull the handoff for its current terms.',
  'amendment.rejected': 'Sent when an amendment to a handoff is rejected; the handoff keeps its terms.',
  'handoff.tracking':
    "Sent when a handed-off order makes tracking progress. Pull the handoff's tracking for the full history.",
  'settlement_line.created':
    'Sent when a settlement line is created for a handoff: an amount to settle between the parties. Pull it to reconcile.',
});
