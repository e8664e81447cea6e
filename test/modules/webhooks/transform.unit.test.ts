import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CANCEL_REFUSED_CODE,
  type EventFacts,
  PRICE_FAMILIES,
  PRICE_KEYS,
  type Recipient,
  shapeForRecipient,
} from '../../../src/modules/webhooks/transform.ts';

const merchant: Recipient = { toCustomer: false, hiddenFamilies: [] };
const customer: Recipient = { toCustomer: true, hiddenFamilies: [] };
const hidingLocal: Recipient = { toCustomer: true, hiddenFamilies: ['local_delivery'] };

const facts = (eventType: string, over: Partial<EventFacts> = {}): EventFacts => ({
  eventType,
  family: 'local_delivery',
  carrierHeld: false,
  ...over,
});
const held = (eventType: string): EventFacts => facts(eventType, { carrierHeld: true });

function envelope(event: string, data: Record<string, unknown>): Record<string, unknown> {
  return { event_id: 'evt_1', event, business_id: 7, occurred_at: '2026-01-01T00:00:00.000Z', data };
}

/** Every key anywhere in a JSON value, to prove a key is absent at any depth. */
function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, child]) => [key, ...allKeys(child)]);
  return [];
}

const pricedOrder = () =>
  envelope('order.status_change', {
    order_id: 42,
    tracking_number: 'TMS000042',
    shipping_price: 0,
    currency: 'CAD',
    tax: 1.3,
    price_details: { base: 10, third_party_cost_plus: 2 },
    surcharges: [{ name: 'fuel', surcharge_amount: 0.5 }],
    rates: [
      { rate_id: 'r1', service_name: 'Ground', price: 12.5, rate_price: 12.5 },
      { rate_id: 'r2', service_name: 'Express', price: 0 },
    ],
    payment: { method: 'card', paid_amount: 14.8, amount_paid: 14.8, surcharge: 1 },
    items: [{ sku: 'A', lines: [{ qty: 1, price: 3 }] }],
  });

describe('price hiding', () => {
  test('a hidden family loses every price field at any depth, including zeros', () => {
    const shaped = shapeForRecipient(pricedOrder(), facts('order.status_change'), hidingLocal);
    const left = allKeys(shaped).filter((key) => PRICE_KEYS.has(key));
    assert.deepEqual(left, []);
    // The input's only zeros are prices (shipping_price, a rate price): none is sent as 0 or null instead.
    assert.ok(!/:(0|null)[,}\]]/.test(JSON.stringify(shaped)), 'no price is sent as 0 or null');
    assert.ok(/:0[,}\]]/.test(JSON.stringify(pricedOrder())));
  });

  test('rate lists keep rate ids and service names; other fields keep values and order', () => {
    const shaped = shapeForRecipient(pricedOrder(), facts('order.status_change'), hidingLocal);
    assert.equal(
      JSON.stringify(shaped),
      JSON.stringify(
        envelope('order.status_change', {
          order_id: 42,
          tracking_number: 'TMS000042',
          rates: [
            { rate_id: 'r1', service_name: 'Ground' },
            { rate_id: 'r2', service_name: 'Express' },
          ],
          payment: { method: 'card' },
          items: [{ sku: 'A', lines: [{ qty: 1 }] }],
          price_hidden: true,
        }),
      ),
    );
  });

  test('price_hidden: true goes into data, or the top level when there is no data object', () => {
    const shaped = shapeForRecipient({ event: 'x', shipping_price: 5 }, facts('x'), hidingLocal);
    assert.deepEqual(shaped, { event: 'x', price_hidden: true });
  });

  test('applies only to the hidden family', () => {
    for (const family of PRICE_FAMILIES.filter((f) => f !== 'local_delivery')) {
      assert.deepEqual(
        shapeForRecipient(pricedOrder(), facts('order.status_change', { family }), hidingLocal),
        pricedOrder(),
      );
    }
    assert.deepEqual(
      shapeForRecipient(pricedOrder(), facts('order.status_change', { family: null }), hidingLocal),
      pricedOrder(),
    );
    assert.deepEqual(shapeForRecipient(pricedOrder(), facts('order.status_change'), customer), pricedOrder());
  });

  test('applies to each family the recipient hides, whoever the recipient is', () => {
    for (const family of PRICE_FAMILIES) {
      const recipient: Recipient = { toCustomer: false, hiddenFamilies: [family] };
      const shaped = shapeForRecipient(pricedOrder(), facts('order.status_change', { family }), recipient);
      assert.equal((shaped.data as Record<string, unknown>).price_hidden, true, family);
      assert.equal((shaped.data as Record<string, unknown>).shipping_price, undefined, family);
    }
  });
});

