/**
 * The machine-readable webhook catalog (AsyncAPI 3.0.0), served at /api/asyncapi-webhooks.json.
 * Receivers own the URLs, so channels have no fixed address: one channel per place a receiver URL is
 * configured. Payload schemas live under components.schemas/<event name> because CloudEvents `dataschema`
 * points there.
 */
import type { EventDefinition, EventSender, Schema } from '../../platform/events.ts';
import { exampleOf } from '../../platform/schemaExample.ts';
import { API_LICENSE, apiContact, DEFAULT_API_CONTACT_EMAIL } from '../../platform/apiInfo.ts';
import { TEST_EVENT } from './events.ts';
import { URL_FIELDS, type EventRouting, type UrlField } from './routing.ts';

export const ASYNCAPI_PATH = '/api/asyncapi-webhooks.json';

const header = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });

/** Optional on every sender: CloudEvents binary attributes and Standard Webhooks, chosen per URL or endpoint, and the trace context. */
const FORMAT_HEADERS: Record<string, Schema> = {
  'ce-specversion': header('CloudEvents binary mode: 1.0', { const: '1.0' }),
  'ce-id': header('CloudEvents id: the body event_id, otherwise the delivery id'),
  'ce-source': header('<base URL>/api/v1/businesses/<business id>'),
  'ce-type': header('org.opentms.<event name>'),
  'ce-subject': header('<reference type>/<reference id>, for example device_order/42'),
  'ce-time': header('The event occurred_at'),
  'ce-dataschema': header('Link to this document: #/components/schemas/<event name>'),
  'ce-tmsbusiness': header('Business id'),
  'ce-tmsattempt': header('Attempt number (binary mode only)'),
  'webhook-id': header('Standard Webhooks id, same rule as ce-id'),
  'webhook-timestamp': header('Standard Webhooks timestamp, Unix seconds'),
  'webhook-signature': header(
    "'v1,' + base64(HMAC-SHA256(whsec key, id + '.' + timestamp + '.' + body)), space-separated per key",
  ),
  traceparent: header(
    'W3C Trace Context of this attempt, when the service traces (docs/observability.md); not signed',
    { pattern: '^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' },
  ),
};

const CONTENT_TYPE = header('application/json; application/cloudevents+json in CloudEvents structured mode', {
  enum: ['application/json', 'application/cloudevents+json'],
});

const LOCKER_HEADERS: Record<string, Schema> = {
  'Content-Type': CONTENT_TYPE,
  'X-Webhook-Id': header('Event id, the same across retries; use it for idempotency'),
  'X-Webhook-Delivery-Id': header('This delivery; part of the signed message'),
  'X-Webhook-Timestamp': header('Unix seconds; reject stale values'),
  'X-Webhook-Key-Id': header('Id of the current signing key'),
  'X-Webhook-Content-Digest': header("'sha-256=' + base64(SHA-256(body))"),
  'X-Webhook-Signature': header(
    "'v1=' + base64(HMAC-SHA256(secret, timestamp LF delivery_id LF body)); one per live key, space-separated, for 24 h after a rotation",
  ),
};

const SIGNING_HEADERS: Record<EventSender, { required: Record<string, Schema>; optional?: Record<string, Schema> }> = {
  tenant: {
    required: {
      'Content-Type': CONTENT_TYPE,
      Signature: header('hex(HMAC-SHA256(secret, raw body))'),
      'X-Webhook-Event-Id': header('Delivery id (event x URL); never changes across retries'),
      'X-Webhook-Timestamp': header('Unix seconds of this attempt'),
      'X-Webhook-Signature-V2': header("hex(HMAC-SHA256(secret, timestamp + '.' + body))"),
    },
  },
  partner_locker: {
    required: LOCKER_HEADERS,
    optional: { 'X-Webhook-Test': header('1 on sandbox events', { const: '1' }) },
  },
  third_party: { required: LOCKER_HEADERS },
  ohp: {
    required: {
      'Content-Type': CONTENT_TYPE,
      'X-Ohp-Event': header('Event name'),
      'X-Ohp-Delivery': header('Equals the body message_id; stable across retries'),
      'X-Ohp-Timestamp': header('Unix seconds; changes per attempt'),
      'X-Ohp-Signature': header("'v1=' + hex(HMAC-SHA256(subscription secret, timestamp + '.' + raw body))"),
    },
  },
};

