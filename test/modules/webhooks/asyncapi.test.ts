import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { DiagnosticSeverity, Parser, type AsyncAPIDocumentInterface } from '@asyncapi/parser';
import { Ajv, type ValidateFunction } from 'ajv';
import { compartmentsOf, insertDevice } from '../../../src/modules/lockers/index.ts';
import { keepEvents } from '../../helpers/factories.ts';
import { ENTITIES, EVENTS } from '../../../src/modules/index.ts';
import { createOrm, type Em, type Orm } from '../../../src/platform/db/orm.ts';
import { insertStoredDeviceOrder, transitionDeviceOrder } from '../../../src/modules/device-orders/repo/orders.ts';
import { buildAsyncApiDocument } from '../../../src/modules/webhooks/asyncapi.ts';
import { buildRequest } from '../../../src/modules/webhooks/request.ts';
import { shapeForRecipient } from '../../../src/modules/webhooks/transform.ts';
import { URL_FIELDS } from '../../../src/modules/webhooks/routing.ts';
import { eventDefinition, ROUTING } from '../../helpers/events.ts';

const eventSchema = (name: string) => eventDefinition(name)?.payload;
const EVENT_NAMES = EVENTS.map((e) => e.name);

const BASE = 'https://tms.example';

/** Named in the specification's Events part (plus the names docs/webhooks.md decides), written out independently of the code. */
const DEVICE_ORDER_EVENTS = [
  'device_order.stored',
  'device_order.collected',
  'device_order.removed',
  'device_order.overdue',
  'device_order.exception_opened',
  'device_order.exception_resolved',
];
const LIFECYCLE_EVENTS = [
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
];
const SPEC_EVENTS = [
  'order.created',
  'order.status_change',
  'tracking.event',
  'order.create_async',
  'pod.files_updated',
  'order.deleted',
  'order.cancel_failed',
  'driver.location_update',
  'route_board.changed',
  'webhook.test',
  ...['requested', 'in_effect', 'held_at_warehouse', 'outcome_executed', 'withdrawn', 'rejected', 'failed'].map(
    (s) => `order.intercept.${s}`,
  ),
  ...['doors_opened', 'delivered', 'failed', 'expired', 'cancelled', 'correction_reopened', 'code_rotated'].map(
    (s) => `partner_locker.delivery.${s}`,
  ),
  'partner_locker.pickup.completed',
  ...['created', 'loaded', 'delivered', 'shelved', 'removed'].map((s) => `carrier_package.distribution.${s}`),
  ...['created', 'handed_over', 'cancelled', 'partial_delivered'].map((s) => `delivery.assignment.${s}`),
  // Designed for issue 36 (an order's cancellation asks the provider holding it), beside the specification's four.
  'delivery.assignment.cancel_requested',
  'handoff.accepted',
  'handoff.rejected',
  'handoff.expired',
  'handoff.cancelled',
  'amendment.accepted',
  'amendment.rejected',
  'handoff.tracking',
  'settlement_line.created',
];

const doc = buildAsyncApiDocument(ROUTING, BASE) as {
  id: string;
  components: { schemas: Record<string, object>; messages: Record<string, object> };
  channels: Record<string, any>;
};

/** An independent validator: plain ajv, with date-time checked as RFC 3339 (ajv-formats is not a dependency). */
function validator(schema: object): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i);
  return ajv.compile(schema);
}

function assertValid(name: string, payload: unknown) {
  const validate = validator(doc.components.schemas[name]!);
  assert.ok(validate(payload), `${name}: ${JSON.stringify(validate.errors)}`);
}