const statusChange = () =>
  envelope('order.status_change', {
    order_id: 42,
    before_status: 29,
    after_status: 43,
    status_code: 'CARRIER_ON_THE_WAY',
    operation_type: 6008,
    operation_description: 'Carrier X depot Montreal, scanned by J. Doe',
    ip_address: '203.0.113.9',
    price_details: { base: 10, third_party_cost_plus: 2, third_party_partial_delivery_deduction: 1, total: 13 },
    history: [
      {
        operation_type: 6007,
        operation_description: 'accepted by Carrier X',
        ip_address: '203.0.113.9',
        after_status: 33,
      },
      { operation_type: 2009, after_status: 33 },
      { operation_type: 3043, operation_description: 'intercepted', ip_address: '198.51.100.1', after_status: 48 },
    ],
  });

describe('carrier-held shipments to a customer', () => {
  test('order.status_change: operation types, their description and ip, statuses, price details', () => {
    const shaped = shapeForRecipient(statusChange(), held('order.status_change'), customer);
    assert.deepEqual(
      shaped,
      envelope('order.status_change', {
        order_id: 42,
        before_status: 29,
        after_status: 2,
        status_code: 'ON_THE_WAY',
        operation_type: 6002,
        operation_description: '',
        ip_address: '',
        price_details: { base: 10, total: 13 },
        history: [
          { operation_type: 1001, operation_description: '', ip_address: '', after_status: 29 },
          { operation_type: 2002, after_status: 29, operation_description: '', ip_address: '' },
          { operation_type: 3043, operation_description: 'intercepted', ip_address: '198.51.100.1', after_status: 48 },
        ],
      }),
    );
    // Rewritten keys stay where they were.
    assert.deepEqual(Object.keys(shaped.data as object), Object.keys(statusChange().data as object));
  });

  test('each carrier operation type maps as documented', () => {
    const mapping: [number, number][] = [
      [6007, 1001],
      [2009, 2002],
      [6008, 6002],
      [6009, 6002],
      [6010, 6002],
    ];
    for (const [from, to] of mapping) {
      const shaped = shapeForRecipient(
        envelope('order.status_change', { operation_type: from }),
        held('order.status_change'),
        customer,
      );
      assert.deepEqual(shaped.data, { operation_type: to, operation_description: '', ip_address: '' }, String(from));
    }
  });

  test('operation types are rewritten only in order.status_change', () => {
    const payload = envelope('order.picked_up', { operation_type: 6008, operation_description: 'd', ip_address: 'i' });
    assert.deepEqual(shapeForRecipient(payload, held('order.picked_up'), customer), payload);
  });

  test('statuses 33 and 43 become 29 and 2 in every event, in every status key, at any depth', () => {
    const payload = envelope('order.completed', {
      status_id: 33,
      order_status_id: 43,
      current_status: 43,
      previous_status: 33,
      orders: [
        {
          order: {
            status_id: 43,
            status: 'CARRIER_AT_WAREHOUSE',
            status_name: 'at the carrier warehouse (shown to customers as 29)',
          },
        },
      ],
      files: [{ tracking_event_status_id: 33 }],
      // Not order statuses: a bare `status` number and other counts stay.
      status: 33,
      parcel_count: 43,
    });
    assert.deepEqual(
      shapeForRecipient(payload, held('order.completed'), customer),
      envelope('order.completed', {
        status_id: 29,
        order_status_id: 2,
        current_status: 2,
        previous_status: 29,
        orders: [{ order: { status_id: 2, status: 'AT_WAREHOUSE', status_name: 'received at warehouse' } }],
        files: [{ tracking_event_status_id: 29 }],
        status: 33,
        parcel_count: 43,
      }),
    );
  });

  test('price_details lose the carrier entries, also in arrays and nested orders', () => {
    const payload = envelope('order.created', {
      orders: [
        { price_details: [{ third_party_cost_plus: 1, fee: 2 }, { third_party_partial_delivery_deduction: 3 }] },
      ],
    });
    assert.deepEqual(shapeForRecipient(payload, held('order.created'), customer).data, {
      orders: [{ price_details: [{ fee: 2 }, {}] }],
    });
  });

  test('tracking.event: entries lose carrier places and get the generic status description', () => {
    const payload = envelope('tracking.event', {
      tracking_number: 'TMS000042',
      recipient: { city: 'Toronto', postal_code: 'M5V 1A1' },
      events: [
        {
          status_id: 43,
          description: 'Departed Carrier X hub, MEMPHIS TN',
          location: 'Memphis',
          city: 'Memphis',
          latitude: 35.1,
          longitude: -90,
          at: '2026-01-01',
        },
        { status_id: 3, description: 'Delivered, left at front door in Toronto', city: 'Toronto' },
        { description: 'Label created by Carrier X in Ohio' },
      ],
    });
    assert.deepEqual(shapeForRecipient(payload, held('tracking.event'), customer).data, {
      tracking_number: 'TMS000042',
      // An address without a description is not a carrier-reported event and stays.
      recipient: { city: 'Toronto', postal_code: 'M5V 1A1' },
      events: [
        { status_id: 2, description: 'on the way (delivery started)', at: '2026-01-01' },
        { status_id: 3, description: 'delivery success' },
        { description: '' },
      ],
    });
  });

  test('order.cancel_failed: the carrier refusal code becomes ORDER_CANCEL_REFUSED', () => {
    const payload = envelope('order.cancel_failed', {
      order_id: 42,
      reason_code: 'CX-409-ALREADY-OUT',
      message: 'already out for delivery',
      code: 'E77',
    });
    assert.deepEqual(shapeForRecipient(payload, held('order.cancel_failed'), customer).data, {
      order_id: 42,
      reason_code: CANCEL_REFUSED_CODE,
      message: 'already out for delivery',
      code: CANCEL_REFUSED_CODE,
    });
    const noCode = envelope('order.cancel_failed', { order_id: 42 });
    assert.deepEqual(shapeForRecipient(noCode, held('order.cancel_failed'), customer), noCode);
  });

  test('nothing is masked for a merchant-level recipient or a shipment we carry', () => {
    for (const make of [
      statusChange,
      () => envelope('tracking.event', { events: [{ status_id: 43, description: 'Memphis', city: 'Memphis' }] }),
    ]) {
      const eventType = make().event as string;
      assert.deepEqual(shapeForRecipient(make(), held(eventType), merchant), make());
      assert.deepEqual(shapeForRecipient(make(), facts(eventType), customer), make());
    }
    const refusal = envelope('order.cancel_failed', { reason_code: 'CX-409' });
    assert.deepEqual(shapeForRecipient(refusal, held('order.cancel_failed'), merchant), refusal);
  });

  test('carrier masking and price hiding together', () => {
    const shaped = shapeForRecipient(statusChange(), held('order.status_change'), hidingLocal);
    const data = shaped.data as Record<string, unknown>;
    assert.equal(data.price_details, undefined);
    assert.equal(data.after_status, 2);
    assert.equal(data.operation_type, 6002);
    assert.equal(data.price_hidden, true);
  });
});

