/**
 * The device order events. Their schemas are strict: this is exactly what repo.ts writes, so a pickup code can
 * never slip into a payload unnoticed.
 */
import type { EventDefinition, Schema } from '../../platform/events.ts';
import { enumOf, int, orNull, str, strict, tenantEnvelope, time } from '../../platform/jsonSchema.ts';
import { DEVICE_ORDER_KINDS, DEVICE_ORDER_STATUSES, EVENT_OF_ACTION, NEXT_ACTORS, outcomeOf, REMOVAL_REASONS, type DeviceOrderAction } from './domain.ts';

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

const SUMMARIES = {
  'device_order.stored': 'A parcel was placed in a device compartment; due_at is the pickup deadline.',
  'device_order.collected': 'The awaited party took the parcel out.',
  'device_order.removed': 'Staff took the parcel out; removal_reason says why.',
  'device_order.overdue': 'The parcel was not collected by due_at.',
  'device_order.exception_opened': 'An exception was raised on the device order.',
  'device_order.exception_resolved': 'An exception on the device order was resolved or dismissed.',
};

export const DEVICE_ORDER_EVENTS: readonly EventDefinition[] = Object.entries(SUMMARIES).map(([name, summary]) => ({
  name, sender: 'tenant', summary, payload: deviceOrderPayload(name),
  route: { field: 'device_order_webhook_url', restrictedBy: 'device_order_events' },
}));
