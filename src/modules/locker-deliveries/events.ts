/**
 * The partner locker events (the specification's partner locker rows): sent to the provider's own endpoint, signed as
 * that channel, the only webhooks that carry pickup codes. `test: true` and livemode false mark sandbox events.
 */
import type { EventDefinition, Schema } from '../../platform/events.ts';
import { describeEvents } from '../../platform/events.ts';
import { bool, enumOf, list, int, obj, orNull, providerEnvelope, str, time } from '../../platform/jsonSchema.ts';
import { CONFIRM_SOURCES, FAILURE_CODES, OPEN_MODES } from './domain.ts';

const compartment = obj({
  grid_id: int('Compartment id'),
  compartment_number: int('Hardware door number'),
  pickup_locker_number: orNull(int('Number shown to the recipient')),
  pickup_locker_code: orNull(str("'{shelf_code}-{number}'; null when there is no number")),
});

function lockerEvent(
  name: string,
  summary: string,
  props: Record<string, Schema>,
  extra: Schema = {},
): EventDefinition {
  const data = obj(
    { delivery_id: str('Partner locker delivery id'), 'test?': bool('True on sandbox events'), ...props },
    extra,
  );
  return {
    name,
    sender: 'partner_locker',
    summary,
    payload: providerEnvelope(name, 'PLE-<id>, or PLE-MOCK-<id> for sandbox events; stable across retries', data),
  };
}

const DECLARED: readonly EventDefinition[] = [
  lockerEvent('partner_locker.delivery.doors_opened', 'Doors opened for a deposit attempt (also re-opens).', {
    pickup_code: orNull(
      str(
        'Recipient pickup code, usable once the deposit is confirmed; null once it was rotated (the new one reaches only the recipient)',
      ),
    ),
    opening: obj({
      via: enumOf([...OPEN_MODES], 'How the doors were opened'),
      opened_at: time('When'),
      compartments: list(compartment, 'Each opened compartment'),
    }),
  }),
  lockerEvent('partner_locker.delivery.delivered', 'The deposit was confirmed.', {
    pickup_code: orNull(
      str('Recipient pickup code; null once it was rotated (the new one reaches only the recipient)'),
    ),
    confirmed_by: enumOf([...CONFIRM_SOURCES], 'What confirmed it'),
    compartments: list(compartment, 'Compartments holding the parcels'),
  }),
  lockerEvent('partner_locker.pickup.completed', "The recipient's code opened the doors and they closed again.", {
    picked_up_at: time('When the last door closed'),
    opened_at: time("When the recipient's code opened the doors"),
    compartments: list(compartment, 'Compartments the parcels were collected from, now free'),
  }),
  lockerEvent('partner_locker.delivery.failed', 'The delivery failed; its compartments are free.', {
    failed_at: time('When'),
    parcels: list(
      obj({
        reference: str("The provider's parcel reference"),
        failure_code: orNull(enumOf([...FAILURE_CODES], 'Why it failed')),
      }),
      'Every parcel, with its failure code when one was given',
    ),
  }),
  lockerEvent('partner_locker.delivery.expired', 'An unused code or an uncollected deposit passed its expiry.', {
    expired: enumOf(['delivery_code', 'deposit'], 'What expired'),
    expired_at: time('When'),
  }),
  lockerEvent('partner_locker.delivery.cancelled', 'The delivery was cancelled before completion.', {
    cancelled_at: time('When'),
    'reason?': orNull(str('Why')),
  }),
  lockerEvent(
    'partner_locker.delivery.correction_reopened',
    'Compartments were reopened inside the correction window.',
    {
      correction: obj({ reopened_at: time('When'), compartments: list(compartment, 'Reopened compartments') }),
    },
  ),
  lockerEvent(
    'partner_locker.delivery.code_rotated',
    'A delivery or pickup code was replaced; the new code is not sent.',
    {
      rotation: obj({
        code: enumOf(['delivery_code', 'pickup_code'], 'Which code'),
        rotated_at: time('When'),
        recipient_notified: bool('Whether the recipient was told'),
      }),
    },
    { not: { anyOf: [{ required: ['pickup_code'] }, { required: ['delivery_code'] }] } },
  ),
];

/** Each event as its receiver should read it: when it is sent and what to do with it (the AsyncAPI description). */
export const PARTNER_LOCKER_EVENTS = describeEvents(DECLARED, {
  'partner_locker.delivery.doors_opened':
    "Sent when the delivery's doors open for a deposit, the first time or again. The courier puts the parcels in and closes the doors; the deposit counts once confirmed (delivered).",
  'partner_locker.delivery.delivered':
    "Sent when the deposit is confirmed, by your API, the locker's screen or the locker's owner. From now on the recipient's pickup code opens the compartments; expect partner_locker.pickup.completed when they have taken the parcels.",
  'partner_locker.pickup.completed':
    "Sent when the recipient's pickup code opened the doors and they were closed again: the parcels were collected and the delivery is done.",
  'partner_locker.delivery.failed':
    'Sent when the delivery failed, with a failure code per parcel when one was given. Its compartments are free again; start a new delivery to try again.',
  'partner_locker.delivery.expired':
    'Sent when an unused delivery code or an uncollected deposit passed its expiry; `expired` says which.',
  'partner_locker.delivery.cancelled':
    'Sent when the delivery was cancelled before its deposit was confirmed; its compartments are free again.',
  'partner_locker.delivery.correction_reopened':
    'Sent when compartments of a confirmed deposit were reopened inside the correction window, before the recipient opened them, so the courier can fix the deposit.',
  'partner_locker.delivery.code_rotated':
    "Sent when the delivery code or the recipient's pickup code was replaced; the old code stops working at once. The new code is never in the event: a new delivery code was answered to whoever asked for it, and a new pickup code goes only to the recipient.",
});
