/**
 * Shorthands for the JSON Schemas of event payloads (draft-07 subset, which is also AsyncAPI's schema format).
 * A property name ending in '?' is optional.
 */
import { z } from 'zod';
import type { Schema } from './events.ts';

export const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
export const int = (description: string, extra: Schema = {}): Schema => ({ type: 'integer', description, ...extra });
export const num = (description: string, extra: Schema = {}): Schema => ({ type: 'number', description, ...extra });
export const bool = (description: string): Schema => ({ type: 'boolean', description });
export const time = (description: string): Schema => str(description, { format: 'date-time' });
export const enumOf = (values: readonly string[], description: string): Schema =>
  str(description, { enum: [...values] });
export const list = (items: Schema, description: string): Schema => ({ type: 'array', description, items });

export function orNull(s: Schema): Schema {
  const nullable: Schema = { ...s, type: [s.type, 'null'] };
  if (Array.isArray(s.enum)) nullable.enum = [...s.enum, null];
  return nullable;
}

export function obj(props: Record<string, Schema>, extra: Schema = {}): Schema {
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
export const strict = (props: Record<string, Schema>, extra: Schema = {}): Schema =>
  obj(props, { ...extra, additionalProperties: false });

/**
 * The envelope of tenant events as the outbox writes them: the event name travels in `event`.
 * The spec guarantees a body event_id only for device order, lifecycle, pod.files_updated and order.deleted
 * events; elsewhere receivers fall back to X-Webhook-Event-Id, as the CloudEvents id rule does.
 */
export function tenantEnvelope(name: string, data: Schema, opts: { eventId?: Schema; strict?: boolean } = {}): Schema {
  // The webhooks module adds this for a receiver whose account hides the event's price family.
  const priceHidden = {
    type: 'boolean',
    const: true,
    description: 'Present when price fields were left out for this receiver',
  };
  const shown = { ...data, properties: { ...(data.properties as Record<string, Schema>), price_hidden: priceHidden } };
  const props = {
    [opts.eventId ? 'event_id' : 'event_id?']:
      opts.eventId ?? str('Event id when the event has its own; otherwise use X-Webhook-Event-Id'),
    event: str('Event name', { const: name }),
    business_id: int('Merchant (business) the event belongs to'),
    occurred_at: time('When the change happened'),
    data: shown,
  };
  return opts.strict ? strict(props) : obj(props);
}

/**
 * The envelope of a provider channel's events (partner lockers, carrier packages): an event id stable across retries,
 * the name, livemode (false for sandbox events) and the time, around `data`.
 */
export function providerEnvelope(name: string, eventId: string, data: Schema): Schema {
  return obj({
    event_id: str(eventId),
    event: str('Event name', { const: name }),
    livemode: bool('False for sandbox events'),
    occurred_at: time('When it happened'),
    data,
  });
}

/** The JSON Schema (draft-07) of what a zod schema outputs, for a shape defined once in a module's views.ts. */
export function jsonSchemaOf(schema: z.ZodType): Schema {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as Schema;
  return json;
}

export const OWN_EVENT_ID = str('Event id, stable across retries; deduplicate on it');