/** The receivers, one tag each: an operation and its messages carry their sender's, so a reader finds their own. */
const SENDER_TAGS: Record<EventSender, { name: string; description: string; retries: string }> = {
  tenant: {
    name: 'Business webhooks',
    description:
      "Events of a business's own orders, device orders, drivers and route boards, sent to the URLs in its webhook " +
      'settings (merchant level, or a customer account that overrides them), signed with its webhook secret.',
    retries: 'A failed attempt is tried again 4 times (after 10 s, 100 s, 1000 s and 10000 s).',
  },
  partner_locker: {
    name: 'Partner locker providers',
    description:
      "Events of a locker provider's deliveries into partner lockers, sent to the provider's endpoint (sandbox " +
      'deliveries to its sandbox URL when set), signed with its endpoint secret.',
    retries: 'A failed attempt is tried again 7 times (after 10 s, then 4 times longer each time), then dead-lettered.',
  },
  third_party: {
    name: 'Third-party delivery providers',
    description:
      "Events of the orders a business hands to a delivery provider, sent to the provider's endpoint for that " +
      'business and category, signed with its endpoint secret.',
    retries: 'A failed attempt is tried again 7 times (after 10 s, then 4 times longer each time), then dead-lettered.',
  },
  ohp: {
    name: 'OHP subscribers',
    description:
      'OHP handoff, amendment, tracking and settlement events, sent to the URL of each live OHP subscription, signed ' +
      'with its subscription secret. Pulling stays the source of truth.',
    retries: 'A failed attempt is tried again 7 times (after 10 s, then 4 times longer each time), then dead-lettered.',
  },
};

function headersSchema(sender: EventSender): Schema {
  const { required, optional = {} } = SIGNING_HEADERS[sender];
  return {
    type: 'object',
    properties: { ...required, ...optional, ...FORMAT_HEADERS },
    required: Object.keys(required),
  };
}

interface ChannelSpec {
  title: string;
  description: string;
  sender: EventSender;
  events: string[];
}

const NO_FILTER = { device_order_events: null, order_lifecycle_events: null };

/** Tenant channels follow routing.ts, so the catalog cannot drift from where events are actually sent. */
function channelSpecs(routing: EventRouting): Record<string, ChannelSpec> {
  const channels: Record<string, ChannelSpec> = {};
  for (const field of URL_FIELDS) {
    channels[field] = {
      title: field,
      description:
        `The URLs in the webhook settings field ${field} (merchant level or customer override; comma-separated). ` +
        'Each URL receives native JSON, CloudEvents binary or structured mode, optionally with Standard Webhooks headers.',
      sender: 'tenant',
      events: [],
    };
  }
  for (const e of routing.events.filter((x) => x.sender === 'tenant')) {
    const field: UrlField | null = routing.urlFieldFor(e.name, NO_FILTER);
    // The test push goes to whichever URL it is asked for.
    const targets = e.name === TEST_EVENT ? URL_FIELDS : field ? [field] : [];
    for (const t of targets) channels[t]!.events.push(e.name);
  }
  channels.partner_locker_endpoint = {
    title: 'Partner locker endpoint',
    description:
      'One endpoint per provider account with a selectable event list; sandbox events go to the sandbox URL when configured. ' +
      '1 + 7 retries with exponential backoff, then dead letter.',
    sender: 'partner_locker',
    events: routing.eventsOf('partner_locker'),
  };
  channels.third_party_endpoint = {
    title: 'Third-party delivery endpoint',
    description: 'Endpoint, secret and subscription per provider and category. 1 + 7 retries, then dead letter.',
    sender: 'third_party',
    events: routing.eventsOf('third_party'),
  };
  channels.ohp_subscription = {
    title: 'OHP subscription',
    description: 'The url of an OHP subscription (POST /v1/ohp/subscriptions). Pull remains the source of truth.',
    sender: 'ohp',
    events: routing.eventsOf('ohp'),
  };
  return channels;
}

