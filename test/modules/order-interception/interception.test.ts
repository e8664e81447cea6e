// Order interception over real HTTP, the suite's Temporal and real receivers (docs/orders.md, "Interception"): each
// path (in effect -> held by a warehouse scan -> outcome executed; a customer's redelivery held by its carrier's event;
// withdrawn; rejected; failed at its deadline), each step's order.intercept.* event at the merchant's and the
// customer's receivers checked against its AsyncAPI schema, the status changes with their operation types and the
// audit trail, the process found in Temporal by business, order and status, and 404 for another customer's or
// another business's order.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { ORDER_STATUS } from '../../../src/modules/orders/index.ts';
import { heldSignal, interceptionWorkflowId } from '../../../src/modules/order-interception/contract.ts';
import { tellInterceptionOfWarehouse } from '../../../src/modules/order-interception/hooks.ts';
import type { orderInterceptionWorkflow } from '../../../src/modules/order-interception/workflows.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { eventDefinition } from '../../helpers/events.ts';
import { makeBusiness, makeOrder, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';

const ajv = new Ajv({ strict: false });
formats.default(ajv);

const SECRET = 'interception-test-secret-0123456789';
/** 72 hours to be held last about 15 s here. */
const TIMER_SCALE = '0.00006';

describe('order interception', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let employee: string;
  let customer: string;
  let driver: string;
  let otherAdmin: string;
  let otherCustomer: string;
  let otherBusinessId: number;
  let carrier: Awaited<ReturnType<typeof makeProvider>>;
  let carrierKey: string;
  const warehouse = `WH-${Date.now().toString(36).toUpperCase()}`;

  before(async () => {
    app = await startApp({ INTERCEPTION_TIMER_SCALE: TIMER_SCALE });
    receiver = await startReceiver();
    b = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    employee = await app.login(b.users.employee.email, PASSWORD);
    customer = await app.login(b.users.customer.email, PASSWORD);
    driver = await app.login(b.users.driver.email, PASSWORD);
    const other = await makeBusiness(app.em());
    otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    otherCustomer = await app.login(other.users.customer.email, PASSWORD);
    otherBusinessId = other.business.id;
    const merchant = await app.http.put(
      '/v1/webhook-settings',
      {
        webhook_sign_secret: SECRET,
        order_intercept_webhook_url: `${receiver.url}/merchant`,
        order_status_change_webhook_url: `${receiver.url}/status`,
      },
      { token: admin },
    );
    assert.equal(merchant.status, 200, JSON.stringify(merchant.body));
    // The customer sets its own override: it hears of the interceptions of its own orders only.
    const own = await app.http.put(
      '/v1/webhook-settings',
      { webhook_sign_secret: SECRET, order_intercept_webhook_url: `${receiver.url}/customer` },
      { token: customer },
    );
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.settings.customer_id, b.users.customer.id);
    const beyond = await app.http.put(
      '/v1/webhook-settings',
      { order_create_webhook_url: `${receiver.url}/customer` },
      { token: customer },
    );
    assert.deepEqual([beyond.status, beyond.body.errors?.[0]?.field], [422, 'order_create_webhook_url']);
    const elsewhere = await app.http.put(
      '/v1/webhook-settings',
      { customer_id: other.users.customer.id, order_intercept_webhook_url: `${receiver.url}/customer` },
      { token: customer },
    );
    assert.deepEqual([elsewhere.status, elsewhere.body.errors?.[0]?.field], [422, 'customer_id']);
    const place = await app.http.post(
      '/v1/places',
      { name: 'Main warehouse', kind: 'warehouse', code: warehouse },
      { token: admin },
    );
    assert.equal(place.status, 201, JSON.stringify(place.body));
    carrier = await makeProvider(app.em(), 'delivery_provider');
    const carrierToken = await app.login(carrier.user.email, PASSWORD);
    carrierKey = (await app.http.post('/v1/otep/credentials', { name: 'tracking' }, { token: carrierToken })).body
      .credential.secret;
  });
  after(async () => {
    await app.running.close();
    await receiver.close();
  });

  const order = (over: Parameters<typeof makeOrder>[2] = {}) => makeOrder(app.em(), b.business.id, over);
  const request = (token: string, id: number, body: Record<string, unknown>) =>
    app.http.post(`/v1/orders/${id}/interception`, body, { token });
  const act = (token: string, id: number, step: 'withdraw' | 'execute') =>
    app.http.post(`/v1/orders/${id}/interception/${step}`, {}, { token });
  const get = (token: string, id: number) => app.http.get(`/v1/orders/${id}/interception`, { token });
  const statusOf = async (id: number) =>
    (await app.em().execute<{ status_id: number }[]>('select status_id from delivery_order where id = ?', [id]))[0]!
      .status_id;
  const trail = async (id: number) =>
    (
      await app
        .em()
        .execute<{ operation_type: number; before_status: number | null; after_status: number | null; details: any }[]>(
          'select operation_type, before_status, after_status, details from order_operation_event where order_id = ? order by id',
          [id],
        )
    ).map((r) => [r.operation_type, r.before_status, r.after_status, r.details.step ?? null]);

  const bodies = (path: string) =>
    receiver.received.filter((r) => r.url === path).map((r) => JSON.parse(r.body) as Record<string, any>);
  /** The order.intercept.<step> event this receiver path got for the order, checked against its AsyncAPI schema. */
  const interceptEvent = async (path: string, orderId: number, step: string) => {
    const found = await waitFor(async () =>
      bodies(path).find((e) => e.event === `order.intercept.${step}` && e.data.order.id === orderId),
    );
    const validate = ajv.compile(eventDefinition(`order.intercept.${step}`)!.payload);
    assert.ok(validate(found), `order.intercept.${step} matches its schema: ${ajv.errorsText(validate.errors)}`);
    return found;
  };
  const statusEvent = async (orderId: number, after: number) => {
    const found = await waitFor(async () =>
      bodies('/status').find(
        (e) => e.event === 'order.status_change' && e.data.order.id === orderId && e.data.after_status === after,
      ),
    );
    const validate = ajv.compile(eventDefinition('order.status_change')!.payload);
    assert.ok(validate(found), `order.status_change matches its schema: ${ajv.errorsText(validate.errors)}`);
    return found;
  };
  const stateOf = async (id: number) => (await get(admin, id)).body.interception?.state as string | undefined;
  const handle = (orderId: number) =>
    app.running.temporal.workflow.getHandle<typeof orderInterceptionWorkflow>(interceptionWorkflowId(orderId));
  /** The workflow ids Temporal's visibility finds for the query (eventually consistent, so polled). */
  const found = (query: string, workflowId: string) =>
    waitFor(async () => {
      for await (const w of app.running.temporal.workflow.list({ query })) if (w.workflowId === workflowId) return true;
      return false;
    });

  test('back office: in effect (48, 3043), held by a warehouse scan, outcome executed (15, 3044)', async () => {
    const o = await order({ statusId: ORDER_STATUS.ON_THE_WAY });
    const res = await request(employee, o.id, { outcome: 'return_to_sender', reason: 'The buyer cancelled' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(
      [
        res.body.interception.state,
        res.body.interception.requested_via,
        res.body.interception.status_before,
        res.body.interception.status_after,
        res.body.interception.workflow_id,
      ],
      ['in_effect', 'back_office', ORDER_STATUS.ON_THE_WAY, 48, interceptionWorkflowId(o.id)],
    );
    assert.equal(await statusOf(o.id), 48);
    const into = await statusEvent(o.id, 48);
    assert.deepEqual([into.data.before_status, into.data.operation_type], [ORDER_STATUS.ON_THE_WAY, 3043]);
    const requested = await interceptEvent('/merchant', o.id, 'requested');
    assert.deepEqual(
      [requested.event_id, requested.data.interception.outcome, requested.data.interception.reason],
      [`ICP-${res.body.interception.id}.requested`, 'return_to_sender', 'The buyer cancelled'],
    );
    assert.equal((await interceptEvent('/merchant', o.id, 'in_effect')).data.operation_type, 3043);

    // The order's snapshot shows its open process.
    const snapshot = await app.http.get(`/v1/orders/${o.id}/snapshot`, { token: admin });
    assert.deepEqual(
      snapshot.body.processes
        .filter((p: { type: string }) => p.type === 'order-interception')
        .map((p: { state: string; workflow_id: string }) => [p.state, p.workflow_id]),
      [['in_effect', interceptionWorkflowId(o.id)]],
    );
    // Not held yet: the outcome waits.
    const early = await act(admin, o.id, 'execute');
    assert.deepEqual([early.status, early.body.code], [409, 'INTERCEPTION_NOT_HELD']);

    const scan = await app.http.post(
      '/v1/distribution/scans',
      {
        package_number: o.trackingNumber,
        action: 'received',
        location: warehouse,
        scanned_at: new Date().toISOString(),
      },
      { token: employee },
    );
    assert.equal(scan.status, 200, JSON.stringify(scan.body));
    await waitFor(async () => (await stateOf(o.id)) === 'held_at_warehouse');
    const held = await interceptEvent('/merchant', o.id, 'held_at_warehouse');
    assert.deepEqual(
      [held.data.interception.held_at.place, held.data.interception.held_at.source],
      [warehouse, 'scan'],
    );
    assert.equal(await statusOf(o.id), 48, 'held, the order stays intercepted');

    const done = await act(admin, o.id, 'execute');
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual(
      [done.body.interception.state, done.body.interception.status_after],
      ['outcome_executed', ORDER_STATUS.RETURNED_TO_SENDER],
    );
    assert.equal(await statusOf(o.id), ORDER_STATUS.RETURNED_TO_SENDER);
    assert.equal((await statusEvent(o.id, ORDER_STATUS.RETURNED_TO_SENDER)).data.operation_type, 3044);
    assert.equal((await interceptEvent('/merchant', o.id, 'outcome_executed')).data.operation_type, 3044);
    assert.deepEqual(await trail(o.id), [
      [1001, null, ORDER_STATUS.ON_THE_WAY, null],
      [3046, ORDER_STATUS.ON_THE_WAY, ORDER_STATUS.ON_THE_WAY, 'requested'],
      [3043, ORDER_STATUS.ON_THE_WAY, 48, 'in_effect'],
      [3046, 48, 48, 'held_at_warehouse'],
      [3044, 48, ORDER_STATUS.RETURNED_TO_SENDER, 'outcome_executed'],
    ]);
    assert.equal((await handle(o.id).result()).state, 'outcome_executed');
    // The process is found by business, order and status.
    await found(
      `BusinessId = ${b.business.id} AND OrderId = ${o.id} AND InterceptionStatus = "outcome_executed"`,
      interceptionWorkflowId(o.id),
    );

    const again = await act(admin, o.id, 'execute');
    assert.deepEqual([again.status, again.body.code], [409, 'INVALID_TRANSITION']);
    // Returned to the sender: a new request is rejected.
    const late = await request(admin, o.id, { outcome: 'return_to_sender' });
    assert.deepEqual([late.status, late.body.interception.state], [201, 'rejected']);
    assert.equal(late.body.interception.end_reason, 'returned_to_sender');
    // The merchant-level receiver heard it; the customer's override did not (not its order).
    assert.equal(
      bodies('/customer').filter((e) => e.data.order.id === o.id).length,
      0,
      "the customer hears of no other customer's order",
    );
  });

  /**
   * What a provider assignment that committed after the request judged the order free leaves (the assignment checks
   * the status before its own transaction): the order in 48, held by a delivery provider.
   */
  const heldByCarrierMeanwhile = (id: number) =>
    app
      .em()
      .execute('update delivery_order set carrier_provider_id = ?, self_delivery = false where id = ?', [
        carrier.business.id,
        id,
      ]);
  const carrierEvent = (id: number, trackingNumber: string, statusCode: string) =>
    app.http.post(
      '/v1/otep/ingest',
      {
        events: [
          {
            id: `${statusCode.split(':').at(-1)}-${id}`,
            subject: trackingNumber,
            occurred_at: new Date().toISOString(),
            status_code: statusCode,
            otep_version: '1.0.0',
          },
        ],
      },
      { token: carrierKey },
    );

  test("a customer's own order: redelivery requested (6012), held by its carrier's event, executed by staff (6013)", async () => {
    const o = await order({ statusId: ORDER_STATUS.ON_THE_WAY, customerId: b.users.customer.id });
    const address = { line1: '5 Rue Neuve', city: 'Lyon', postal_code: '69001', country: 'fr' };
    const missing = await request(customer, o.id, { outcome: 'redeliver' });
    assert.deepEqual([missing.status, missing.body.errors?.[0]?.field], [422, 'new_address']);
    const extra = await request(customer, o.id, { outcome: 'return_to_sender', new_address: address });
    assert.deepEqual([extra.status, extra.body.errors?.[0]?.field], [422, 'new_address']);

    const res = await request(customer, o.id, { outcome: 'redeliver', new_address: address });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(
      [res.body.interception.state, res.body.interception.requested_via, res.body.interception.new_address.country],
      ['in_effect', 'customer', 'FR'],
    );
    assert.equal(res.body.interception.workflow_id, null, 'a customer is not shown the workflow id');
    assert.equal((await statusEvent(o.id, 48)).data.operation_type, 6012);
    // The customer's override and the merchant's settings both receive its steps.
    assert.equal((await interceptEvent('/customer', o.id, 'in_effect')).data.operation_type, 6012);
    await interceptEvent('/merchant', o.id, 'requested');
    assert.equal((await get(customer, o.id)).body.interception.state, 'in_effect', 'the customer reads its own');

    // A provider took the order meanwhile; it reports the parcel received at its facility: held; the event does not
    // move 48.
    await heldByCarrierMeanwhile(o.id);
    const pushed = await carrierEvent(o.id, o.trackingNumber, 'otep:core:received_at_facility');
    assert.equal(pushed.body.accepted, 1, JSON.stringify(pushed.body));
    await waitFor(async () => (await stateOf(o.id)) === 'held_at_warehouse');
    const held = await interceptEvent('/customer', o.id, 'held_at_warehouse');
    assert.deepEqual([held.data.interception.held_at.source, held.data.interception.held_at.place], ['carrier', null]);
    assert.equal(await statusOf(o.id), 48);

    const byCustomer = await act(customer, o.id, 'execute');
    assert.equal(byCustomer.status, 403, 'only the staff carry out an outcome');
    const done = await act(employee, o.id, 'execute');
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(await statusOf(o.id), ORDER_STATUS.AT_WAREHOUSE);
    assert.equal((await statusEvent(o.id, ORDER_STATUS.AT_WAREHOUSE)).data.operation_type, 6013);
    assert.equal((await interceptEvent('/customer', o.id, 'outcome_executed')).data.operation_type, 6013);
    const shown = await app.http.get(`/v1/orders/${o.id}`, { token: admin });
    assert.deepEqual(
      [shown.body.order.recipient.address.line1, shown.body.order.recipient.address.city],
      ['5 Rue Neuve', 'Lyon'],
    );
    const [row] = await app
      .em()
      .execute<{ details: any }[]>(
        'select details from order_operation_event where order_id = ? and operation_type = 6013',
        [o.id],
      );
    assert.deepEqual([row!.details.old_address.line1, row!.details.new_address.line1], ['1 Main St', '5 Rue Neuve']);
  });

  test('an execute that comes right behind the held report waits for it to be recorded, and is carried out', async () => {
    // The read model says held as soon as the report is committed, a moment before the process has the answer: staff
    // who execute then are not refused as not held (the slow tier's replay test met that 409 on a loaded machine).
    const o = await order({ statusId: ORDER_STATUS.ON_THE_WAY });
    assert.equal((await request(admin, o.id, { outcome: 'return_to_sender' })).status, 201);
    await handle(o.id).signal(heldSignal, {
      packageNumber: o.trackingNumber,
      place: warehouse,
      source: 'carrier',
      occurredAt: new Date().toISOString(),
    });
    const executed = await act(admin, o.id, 'execute');
    assert.equal(executed.status, 200, JSON.stringify(executed.body));
    assert.deepEqual(
      [executed.body.interception.state, executed.body.interception.held_at?.source],
      ['outcome_executed', 'carrier'],
    );
    assert.equal(await statusOf(o.id), ORDER_STATUS.RETURNED_TO_SENDER);
  });

  test('withdrawn by the requester: back to the status before (3045 staff, 6014 customer)', async () => {
    const o = await order({ statusId: ORDER_STATUS.AT_WAREHOUSE });
    // At the warehouse already: held at once, no scan is to come.
    const first = await request(admin, o.id, { outcome: 'hold_at_warehouse' });
    assert.deepEqual(
      [first.status, first.body.interception.state, first.body.interception.held_at?.source],
      [201, 'held_at_warehouse', 'status'],
    );
    assert.equal(
      (await interceptEvent('/merchant', o.id, 'held_at_warehouse')).data.interception.held_at.source,
      'status',
    );
    // Not the customer's order: it does not exist for it.
    assert.equal((await act(customer, o.id, 'withdraw')).status, 404);
    const res = await act(admin, o.id, 'withdraw');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      [res.body.interception.state, res.body.interception.status_after],
      ['withdrawn', ORDER_STATUS.AT_WAREHOUSE],
    );
    assert.equal(await statusOf(o.id), ORDER_STATUS.AT_WAREHOUSE);
    assert.equal((await statusEvent(o.id, ORDER_STATUS.AT_WAREHOUSE)).data.operation_type, 3045);
    assert.equal((await interceptEvent('/merchant', o.id, 'withdrawn')).data.operation_type, 3045);
    const again = await act(admin, o.id, 'withdraw');
    assert.deepEqual([again.status, again.body.code], [409, 'INVALID_TRANSITION']);
    assert.equal((await handle(o.id).result()).state, 'withdrawn');

    // The same order again: a new run of the same workflow id.
    const second = await request(employee, o.id, { outcome: 'return_to_sender' });
    assert.deepEqual([second.status, second.body.interception.state], [201, 'held_at_warehouse']);
    assert.notEqual(second.body.interception.id, res.body.interception.id);
    assert.equal((await act(employee, o.id, 'withdraw')).status, 200);
    // Request and withdraw back to back: each request reaches the run after the one that is closing.
    const ids = new Set<number>();
    for (let i = 0; i < 4; i++) {
      const again = await request(employee, o.id, { outcome: 'return_to_sender' });
      assert.deepEqual(
        [again.status, again.body.interception.state],
        [201, 'held_at_warehouse'],
        JSON.stringify(again.body),
      );
      ids.add(again.body.interception.id);
      assert.equal((await act(employee, o.id, 'withdraw')).status, 200);
    }
    assert.equal(ids.size, 4);
    assert.equal(await statusOf(o.id), ORDER_STATUS.AT_WAREHOUSE);

    const mine = await order({ statusId: ORDER_STATUS.ON_THE_WAY, customerId: b.users.customer.id });
    assert.equal((await request(customer, mine.id, { outcome: 'hold_at_warehouse' })).status, 201);
    const withdrawn = await act(customer, mine.id, 'withdraw');
    assert.equal(withdrawn.status, 200, JSON.stringify(withdrawn.body));
    assert.equal(await statusOf(mine.id), ORDER_STATUS.ON_THE_WAY);
    assert.equal((await statusEvent(mine.id, ORDER_STATUS.ON_THE_WAY)).data.operation_type, 6014);
    assert.equal((await interceptEvent('/customer', mine.id, 'withdrawn')).data.operation_type, 6014);

    // A staff interception of the customer's order is not the customer's to withdraw.
    assert.equal((await request(admin, mine.id, { outcome: 'return_to_sender' })).status, 201);
    assert.equal((await act(customer, mine.id, 'withdraw')).status, 403);
    assert.equal((await act(admin, mine.id, 'withdraw')).status, 200);
  });

  test('rejected: delivered, not yet gone out, already intercepted; nothing moves', async () => {
    for (const [statusId, reason] of [
      [ORDER_STATUS.DELIVERED, 'delivered'],
      [ORDER_STATUS.NEW_ORDER, 'not_in_transit'],
      [ORDER_STATUS.CANCELLED, 'cancelled'],
    ] as const) {
      const o = await order({ statusId });
      const res = await request(admin, o.id, { outcome: 'return_to_sender' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(
        [res.body.interception.state, res.body.interception.end_reason, res.body.interception.status_after],
        ['rejected', reason, null],
      );
      assert.equal(await statusOf(o.id), statusId);
      await interceptEvent('/merchant', o.id, 'requested');
      assert.equal((await interceptEvent('/merchant', o.id, 'rejected')).data.interception.reason, reason);
      assert.deepEqual((await trail(o.id)).slice(1), [
        [3046, statusId, statusId, 'requested'],
        [3046, statusId, statusId, 'rejected'],
      ]);
      assert.equal((await handle(o.id).result()).state, 'rejected');
    }

    const o = await order({ statusId: ORDER_STATUS.PICKED_UP, customerId: b.users.customer.id });
    const first = await request(admin, o.id, { outcome: 'return_to_sender' });
    assert.equal(first.body.interception.state, 'in_effect');
    const second = await request(customer, o.id, { outcome: 'hold_at_warehouse' });
    assert.deepEqual(
      [second.status, second.body.interception.state, second.body.interception.end_reason],
      [201, 'rejected', 'already_intercepted'],
    );
    const rejected = await interceptEvent('/customer', o.id, 'rejected');
    assert.equal(rejected.data.interception.id, second.body.interception.id);
    // The open interception stays what the order shows, and goes on.
    assert.equal((await get(admin, o.id)).body.interception.id, first.body.interception.id);
    assert.equal(await statusOf(o.id), 48);
    assert.equal((await act(admin, o.id, 'withdraw')).status, 200);
    assert.equal(await statusOf(o.id), ORDER_STATUS.PICKED_UP);
  });

  test(
    'failed: the parcel is not held by the deadline, and the order goes back (3047)',
    { timeout: 90_000 },
    async () => {
      const o = await order({ statusId: ORDER_STATUS.ON_THE_WAY, customerId: b.users.customer.id });
      const res = await request(customer, o.id, { outcome: 'return_to_sender' });
      assert.equal(res.body.interception.state, 'in_effect');
      assert.ok(res.body.interception.hold_deadline, 'the deadline is shown');
      await found(
        `BusinessId = ${b.business.id} AND InterceptionStatus = "in_effect" AND OrderId = ${o.id}`,
        interceptionWorkflowId(o.id),
      );
      assert.equal((await handle(o.id).result()).state, 'failed');
      const shown = await get(customer, o.id);
      assert.deepEqual(
        [shown.body.interception.state, shown.body.interception.end_reason, shown.body.interception.status_after],
        ['failed', 'not_held_in_time', ORDER_STATUS.ON_THE_WAY],
      );
      assert.equal(await statusOf(o.id), ORDER_STATUS.ON_THE_WAY);
      assert.equal((await statusEvent(o.id, ORDER_STATUS.ON_THE_WAY)).data.operation_type, 3047);
      const failed = await interceptEvent('/customer', o.id, 'failed');
      assert.deepEqual([failed.data.interception.reason, failed.data.operation_type], ['not_held_in_time', 3047]);
      await found(`BusinessId = ${b.business.id} AND InterceptionStatus = "failed"`, interceptionWorkflowId(o.id));
      // It needs a person: list_exceptions shows it.
      const exceptions = await app.http.get('/v1/order-exceptions', { token: admin });
      assert.deepEqual(
        exceptions.body.exceptions
          .filter((e: { order_id: number }) => e.order_id === o.id)
          .map((e: { kind: string; reason: string; reference: string }) => [e.kind, e.reason, e.reference]),
        [['intercept-failed', 'not_held_in_time', interceptionWorkflowId(o.id)]],
      );
      // A scan after the end changes nothing.
      await app.http.post(
        '/v1/distribution/scans',
        {
          package_number: o.trackingNumber,
          action: 'received',
          location: warehouse,
          scanned_at: new Date().toISOString(),
        },
        { token: employee },
      );
      assert.equal((await get(admin, o.id)).body.interception.state, 'failed');
    },
  );

  test('rejected: an order a delivery provider holds (carrier_held), and while its cancellation waits for the provider (cancel_pending)', async () => {
    const o = await order({ statusId: ORDER_STATUS.AT_WAREHOUSE });
    const assigned = await app.http.post(
      '/v1/third-party-assignments',
      { order_id: o.id, provider_code: carrier.business.code, handover_deadline_hours: 100 },
      { token: admin },
    );
    assert.equal(assigned.status, 201, JSON.stringify(assigned.body));
    const number = assigned.body.assignment.number as string;

    // The provider has the order: it is the provider's to stop, and it would not be told.
    const held = await app.http.post(
      `/v1/orders/${o.id}/interception`,
      { outcome: 'return_to_sender' },
      { token: admin, headers: { 'accept-language': 'fr' } },
    );
    assert.equal(held.status, 201, JSON.stringify(held.body));
    assert.deepEqual(
      [held.body.interception.state, held.body.interception.end_reason, held.body.interception.status_after],
      ['rejected', 'carrier_held', null],
    );
    assert.match(held.body.interception.end_message, /prestataire de livraison/);
    assert.equal((await interceptEvent('/merchant', o.id, 'rejected')).data.interception.reason, 'carrier_held');
    assert.equal(await statusOf(o.id), ORDER_STATUS.AT_WAREHOUSE);

    // A cancellation waits for the provider: the interception would race its answer.
    const cancel = await app.http.post(`/v1/orders/${o.id}/cancel`, {}, { token: admin });
    assert.deepEqual([cancel.status, cancel.body.cancellation?.status], [202, 'awaiting_provider']);
    const pending = await request(admin, o.id, { outcome: 'hold_at_warehouse' });
    assert.deepEqual(
      [pending.status, pending.body.interception.state, pending.body.interception.end_reason],
      [201, 'rejected', 'cancel_pending'],
    );
    assert.equal(
      pending.body.interception.end_message,
      "A request to cancel the order is waiting for its delivery provider's answer.",
    );
    assert.equal(await statusOf(o.id), ORDER_STATUS.AT_WAREHOUSE);

    // The provider refuses the cancellation: the order is still the provider's.
    const providerToken = await app.login(carrier.user.email, PASSWORD);
    const refused = await app.http.post(
      `/v1/provider/third-party-assignments/${number}/cancel-request`,
      { accept: false, message: 'Already loaded' },
      { token: providerToken },
    );
    assert.equal(refused.status, 200, JSON.stringify(refused.body));
    await waitFor(
      async () =>
        (await app.http.get(`/v1/orders/${o.id}/cancellation`, { token: admin })).body.cancellation?.status ===
        'refused',
    );
    const after = await request(admin, o.id, { outcome: 'return_to_sender' });
    assert.deepEqual([after.body.interception.state, after.body.interception.end_reason], ['rejected', 'carrier_held']);
  });

  test("leaving 48, the order follows the carrier's events recorded meanwhile (withdrawn: 6014, then 6008)", async () => {
    const o = await order({ statusId: ORDER_STATUS.ON_THE_WAY, customerId: b.users.customer.id });
    const res = await request(customer, o.id, { outcome: 'return_to_sender' });
    assert.equal(res.body.interception.state, 'in_effect', JSON.stringify(res.body));
    await heldByCarrierMeanwhile(o.id);
    // The carrier delivers it while the order is intercepted: recorded, the order stays in 48.
    const delivered = await carrierEvent(o.id, o.trackingNumber, 'otep:core:delivered');
    assert.equal(delivered.body.accepted, 1, JSON.stringify(delivered.body));
    assert.equal(await statusOf(o.id), 48);
    assert.equal(await stateOf(o.id), 'in_effect');

    const withdrawn = await act(customer, o.id, 'withdraw');
    assert.equal(withdrawn.status, 200, JSON.stringify(withdrawn.body));
    assert.equal(withdrawn.body.interception.status_after, ORDER_STATUS.ON_THE_WAY, 'the interception moved it back');
    assert.equal(await statusOf(o.id), ORDER_STATUS.DELIVERED, "then the carrier's delivery was applied");
    assert.deepEqual((await trail(o.id)).slice(-2), [
      [6014, 48, ORDER_STATUS.ON_THE_WAY, 'withdrawn'],
      [6008, ORDER_STATUS.ON_THE_WAY, ORDER_STATUS.DELIVERED, null],
    ]);
    assert.equal((await statusEvent(o.id, ORDER_STATUS.DELIVERED)).data.operation_type, 6008);
  });

  test('a parcel held with no outcome for 72 hours is listed by list_exceptions (intercept-held)', async () => {
    const o = await order({ statusId: ORDER_STATUS.AT_WAREHOUSE });
    const res = await request(admin, o.id, { outcome: 'hold_at_warehouse' });
    assert.equal(res.body.interception.state, 'held_at_warehouse', JSON.stringify(res.body));
    const listed = async () =>
      (await app.http.get('/v1/order-exceptions?limit=200', { token: admin })).body.exceptions
        .filter((e: { order_id: number }) => e.order_id === o.id)
        .map((e: { kind: string; reason: string; reference: string }) => [e.kind, e.reason, e.reference]);
    // Held four days ago (the scaled 72 hours are long past).
    await app
      .em()
      .execute("update order_interception set held_at = now() - interval '4 days' where id = ?", [
        res.body.interception.id,
      ]);
    assert.deepEqual(await listed(), [['intercept-held', 'held_without_outcome', interceptionWorkflowId(o.id)]]);
    // Another business does not see it.
    const elsewhere = await app.http.get('/v1/order-exceptions?limit=200', { token: otherAdmin });
    assert.equal(elsewhere.body.exceptions.filter((e: { order_id: number }) => e.order_id === o.id).length, 0);
    assert.equal((await act(admin, o.id, 'withdraw')).status, 200);
    assert.deepEqual(await listed(), [], 'withdrawn, it needs nobody');
  });

  test("a parcel at a warehouse reaches only the interceptions its reporter may: the business's own, the carrier's held orders", async () => {
    const o = await order({ statusId: ORDER_STATUS.ON_THE_WAY });
    assert.equal((await request(admin, o.id, { outcome: 'return_to_sender' })).body.interception.state, 'in_effect');
    const ctx = { em: app.em(), temporal: app.running.temporal, log: console } as unknown as Parameters<
      typeof tellInterceptionOfWarehouse
    >[0];
    const parcel = { packageNumber: o.trackingNumber, occurredAt: new Date().toISOString() };
    // Another business's scan, and a carrier that does not hold the order: nothing is told. Signals arrive in order,
    // so had either been sent, its place would be the one the interception holds.
    await tellInterceptionOfWarehouse(ctx, [
      { ...parcel, place: 'NOT-YOURS', source: 'scan', reportedBy: otherBusinessId },
      { ...parcel, place: null, source: 'carrier', reportedBy: carrier.business.id },
    ]);
    // The business's own scan holds it.
    await tellInterceptionOfWarehouse(ctx, [
      { ...parcel, place: warehouse, source: 'scan', reportedBy: b.business.id },
    ]);
    await waitFor(async () => (await stateOf(o.id)) === 'held_at_warehouse');
    const held = (await get(admin, o.id)).body.interception.held_at;
    assert.deepEqual([held.place, held.source], [warehouse, 'scan']);
    assert.equal((await act(admin, o.id, 'withdraw')).status, 200);
  });

  test("another customer's or another business's order is NOT_FOUND; other roles FORBIDDEN", async () => {
    const o = await order({ statusId: ORDER_STATUS.ON_THE_WAY });
    for (const token of [customer, otherAdmin, otherCustomer]) {
      assert.equal((await request(token, o.id, { outcome: 'return_to_sender' })).status, 404);
      assert.equal((await get(token, o.id)).status, 404);
      assert.equal((await act(token, o.id, 'withdraw')).status, 404);
    }
    assert.equal((await act(otherAdmin, o.id, 'execute')).status, 404);
    assert.equal((await request(driver, o.id, { outcome: 'return_to_sender' })).status, 403);
    assert.equal((await get(admin, o.id)).status, 404, 'never intercepted');
    assert.equal((await act(admin, o.id, 'withdraw')).status, 409);
    assert.equal(await statusOf(o.id), ORDER_STATUS.ON_THE_WAY, 'nothing was written');
  });
});