describe('AsyncAPI webhook catalog', () => {
  let parsed: AsyncAPIDocumentInterface;

  before(async () => {
    // Parse the bytes the route will serve, not the object, so nothing in-process can hide a serialization problem.
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(doc));
    const errors = diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error);
    assert.deepEqual(
      errors.map((d) => `${d.path.join('/')}: ${d.message}`),
      [],
    );
    assert.ok(document);
    parsed = document;
  });

  test('is a valid AsyncAPI 3.0.0 document of send operations', () => {
    assert.equal(parsed.version(), '3.0.0');
    assert.ok(parsed.operations().all().length > 0);
    assert.ok(
      parsed
        .operations()
        .all()
        .every((o) => o.action() === 'send'),
    );
    assert.equal(buildAsyncApiDocument(ROUTING, `${BASE}/`), doc, 'one document per base URL, trailing slash ignored');
  });

  test('a receiver finds every operation and event described and tagged with its sender, and itself as the server', () => {
    const tags = parsed.info().tags().all();
    assert.ok(tags.length > 0 && tags.every((t) => t.description()), 'declared tags, each described');
    const declared = new Set(tags.map((t) => t.name()));
    for (const o of parsed.operations().all()) {
      assert.ok(o.description(), `operation ${o.id()} has a description`);
      assert.ok(
        o
          .tags()
          .all()
          .every((t) => declared.has(t.name())),
        `operation ${o.id()}'s tags are declared`,
      );
    }
    for (const m of parsed.components().messages().all()) {
      assert.ok(m.description(), `event ${m.id()} has a description`);
      const names = m
        .tags()
        .all()
        .map((t) => t.name());
      assert.ok(names.length === 1 && declared.has(names[0]!), `event ${m.id()} carries its sender's tag`);
    }
    assert.equal(parsed.servers().all().length, 1);
    assert.ok(parsed.info().contact()?.email() && parsed.info().license()?.name());
  });

  test('every event of the specification has a schema, and the settings restrictions name exactly their families', () => {
    assert.deepEqual(ROUTING.restrictedBy('device_order_events'), DEVICE_ORDER_EVENTS);
    assert.deepEqual(ROUTING.restrictedBy('order_lifecycle_events'), LIFECYCLE_EVENTS);
    const keys = Object.keys(doc.components.schemas);
    for (const name of [...DEVICE_ORDER_EVENTS, ...LIFECYCLE_EVENTS, ...SPEC_EVENTS])
      assert.ok(keys.includes(name), `missing schema ${name}`);
    assert.deepEqual(
      [...keys].sort(),
      [...new Set([...DEVICE_ORDER_EVENTS, ...LIFECYCLE_EVENTS, ...SPEC_EVENTS])].sort(),
      'no event outside the specification',
    );
  });

  test('every catalog event has its schema, its message and a channel', () => {
    assert.equal(new Set(EVENT_NAMES).size, EVENT_NAMES.length, 'event names are unique');
    const onChannels = new Set(Object.values(doc.channels).flatMap((c) => Object.keys(c.messages)));
    for (const e of EVENTS) {
      assert.ok(doc.components.schemas[e.name], `schema ${e.name}`);
      assert.ok(doc.components.messages[e.name], `message ${e.name}`);
      assert.ok(onChannels.has(e.name), `channel for ${e.name}`);
      assert.equal(eventSchema(e.name), e.payload);
      // Every schema compiles in a validator other than the parser's.
      validator(doc.components.schemas[e.name]!);
    }
    assert.equal(eventSchema('no.such_event'), undefined);
  });

  test("each settings URL field is a channel, and messages carry their sender's signing headers", () => {
    for (const field of URL_FIELDS) assert.ok(doc.channels[field], `channel ${field}`);
    const required = (name: string) =>
      (parsed.components().messages().get(name)!.headers()!.json() as { required: string[] }).required;
    assert.ok(required('device_order.stored').includes('X-Webhook-Signature-V2'));
    assert.ok(required('partner_locker.delivery.delivered').includes('X-Webhook-Content-Digest'));
    assert.ok(required('delivery.assignment.created').includes('X-Webhook-Key-Id'));
    assert.ok(required('handoff.accepted').includes('X-Ohp-Signature'));
  });

  test("the CloudEvents dataschema link points at the event's schema in this document", () => {
    const req = buildRequest(
      {
        sender: 'tenant',
        deliveryKey: 'k',
        businessId: 1,
        eventType: 'device_order.stored',
        referenceType: 'device_order',
        referenceId: '1',
        format: 'ce_binary',
        standardWebhooks: false,
        payload: {},
      },
      { secrets: ['x'.repeat(16)], keyId: null },
      1,
      1_700_000_000,
      BASE,
    );
    const [url, fragment] = req.headers['ce-dataschema']!.split('#');
    assert.equal(url, doc.id);
    const target = fragment!
      .split('/')
      .slice(1)
      .reduce<any>((node, key) => node?.[key], doc);
    assert.equal(target, doc.components.schemas['device_order.stored']);
  });

  test('other payloads follow the designs', () => {
    const envelope = { event_id: 'E-1', business_id: 1, occurred_at: '2026-01-01T10:00:00.000Z' };
    assertValid('driver.location_update', {
      ...envelope,
      event: 'driver.location_update',
      data: { driver_id: 7, lat: 48.85, lng: 2.35, heading: null, speed: null, recorded_at: '2026-01-01T10:00:00Z' },
    });
    const order = { id: 1, order_ref: 'R-1', tracking_number: 'T1', type: 'D', status_id: 2, status: 'NEW_ORDER' };
    assertValid('order.status_change', {
      ...envelope,
      event_id: 'OSC-1',
      event: 'order.status_change',
      data: { order, before_status: 1, after_status: 48, operation_type: 3043 },
    });
    const rotated = {
      event_id: 'PLE-MOCK-1',
      event: 'partner_locker.delivery.code_rotated',
      livemode: false,
      occurred_at: envelope.occurred_at,
    };
    const rotation = { code: 'pickup_code', rotated_at: envelope.occurred_at, recipient_notified: true };
    assertValid('partner_locker.delivery.code_rotated', {
      ...rotated,
      data: { delivery_id: 'D1', test: true, rotation },
    });
    const leaked = validator(doc.components.schemas['partner_locker.delivery.code_rotated']!);
    assert.equal(
      leaked({ ...rotated, data: { delivery_id: 'D1', rotation, pickup_code: '123456' } }),
      false,
      'a rotated code is never sent',
    );
  });
});

