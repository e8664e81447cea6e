/**
 * The device order events. The device order in them is views.ts's schema, closed, and the event bodies are
 * closed too: this is exactly what repo.ts writes, so a pickup code can never slip into a payload unnoticed.
 */
import type { EventDefinition, Schema } from '../../platform/events.ts';
import { describeEvents } from '../../platform/events.ts';
import { enumOf, int, jsonSchemaOf, orNull, str, strict, tenantEnvelope } from '../../platform/jsonSchema.ts';
import { DEVICE_ORDER_STATUSES, EVENT_OF_ACTION, outcomeOf, type DeviceOrderAction } from './domain.ts';
import { DeviceOrderView } from './views.ts';

const DEVICE_ORDER = jsonSchemaOf(DeviceOrderView) as Schema & { properties: Record<string, Schema> };

/** The device order as views.ts defines it, its status narrowed to what the event carries. */
const deviceOrderOf = (status: Schema): Schema => ({
  ...DEVICE_ORDER,
  properties: { ...DEVICE_ORDER.properties, status },
  description: 'The device order; the pickup code is never included',
});

const deviceException = (status: Schema) =>
  strict({
    id: int('Exception id'),
    type: str('Exception type, for example door_left_open, deposit_unverified, item_missing, overdue'),
    severity: str('Severity'),
    status,
    resolution_action: orNull(str('What was done to resolve it; null while open')),
  });

/** The status each transition event carries, taken from the domain's own transition table. */
const TRANSITIONS: readonly DeviceOrderAction[] = ['collect', 'remove', 'overdue'];
const STATUS_OF_EVENT = new Map<string, string>([
  [EVENT_OF_ACTION.store, 'stored'],
  ...TRANSITIONS.map((a) => [EVENT_OF_ACTION[a], outcomeOf(a).status] as [string, string]),
]);

function deviceOrderPayload(name: string): Schema {
  const status = STATUS_OF_EVENT.get(name);
  const order = deviceOrderOf(
    status ? str('Device order status', { const: status }) : enumOf(DEVICE_ORDER_STATUSES, 'Device order status'),
  );
  const exception = deviceException(
    name === 'device_order.exception_resolved'
      ? enumOf(['resolved', 'dismissed'], 'How it was closed')
      : str('Exception status'),
  );
  const data = name.startsWith('device_order.exception_')
    ? strict({ device_order: order, exception })
    : strict({ device_order: order });
  return tenantEnvelope(name, data, {
    strict: true,
    eventId: str('DOE-<ledger event id>, stable across retries', { pattern: '^DOE-[0-9]+$' }),
  });
}

const SUMMARIES = {
  'device_order.stored': 'A parcel was placed in a device compartment; due_at is the pickup deadline.',
  'device_order.collected': 'The awaited party took the parcel out.',
  'device_order.removed': 'Staff took the parcel out; removal_reason says why.',
  'device_order.overdue': 'The parcel was not collected by due_at.',
  'device_order.exception_opened': 'An exception was raised on the device order.',
  'device_order.exception_resolved': 'An exception on the device order was resolved or dismissed.',
};

const DECLARED: readonly EventDefinition[] = Object.entries(SUMMARIES).map(([name, summary]) => ({
  name,
  sender: 'tenant',
  summary,
  payload: deviceOrderPayload(name),
  route: { field: 'device_order_webhook_url', restrictedBy: 'device_order_events' },
}));

/** Each event as its receiver should read it: when it is sent and what to do with it (the AsyncAPI description). */
export const DEVICE_ORDER_EVENTS = describeEvents(DECLARED, {
  'device_order.stored':
    'Sent when a parcel is placed in a device compartment for someone to collect. `due_at` is the pickup deadline. The pickup code is never in the event: the recipient gets it from the service or from whoever stored the parcel.',
  'device_order.collected':
    'Sent when the awaited party collected the parcel with its pickup code: the device order is done and the compartment free.',
  'device_order.removed':
    'Sent when staff took the parcel out of its compartment instead of the awaited party; `removal_reason` says why.',
  'device_order.overdue':
    'Sent when the parcel was not collected by `due_at`. It stays in the compartment, and an overdue exception is opened for staff to act on.',
  'device_order.exception_opened':
    'Sent when an exception is opened on the device order (for example door left open, deposit unverified, item missing, overdue). The device order stays open until staff resolve or dismiss it.',
  'device_order.exception_resolved':
    'Sent when an exception on the device order is resolved or dismissed, with what was done (`resolution_action`).',
});