function message(e: EventDefinition): Schema {
  return {
    name: e.name,
    title: e.name,
    summary: e.summary,
    ...(e.description && { description: e.description }),
    tags: [{ name: SENDER_TAGS[e.sender].name }],
    contentType: 'application/json',
    // The sender's signing headers come from its trait, shared by all its messages.
    traits: [{ $ref: `#/components/messageTraits/${e.sender}` }],
    payload: { $ref: `#/components/schemas/${e.name}` },
    // Written from the payload schema (platform/schemaExample.ts), so it cannot drift from it.
    examples: [{ name: e.name, summary: `An example ${e.name} payload`, payload: exampleOf(e.payload) }],
  };
}

const cache = new WeakMap<EventRouting, Map<string, Schema>>();

/**
 * The AsyncAPI document of these events for this deployment's public base URL and API contact; built once per URL and
 * contact. Do not mutate it.
 */
export function buildAsyncApiDocument(
  routing: EventRouting,
  publicBaseUrl: string,
  contactEmail = DEFAULT_API_CONTACT_EMAIL,
): Schema {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const built = cache.get(routing) ?? new Map<string, Schema>();
  cache.set(routing, built);
  const key = `${base} ${contactEmail}`;
  const cached = built.get(key);
  if (cached) return cached;

  const specs = channelSpecs(routing);
  const channels: Record<string, Schema> = {};
  const operations: Record<string, Schema> = {};
  for (const [id, spec] of Object.entries(specs)) {
    channels[id] = {
      address: null,
      title: spec.title,
      description: spec.description,
      messages: Object.fromEntries(spec.events.map((name) => [name, { $ref: `#/components/messages/${name}` }])),
    };
    operations[`send_${id}`] = {
      action: 'send',
      title: `Push to ${spec.title}`,
      description:
        `The service POSTs each of these events to ${spec.sender === 'tenant' ? 'every URL of this channel' : 'this endpoint'}` +
        ', signed as the message headers say: verify the signature over the raw body first, then answer 2xx within 3 ' +
        `seconds and do the work afterwards. A 3xx, another status or no answer in time is a failure. ${SENDER_TAGS[spec.sender].retries} ` +
        'Each delivery and its attempts can be read, replayed and resent through GET /v1/webhook-deliveries; an ' +
        'event may arrive more than once, so use its id to ignore repeats.',
      tags: [{ name: SENDER_TAGS[spec.sender].name }],
      channel: { $ref: `#/channels/${id}` },
      messages: spec.events.map((name) => ({ $ref: `#/channels/${id}/messages/${name}` })),
    };
  }
  const senders = Object.keys(SIGNING_HEADERS) as EventSender[];
  const doc: Schema = {
    asyncapi: '3.0.0',
    id: `${base}${ASYNCAPI_PATH}`,
    info: {
      title: 'Transport Management Service webhooks',
      version: '1.0.0',
      description:
        'Every webhook the service pushes: signed HTTP POST requests to receiver URLs. Reply 2xx within 3 seconds; ' +
        'verify the signature over the raw body first. Payload schemas are under components.schemas, keyed by event name.',
      contact: apiContact(base, contactEmail),
      license: API_LICENSE,
      tags: senders.map((s) => ({ name: SENDER_TAGS[s].name, description: SENDER_TAGS[s].description })),
    },
    // The receivers own the URLs: the one server is yours, wherever you configured it.
    servers: {
      receiver: {
        host: '{host}',
        protocol: 'https',
        title: 'Your receiver',
        description:
          'The endpoint you configured (webhook settings, a provider endpoint or an OHP subscription): the service ' +
          'sends each event there as an HTTP POST. Production receivers use https; the service refuses private and ' +
          'loopback addresses unless its operator allows them.',
        variables: { host: { description: 'The host, and port when not the default, of the URL you configured' } },
      },
    },
    defaultContentType: 'application/json',
    channels,
    operations,
    components: {
      schemas: Object.fromEntries(
        routing.events.map((e) => [e.name, { title: e.name, description: e.summary, ...e.payload }]),
      ),
      messages: Object.fromEntries(routing.events.map((e) => [e.name, message(e)])),
      messageTraits: Object.fromEntries(senders.map((s) => [s, { headers: headersSchema(s) }])),
    },
  };
  built.set(key, doc);
  return doc;
}