describe('device order payloads written by deviceOrderRepo', () => {
  let orm: Orm;
  const payloads = new Map<string, any>();
  const ROLLBACK = new Error('rollback');

  before(async () => {
    orm = await createOrm(process.env.DATABASE_URL!, ENTITIES, 2);
    // Real outbox rows from the real repository code, read back and then rolled back so no test sees them.
    await orm.em
      .fork()
      .transactional(async (tx: Em) => {
        const [demo] = await tx.execute<{ business_id: number; order_id: number }[]>(
          "select business_id, id as order_id from delivery_order where order_ref = 'DEMO-NEW-1'",
        );
        await keepEvents(tx, demo!.business_id);
        // A device of our own, so no other test's parcels occupy its compartments.
        const device = await insertDevice(tx, {
          businessId: demo!.business_id,
          code: `ASYNCAPI-${randomUUID()}`,
          name: 'Catalog test locker',
          compartments: compartmentsOf(['A01', 'A02']),
        });
        const store = async (gridCode: string, orderId: number | null, externalOrderId: string | null) =>
          insertStoredDeviceOrder(tx, {
            id: (await tx.execute<{ id: number }[]>("select nextval('device_order_id_seq')::int as id"))[0]!.id,
            businessId: demo!.business_id,
            kind: 'delivery',
            device: { id: device.id, code: device.code, name: device.name, deviceType: device.deviceType },
            gridCode,
            compartmentId: (
              await tx.execute<{ id: number }[]>('select id from compartment where device_id = ? and grid_code = ?', [
                device.id,
                gridCode,
              ])
            )[0]!.id,
            referenceNumber: 'PKG-1',
            orderId,
            externalOrderId,
            dueAt: new Date(Date.now() + 3_600_000),
            pickupCodeHash: 'not-a-real-hash',
          });
        const a = await store('A01', demo!.order_id, 'EXT-1');
        const b = await store('A02', null, null);
        await transitionDeviceOrder(tx, a.id, 'collect');
        await transitionDeviceOrder(tx, b.id, 'overdue');
        await transitionDeviceOrder(tx, b.id, 'remove', { removalReason: 'overdue_return' });
        const rows = await tx.execute<{ event_type: string; payload: unknown }[]>(
          "select event_type, payload from outbox_event where reference_type = 'device_order' and reference_id in (?, ?) order by id",
          [String(a.id), String(b.id)],
        );
        for (const r of rows) payloads.set(r.event_type, r.payload);
        throw ROLLBACK;
      })
      .catch((err: unknown) => {
        if (err !== ROLLBACK) throw err;
      });
  });
  after(() => orm.close());

  test('each real payload validates against its event schema', () => {
    assert.deepEqual([...payloads.keys()].sort(), [
      'device_order.collected',
      'device_order.overdue',
      'device_order.removed',
      'device_order.stored',
    ]);
    for (const [name, payload] of payloads) assertValid(name, payload);
  });

  test('what a customer with hidden device order prices receives still validates', () => {
    for (const [name, payload] of payloads) {
      assertValid(
        name,
        shapeForRecipient(
          payload,
          { eventType: name, family: 'device_orders', carrierHeld: true },
          { toCustomer: true, hiddenFamilies: ['device_orders'] },
        ),
      );
    }
  });

  test('a pickup code in data.device_order is rejected', () => {
    const stored = payloads.get('device_order.stored');
    const validate = validator(doc.components.schemas['device_order.stored']!);
    assert.equal(
      validate({ ...stored, data: { device_order: { ...stored.data.device_order, pickup_code: '123456' } } }),
      false,
    );
    assert.equal(validate({ ...stored, data: { ...stored.data, pickup_code: '123456' } }), false);
  });

  test('the schema is exact: a missing field, a renamed envelope key or a wrong status fails', () => {
    const stored = payloads.get('device_order.stored');
    const validate = validator(doc.components.schemas['device_order.stored']!);
    const { grid_code: _grid, ...withoutGrid } = stored.data.device_order;
    assert.equal(validate({ ...stored, data: { device_order: withoutGrid } }), false);
    const { event, ...rest } = stored;
    assert.equal(validate({ ...rest, event_type: event }), false);
    assert.equal(
      validate({ ...stored, data: { device_order: { ...stored.data.device_order, status: 'collected' } } }),
      false,
    );
  });

  test('the relay routes every catalog event to the sender the catalog names', () => {
    for (const e of EVENTS) assert.equal(ROUTING.senderOf(e.name), e.sender, e.name);
  });
});
