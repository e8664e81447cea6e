// Edits and holds over real HTTP (docs/orders.md, "Edits and holds"): each edit, each refusal with its reason in the
// caller's language, the audit-trail rows, order.status_change of a hold and a release at a real receiver (checked
// against AsyncAPI), a held order out of the planning pool and refused by contractors and providers, 404 across
// businesses, and confirmation of the high-risk MCP tools.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { ORDER_STATUS } from '../../../src/modules/orders/index.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { eventDefinition } from '../../helpers/events.ts';
import { makeBusiness, makeOrder, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';
import { callTool } from '../../helpers/mcp.ts';

const ajv = new Ajv({ strict: false });
formats.default(ajv);

const SECRET = 'edits-test-secret-0123456789abcdef';

interface TrailRow {
  operation_type: number;
  before_status: number | null;
  after_status: number | null;
  actor_id: number | null;
  actor_role: string | null;
  source: string;
  details: Record<string, any>;
}

describe('order edits and holds', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let employee: string;
  let customer: string;
  let otherAdmin: string;
  let provider: Awaited<ReturnType<typeof makeProvider>>;

  before(async () => {
    app = await startApp();
    receiver = await startReceiver();
    b = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    employee = await app.login(b.users.employee.email, PASSWORD);
    customer = await app.login(b.users.customer.email, PASSWORD);
    const other = await makeBusiness(app.em());
    otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    provider = await makeProvider(app.em(), 'delivery_provider');
    const put = await app.http.put(
      '/v1/webhook-settings',
      { webhook_sign_secret: SECRET, order_status_change_webhook_url: `${receiver.url}/status` },
      { token: admin },
    );
    assert.equal(put.status, 200, JSON.stringify(put.body));
  });
  after(async () => {
    await app.running.close();
    await receiver.close();
  });

  const order = (over: Parameters<typeof makeOrder>[2] = {}) => makeOrder(app.em(), b.business.id, over);
  const trail = (orderId: number, operationType: number) =>
    app
      .em()
      .execute<TrailRow[]>(
        'select operation_type, before_status, after_status, actor_id, actor_role, source, details from order_operation_event where order_id = ? and operation_type = ? order by id',
        [orderId, operationType],
      );
  const statusOf = async (id: number) =>
    (await app.http.get(`/v1/orders/${id}`, { token: admin })).body.order.status_id as number;
  const inPool = async (id: number) =>
    (await app.http.get('/v1/planning/orders', { token: admin })).body.orders.some((o: { id: number }) => o.id === id);

  /** The order.status_change the receiver got for this order into `after`, checked against its AsyncAPI schema. */
  const statusEvent = async (orderId: number, after: number): Promise<any> => {
    const found = await waitFor(async () =>
      receiver.received
        .filter((r) => r.url === '/status')
        .map((r) => JSON.parse(r.body))
        .find((e) => e.event === 'order.status_change' && e.data.order.id === orderId && e.data.after_status === after),
    );
    const validate = ajv.compile(eventDefinition('order.status_change')!.payload);
    assert.ok(validate(found), `order.status_change matches its schema: ${ajv.errorsText(validate.errors)}`);
    return found;
  };

  test('the delivery instruction and the note change while the order waits, each with its trail row', async () => {
    const o = await order();
    const set = await app.http.put(
      `/v1/orders/${o.id}/delivery-instruction`,
      { delivery_instruction: 'Gate code 4711, leave with the concierge' },
      { token: employee },
    );
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(
      [set.body.changed, set.body.order.delivery_instruction],
      [true, 'Gate code 4711, leave with the concierge'],
    );
    const again = await app.http.put(
      `/v1/orders/${o.id}/delivery-instruction`,
      { delivery_instruction: 'Gate code 4711, leave with the concierge' },
      { token: employee },
    );
    assert.equal(again.body.changed, false, 'the same value again writes nothing');
    const cleared = await app.http.put(
      `/v1/orders/${o.id}/delivery-instruction`,
      { delivery_instruction: null },
      { token: admin },
    );
    assert.equal(cleared.body.order.delivery_instruction, null);
    const rows = await trail(o.id, 3011);
    assert.deepEqual(
      rows.map((r) => [r.details.old, r.details.new, r.actor_id, r.actor_role, r.source]),
      [
        [null, 'Gate code 4711, leave with the concierge', b.users.employee.id, 'employee', 'api'],
        ['Gate code 4711, leave with the concierge', null, b.users.admin.id, 'client_admin', 'api'],
      ],
    );

    const note = await app.http.put(`/v1/orders/${o.id}/note`, { note: 'fragile: glass' }, { token: admin });
    assert.equal(note.status, 200, JSON.stringify(note.body));
    assert.equal(note.body.order.note, 'fragile: glass');
    assert.equal((await app.http.get(`/v1/orders/${o.id}`, { token: admin })).body.order.note, 'fragile: glass');
    const [noteRow] = await trail(o.id, 3012);
    assert.deepEqual(
      [noteRow!.details.field, noteRow!.details.old, noteRow!.details.new],
      ['note', null, 'fragile: glass'],
    );

    const empty = await app.http.put(`/v1/orders/${o.id}/note`, { note: '  ' }, { token: admin });
    assert.equal(empty.status, 422, 'an empty text is not a value: null clears');
  });

  test('once out for delivery, delivered, cancelled or with a provider, each edit is refused with its reason', async () => {
    const cases = [
      [ORDER_STATUS.ON_THE_WAY, {}, /out with its driver or carrier/],
      [ORDER_STATUS.PICKUP_STARTED, {}, /out with its driver or carrier/],
      [ORDER_STATUS.DELIVERED, {}, /has been delivered/],
      [ORDER_STATUS.CANCELLED, {}, /is cancelled/],
      [ORDER_STATUS.INTERCEPTED, {}, /is intercepted/],
      [ORDER_STATUS.NEW_ORDER, { carrierProviderId: provider.business.id, selfDelivery: false }, /delivery provider/],
    ] as const;
    for (const [statusId, over, reason] of cases) {
      const o = await order({ statusId, ...over });
      for (const [path, body] of [
        ['delivery-instruction', { delivery_instruction: 'back door' }],
        ['note', { note: 'late' }],
      ] as const) {
        const res = await app.http.put(`/v1/orders/${o.id}/${path}`, body, { token: admin });
        assert.deepEqual([res.status, res.body.code], [409, 'ORDER_NOT_EDITABLE'], `${statusId} ${path}`);
        assert.match(res.body.message, reason);
      }
      assert.equal((await trail(o.id, 3011)).length + (await trail(o.id, 3012)).length, 0, 'nothing written');
    }
    const out = await order({ statusId: ORDER_STATUS.ON_THE_WAY });
    const fr = await app.http.put(`/v1/orders/${out.id}/note`, { note: 'x' }, { token: admin, lang: 'fr' });
    assert.equal(fr.body.code, 'ORDER_NOT_EDITABLE');
    assert.match(fr.body.message, /déjà partie avec son livreur/);
  });

  test('time windows by order_ref: a result per ref, unknown refs and refused orders reported, one trail row each', async () => {
    const tag = b.tag;
    const waiting = await order({ orderRef: `TW-A-${tag}` });
    const twinOne = await order({ orderRef: `TW-B-${tag}` });
    const twinTwo = await order({ orderRef: `TW-B-${tag}`, statusId: ORDER_STATUS.AT_WAREHOUSE });
    const out = await order({ orderRef: `TW-C-${tag}`, statusId: ORDER_STATUS.ON_THE_WAY });
    const delivered = await order({ orderRef: `TW-D-${tag}`, statusId: ORDER_STATUS.DELIVERED });
    const window = { start: '2026-12-24T14:00:00+01:00', end: '2026-12-24T16:00:00+01:00' };
    const refs = [`TW-A-${tag}`, `TW-B-${tag}`, `TW-C-${tag}`, `TW-D-${tag}`, `TW-NOPE-${tag}`, `TW-A-${tag}`];
    const res = await app.http.post(
      '/v1/orders/time-window-by-refs',
      { order_refs: refs, time_window: window },
      { token: admin, lang: 'de' },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.result, res.body.updated, res.body.skipped], [true, 3, 3]);
    assert.deepEqual(
      res.body.orders.map((r: { order_id: number; changed: boolean }) => [r.order_id, r.changed]).sort(),
      [
        [waiting.id, true],
        [twinOne.id, true],
        [twinTwo.id, true],
      ].sort(),
    );
    const errors = Object.fromEntries(
      res.body.errors.map((e: { order_ref: string; order_id: number | null; reason: string; message: string }) => [
        e.order_ref,
        [e.order_id, e.reason, e.message],
      ]),
    );
    assert.deepEqual(errors[`TW-NOPE-${tag}`], [null, 'unknown_ref', 'Keiner Ihrer Aufträge hat diese Referenz.']);
    assert.deepEqual(errors[`TW-C-${tag}`].slice(0, 2), [out.id, 'out_for_delivery']);
    assert.match(errors[`TW-C-${tag}`][2], /bereits mit seinem Fahrer/);
    assert.deepEqual(errors[`TW-D-${tag}`].slice(0, 2), [delivered.id, 'delivered']);

    const read = (await app.http.get(`/v1/orders/${twinTwo.id}`, { token: admin })).body.order;
    assert.deepEqual(read.time_window, { start: '2026-12-24T13:00:00.000Z', end: '2026-12-24T15:00:00.000Z' });
    const [row] = await trail(waiting.id, 3013);
    assert.deepEqual([row!.details.old, row!.details.new], [null, read.time_window]);
    assert.equal((await trail(out.id, 3013)).length, 0);

    const same = await app.http.post(
      '/v1/orders/time-window-by-refs',
      { order_refs: [`TW-A-${tag}`], time_window: window },
      { token: admin },
    );
    assert.deepEqual(same.body.orders, [{ order_ref: `TW-A-${tag}`, order_id: waiting.id, changed: false }]);
    const cleared = await app.http.post(
      '/v1/orders/time-window-by-refs',
      { order_refs: [`TW-A-${tag}`], time_window: null },
      { token: admin },
    );
    assert.equal(cleared.body.updated, 1);
    assert.equal((await trail(waiting.id, 3013)).length, 2, 'the unchanged call wrote no row, the clearing one did');

    const none = await app.http.post(
      '/v1/orders/time-window-by-refs',
      { order_refs: [`TW-NOPE-${tag}`], time_window: null },
      { token: admin },
    );
    assert.deepEqual([none.status, none.body.result, none.body.updated], [200, false, 0]);
    const reversed = await app.http.post(
      '/v1/orders/time-window-by-refs',
      { order_refs: [`TW-A-${tag}`], time_window: { start: window.end, end: window.start } },
      { token: admin },
    );
    assert.deepEqual(
      [reversed.status, reversed.body.errors?.[0]?.field],
      [422, 'time_window.end'],
      JSON.stringify(reversed.body),
    );
    const otherBusiness = await app.http.post(
      '/v1/orders/time-window-by-refs',
      { order_refs: [`TW-A-${tag}`], time_window: window },
      { token: otherAdmin },
    );
    assert.deepEqual([otherBusiness.body.updated, otherBusiness.body.errors[0].reason], [0, 'unknown_ref']);
  });

  test('reroute: a new address while the order is under way, refused once delivered or cancelled; the trail keeps both', async () => {
    const address = { line1: '5 Rue Neuve', city: 'Lyon', postal_code: '69001', country: 'fr' };
    const out = await order({ statusId: ORDER_STATUS.ON_THE_WAY });
    const res = await app.http.post(
      `/v1/orders/${out.id}/reroute`,
      { address, reason: 'recipient moved' },
      { token: admin },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      [res.body.order.recipient.address.line1, res.body.order.recipient.address.country, res.body.order.recipient.name],
      ['5 Rue Neuve', 'FR', 'Ada Recipient'],
    );
    const [row] = await trail(out.id, 3014);
    assert.deepEqual(row!.details.old, { line1: '1 Main St', city: 'Paris', postal_code: '75001', country: 'FR' });
    assert.deepEqual(
      [row!.details.new.line1, row!.details.new.city, row!.details.new.country, row!.details.reason],
      ['5 Rue Neuve', 'Lyon', 'FR', 'recipient moved'],
    );
    for (const [statusId, reason] of [
      [ORDER_STATUS.DELIVERED, /livrée/],
      [ORDER_STATUS.CANCELLED, /annulée/],
    ] as const) {
      const done = await order({ statusId });
      const refused = await app.http.post(`/v1/orders/${done.id}/reroute`, { address }, { token: admin, lang: 'fr' });
      assert.deepEqual([refused.status, refused.body.code], [409, 'ORDER_NOT_EDITABLE']);
      assert.match(refused.body.message, reason);
      assert.equal((await trail(done.id, 3014)).length, 0);
    }
    const byCustomer = await app.http.post(`/v1/orders/${out.id}/reroute`, { address }, { token: customer });
    assert.equal(byCustomer.status, 403, 'a new address is the business staff decision');
  });

  test('hold and release: order.status_change 3031 and 3032, out of the pool and refused by contractors and providers meanwhile', async () => {
    const o = await order();
    assert.equal(await inPool(o.id), true);
    const held = await app.http.post(`/v1/orders/${o.id}/hold`, { reason: 'address check' }, { token: admin });
    assert.equal(held.status, 200, JSON.stringify(held.body));
    assert.deepEqual([held.body.order.status_id, held.body.order.status], [8, 'HOLD']);
    const heldEvent = await statusEvent(o.id, 8);
    assert.deepEqual(
      [heldEvent.data.before_status, heldEvent.data.operation_type, heldEvent.data.order.status_id],
      [1, 3031, 8],
    );
    const [heldRow] = await trail(o.id, 3031);
    assert.deepEqual(
      [heldRow!.before_status, heldRow!.after_status, heldRow!.actor_id, heldRow!.details.reason],
      [1, 8, b.users.admin.id, 'address check'],
    );

    assert.equal(await inPool(o.id), false, 'a held order is in no planning pool');
    const contractor = await app.http.post(
      '/v1/broker-order-assignments',
      { broker_id: b.users.broker.id, order_ids: [o.id] },
      { token: admin },
    );
    assert.deepEqual(
      [contractor.status, contractor.body.assigned, contractor.body.errors[0]?.order_id],
      [200, 0, o.id],
      JSON.stringify(contractor.body),
    );
    assert.match(contractor.body.errors[0].message, /not in an assignable status/);
    const toProvider = await app.http.post(
      '/v1/third-party-assignments',
      { order_id: o.id, provider_code: provider.business.code },
      { token: admin },
    );
    assert.equal(toProvider.body.code, 'ORDER_NOT_ASSIGNABLE', JSON.stringify(toProvider.body));
    const brokerPool = await app.login(b.users.broker.email, PASSWORD);
    assert.ok(
      !(await app.http.get('/v1/planning/orders', { token: brokerPool })).body.orders.some(
        (x: { id: number }) => x.id === o.id,
      ),
    );

    const instruction = await app.http.put(
      `/v1/orders/${o.id}/delivery-instruction`,
      { delivery_instruction: 'call first' },
      { token: admin },
    );
    assert.equal(instruction.status, 200, 'a held order waits: what the driver will be told can still change');
    const twice = await app.http.post(`/v1/orders/${o.id}/hold`, {}, { token: admin });
    assert.deepEqual(
      [twice.status, twice.body.code, twice.body.message],
      [409, 'ORDER_NOT_HOLDABLE', 'The order is already on hold.'],
    );

    const released = await app.http.post(`/v1/orders/${o.id}/release`, {}, { token: employee });
    assert.equal(released.status, 200, JSON.stringify(released.body));
    assert.equal(released.body.order.status, 'NEW_ORDER');
    const releasedEvent = await statusEvent(o.id, 1);
    assert.deepEqual([releasedEvent.data.before_status, releasedEvent.data.operation_type], [8, 3032]);
    assert.equal((await trail(o.id, 3032)).length, 1);
    assert.equal(await inPool(o.id), true, 'released, it is planned again');
    const again = await app.http.post(`/v1/orders/${o.id}/release`, {}, { token: admin, lang: 'es' });
    assert.deepEqual(
      [again.status, again.body.code, again.body.message],
      [409, 'ORDER_NOT_HELD', 'El pedido no está retenido.'],
    );
  });

  test('two holds of one order at once: the row lock lets one win, the other is refused; one status change, one trail row', async () => {
    const o = await order();
    const answers = await Promise.all(
      [admin, employee].map((token) => app.http.post(`/v1/orders/${o.id}/hold`, {}, { token })),
    );
    assert.deepEqual(answers.map((a) => [a.status, a.body.code ?? null]).sort(), [
      [200, null],
      [409, 'ORDER_NOT_HOLDABLE'],
    ]);
    assert.equal((await trail(o.id, 3031)).length, 1);
    const [{ n }] = (await app
      .em()
      .execute('select count(*)::int as n from order_status_change where order_id = ? and operation_type = 3031', [
        o.id,
      ])) as [{ n: number }];
    assert.equal(n, 1);
  });

  test('holding a dispatched, routed or provider-carried order is refused with its reason, and nothing moves', async () => {
    const cases = [
      [{ statusId: ORDER_STATUS.ON_THE_WAY }, 'de', /bereits mit seinem Fahrer/],
      [{ statusId: ORDER_STATUS.PICKED_UP }, 'en', /out with its driver or carrier/],
      [{ statusId: ORDER_STATUS.DELIVERED }, 'en', /has been delivered/],
      [{ routeId: 7 }, 'en', /on a route/],
      [{ carrierProviderId: provider.business.id, selfDelivery: false }, 'en', /delivery provider/],
    ] as const;
    for (const [over, lang, reason] of cases) {
      const o = await order(over);
      const before = await statusOf(o.id);
      const res = await app.http.post(`/v1/orders/${o.id}/hold`, {}, { token: admin, lang });
      assert.deepEqual([res.status, res.body.code], [409, 'ORDER_NOT_HOLDABLE'], JSON.stringify(over));
      assert.match(res.body.message, reason);
      assert.equal(await statusOf(o.id), before);
      assert.equal((await trail(o.id, 3031)).length, 0);
    }
  });

  test('a customer edits what the driver is told of its own orders only; another business gets 404 everywhere', async () => {
    const own = await order({ customerId: b.users.customer.id, orderRef: `CU-${b.tag}` });
    const notOwn = await order();
    const mine = await app.http.put(
      `/v1/orders/${own.id}/delivery-instruction`,
      { delivery_instruction: 'leave at the back door' },
      { token: customer },
    );
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    const [row] = await trail(own.id, 3011);
    assert.deepEqual([row!.actor_id, row!.actor_role], [b.users.customer.id, 'customer']);
    assert.equal((await app.http.put(`/v1/orders/${own.id}/note`, { note: 'mine' }, { token: customer })).status, 200);
    assert.equal(
      (await app.http.put(`/v1/orders/${notOwn.id}/note`, { note: 'not mine' }, { token: customer })).status,
      404,
    );
    assert.equal((await app.http.post(`/v1/orders/${own.id}/hold`, {}, { token: customer })).status, 403);

    const address = { line1: '1 Elsewhere', city: 'Nice', postal_code: '06000', country: 'FR' };
    for (const [method, path, body] of [
      ['put', `/v1/orders/${own.id}/delivery-instruction`, { delivery_instruction: 'x' }],
      ['put', `/v1/orders/${own.id}/note`, { note: 'x' }],
      ['post', `/v1/orders/${own.id}/reroute`, { address }],
      ['post', `/v1/orders/${own.id}/hold`, {}],
      ['post', `/v1/orders/${own.id}/release`, {}],
    ] as const) {
      const res = await app.http[method](path, body, { token: otherAdmin });
      assert.deepEqual([res.status, res.body.code], [404, 'NOT_FOUND'], path);
    }
    assert.equal(await statusOf(own.id), ORDER_STATUS.NEW_ORDER);
  });

  test('MCP: the high-risk tools do nothing without confirm: true; the medium ones run at once', async () => {
    const call = (name: string, args: Record<string, unknown>) => callTool(app.url, admin, name, args);
    const o = await order();
    const address = { line1: '9 Quai Sud', city: 'Lille', postal_code: '59000', country: 'FR' };
    for (const [name, args] of [
      ['hold_order', { id: o.id }],
      ['reroute_to_address', { id: o.id, address }],
    ] as const) {
      const unconfirmed = await call(name, args);
      assert.deepEqual([unconfirmed.isError, unconfirmed.body.code], [true, 'CONFIRMATION_REQUIRED'], name);
    }
    assert.equal(await statusOf(o.id), ORDER_STATUS.NEW_ORDER, 'nothing was held');
    assert.equal((await trail(o.id, 3014)).length, 0, 'nothing was rerouted');

    const held = await call('hold_order', { id: o.id, confirm: true });
    assert.equal(held.isError, false, JSON.stringify(held.body));
    assert.equal(held.body.order.status, 'HOLD');
    const [row] = await trail(o.id, 3031);
    assert.equal(row!.source, 'mcp', 'the trail says the change came from an agent');
    assert.equal((await call('release_order', { id: o.id })).body.code, 'CONFIRMATION_REQUIRED');
    assert.equal((await call('release_order', { id: o.id, confirm: true })).body.order.status, 'NEW_ORDER');
    const rerouted = await call('reroute_to_address', { id: o.id, address, confirm: true });
    assert.equal(rerouted.body.order.recipient.address.city, 'Lille');

    const note = await call('update_order_note', { id: o.id, note: 'from the agent' });
    assert.deepEqual([note.isError, note.body.order.note], [false, 'from the agent']);
    const instruction = await call('update_delivery_instruction', { id: o.id, delivery_instruction: 'ring' });
    assert.equal(instruction.body.order.delivery_instruction, 'ring');
    const windows = await call('update_time_window_by_refs', { order_refs: [o.orderRef], time_window: null });
    assert.equal(windows.body.updated, 1);
  });

  test('GraphQL carries the same edit', async () => {
    const o = await order();
    const res = await app.http.graphql(
      `mutation { updateOrderNote(id: ${o.id}, note: "via graphql") { changed order { note } } }`,
      {},
      { token: admin },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.data?.updateOrderNote,
      { changed: true, order: { note: 'via graphql' } },
      JSON.stringify(res.body),
    );
  });
  test('a hold that commits while a provider assignment waits for the order wins: the assignment is refused', async () => {
    const o = await order();
    let settled = false;
    let answer: Promise<{ status: number; body: { code?: string } }> | undefined;
    // Another transaction (a hold being written) holds the order's row while the assignment is written.
    await app.em().transactional(async (tx) => {
      await tx.execute('select id from delivery_order where id = ? for update', [o.id]);
      answer = app.http.post(
        '/v1/third-party-assignments',
        { order_id: o.id, provider_code: provider.business.code },
        { token: admin },
      );
      void answer.finally(() => (settled = true));
      await waitFor(
        async () =>
          settled ||
          (
            await app
              .em()
              .execute<{ n: number }[]>(
                "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
              )
          )[0]!.n > 0,
      );
      await tx.execute('update delivery_order set status_id = ? where id = ?', [ORDER_STATUS.HOLD, o.id]);
    });
    const res = await answer!;
    assert.deepEqual([res.status, res.body.code], [409, 'ORDER_NOT_ASSIGNABLE'], JSON.stringify(res.body));
    const [row] = await app
      .em()
      .execute<{ n: number; provider: number | null }[]>(
        'select (select count(*)::int from third_party_assignment where order_id = o.id) as n, o.carrier_provider_id as provider from delivery_order o where o.id = ?',
        [o.id],
      );
    assert.deepEqual([row!.n, row!.provider], [0, null]);
  });
});