describe('purity and totality', () => {
  test('the input is never mutated', () => {
    const inputs = [pricedOrder(), statusChange()];
    const copies = inputs.map((input) => structuredClone(input));
    shapeForRecipient(inputs[0]!, held('order.status_change'), hidingLocal);
    shapeForRecipient(inputs[1]!, held('order.status_change'), hidingLocal);
    assert.deepEqual(inputs, copies);
  });

  test('a shaped result shares no objects with the input; a payload nothing applies to comes back as it is', () => {
    const input = envelope('order.status_change', { nested: { list: [{ a: 1 }] }, shipping_price: 5 });
    const shaped = shapeForRecipient(input, facts('order.status_change'), hidingLocal);
    (shaped.data as any).nested.list[0].a = 2;
    assert.equal((input.data as any).nested.list[0].a, 1);
    const untouched = envelope('order.deleted', { nested: { list: [{ a: 1 }] } });
    assert.equal(shapeForRecipient(untouched, facts('order.deleted'), merchant), untouched);
  });

  test('an unrelated payload comes back deep-equal and serialises to the same bytes', () => {
    const payload = envelope('device_order.stored', {
      device_order: {
        id: 9,
        status: 'stored',
        grid_code: 'A1',
        pickup_code: '123456',
        tags: ['x', null, 1.5, { deep: [true] }],
      },
    });
    for (const [eventFacts, recipient] of [
      [facts('device_order.stored', { family: 'device_orders' }), merchant],
      [held('device_order.stored'), customer],
      [facts('some.future_event', { family: null, carrierHeld: true }), hidingLocal],
    ] as [EventFacts, Recipient][]) {
      const shaped = shapeForRecipient(payload, eventFacts, recipient);
      assert.deepEqual(shaped, payload);
      assert.equal(JSON.stringify(shaped), JSON.stringify(payload));
    }
  });

  test('non-object data and odd values pass through', () => {
    const payload = { event: 'order.status_change', data: [1, 'CARRIER_ON_THE_WAY_X', null], operation_type: '6007' };
    assert.deepEqual(shapeForRecipient(payload, held('order.status_change'), customer), payload);
  });
});
