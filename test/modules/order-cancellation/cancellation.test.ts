/**
 * Order cancellation and permanent deletion (docs/orders.md, "Cancellation and deletion") through the real HTTP API,
 * the worker and real webhook receivers: an order cancelled at once leaves its contractor and its distribution; one
 * on its way is refused and the refusal is sent as order.cancel_failed; one a delivery provider holds waits for the
 * provider, who accepts (the assignment ends cancelled), refuses (a customer's webhook reads ORDER_CANCEL_REFUSED)
 * or does not answer in time; a deleted order answers 404 everywhere and order.deleted is sent, while its audit
 * trail and delivery log stay; another business's admin gets 404 on every operation. Every payload is checked
 * against its AsyncAPI schema.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import {
  CANCELLATION_ANSWERED,
  ORDER_CANCELLATION_QUEUE,
  ORDER_CANCELLATION_WORKFLOW,
  orderCancellationWorkflowId,
  providerAnswerUpdate,
  type CancellationSnapshot,
} from '../../../src/modules/order-cancellation/contract.ts';
import { runAfterCommit } from '../../../src/modules/orders/index.ts';
import { refusalOf } from '../../../src/platform/temporal/refusals.ts';
import { createLogger } from '../../../src/platform/logger.ts';
import { DELETED_WITH_ORDER } from '../../../src/modules/order-cancellation/repo.ts';
import { eventDefinition } from '../../helpers/events.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';

const ajv = new Ajv({ strict: false });
formats.default(ajv);
const SECRET = 'cancellation-test-secret-0123456789';

describe('order cancellation and deletion', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let other: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let staff: string;
  let customer: string;
  let otherAdmin: string;
  let provider: { code: string; token: string; id: number };
  let otherProvider: string;

  before(async () => {
    // The provider's 30 minutes last 5.4 s.
    app = await startApp({ CANCEL_PROVIDER_TIMER_SCALE: '0.003' });
    receiver = await startReceiver();
    b = await makeBusiness(app.em());
    other = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    staff = await app.login(b.users.employee.email, PASSWORD);
    customer = await app.login(b.users.customer.email, PASSWORD);
    otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    const urls = (prefix: string) => ({
      order_cancel_failed_webhook_url: `${receiver.url}/${prefix}/cancel-failed`,
      order_status_change_webhook_url: `${receiver.url}/${prefix}/status`,
      order_deleted_webhook_url: `${receiver.url}/${prefix}/deleted`,
      order_lifecycle_webhook_url: `${receiver.url}/${prefix}/lifecycle`,
    });
    const put = await app.http.put(
      '/v1/webhook-settings',
      { webhook_sign_secret: SECRET, ...urls('merchant') },
      { token: admin },
    );
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const putCustomer = await app.http.put(
      '/v1/webhook-settings',
      { customer_id: b.users.customer.id, webhook_sign_secret: SECRET, ...urls('customer') },
      { token: admin },
    );
    assert.equal(putCustomer.status, 200, JSON.stringify(putCustomer.body));
    const p = await makeProvider(app.em(), 'delivery_provider');
    const token = await app.login(p.user.email, PASSWORD);
    assert.equal(
      (await app.http.put('/v1/provider/webhook-settings', { url: `${receiver.url}/provider` }, { token })).status,
      200,
    );
    provider = { code: p.business.code, token, id: p.business.id };
    const p2 = await makeProvider(app.em(), 'delivery_provider');
    otherProvider = await app.login(p2.user.email, PASSWORD);
  });
  after(async () => {
    await app.running.close();
    await receiver.close();
  });

  const cancel = (orderId: number, token = admin, body: Record<string, unknown> = {}, lang?: string) =>
    app.http.post(`/v1/orders/${orderId}/cancel`, body, { token, lang });
  const answer = (number: string, body: Record<string, unknown>, token = provider.token) =>
    app.http.post(`/v1/provider/third-party-assignments/${number}/cancel-request`, body, { token });
  const orderStatus = async (id: number) =>
    (await app.em().execute<{ status_id: number }[]>('select status_id from delivery_order where id = ?', [id]))[0]
      ?.status_id;
  const trail = (orderId: number) =>
    app
      .em()
      .execute<{ operation_type: number; details: Record<string, unknown>; actor_id: number | null }[]>(
        'select operation_type, details, actor_id from order_operation_event where order_id = ? order by id',
        [orderId],
      );

  /** The first event of `name` at `path` about the order, once it arrives, checked against its AsyncAPI schema. */
  const eventAt = async (path: string, name: string, match: (e: any) => boolean): Promise<any> => {
    const found = await waitFor(async () =>
      receiver.received
        .filter((r) => r.url === path)
        .map((r) => JSON.parse(r.body))
        .find((e) => e.event === name && match(e)),
    );
    const validate = ajv.compile(eventDefinition(name)!.payload);
    assert.ok(validate(found), `${name} matches its schema: ${ajv.errorsText(validate.errors)}`);
    return found;
  };
  const aboutOrder = (id: number) => (e: any) => e.data?.order?.id === id;

  /** An order handed to the provider; answers it and its assignment number. */
  const heldByProvider = async (over: Parameters<typeof makeOrder>[2] = {}) => {
    const order = await makeOrder(app.em(), b.business.id, over);
    const res = await app.http.post(
      '/v1/third-party-assignments',
      { order_id: order.id, provider_code: provider.code, handover_deadline_hours: 100 },
      { token: admin },
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { order, number: res.body.assignment.number as string };
  };

  test('an order not gone out is cancelled at once: it leaves its contractor; a second cancel is refused', async () => {
    const order = await makeOrder(app.em(), b.business.id);
    const assigned = await app.http.post(
      '/v1/broker-order-assignments',
      { broker_id: b.users.broker.id, order_ids: [order.id] },
      { token: admin },
    );
    assert.equal(assigned.body.assigned, 1, JSON.stringify(assigned.body));

    const res = await cancel(order.id, staff, { reason: 'Customer changed their mind' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.order, { id: order.id, status_id: 5, status: 'CANCELLED' });
    assert.deepEqual(
      [res.body.cancellation.status, res.body.cancellation.reason, res.body.cancellation.workflow_id],
      ['cancelled', 'Customer changed their mind', null],
    );
    assert.equal(await orderStatus(order.id), 5);

    const change = await eventAt('/merchant/status', 'order.status_change', aboutOrder(order.id));
    assert.deepEqual([change.data.before_status, change.data.after_status, change.data.operation_type], [1, 5, 3041]);
    const lifecycle = await eventAt('/merchant/lifecycle', 'order.cancelled', aboutOrder(order.id));
    assert.equal(lifecycle.event_id, `OCN-${res.body.cancellation.id}`);

    const list = await app.http.get(`/v1/broker-order-assignments?order_id=${order.id}`, { token: admin });
    assert.deepEqual(
      list.body.assignments.map((a: { status: string }) => a.status),
      ['revoked'],
      'the contractor assignment ended',
    );
    const rows = await trail(order.id);
    assert.ok(rows.some((r) => r.operation_type === 3041 && r.actor_id === b.users.employee.id));
    assert.ok(rows.some((r) => r.operation_type === 3062 && r.details.reason === 'order cancelled'));

    const again = await cancel(order.id);
    assert.deepEqual([again.status, again.body.code], [409, 'ORDER_ALREADY_CANCELLED']);
    const failed = await eventAt('/merchant/cancel-failed', 'order.cancel_failed', aboutOrder(order.id));
    assert.equal(failed.data.error_code, 'ORDER_ALREADY_CANCELLED');
  });

  test('an order on its way is refused in the caller language; the refusal goes out as order.cancel_failed and into the trail', async () => {
    const order = await makeOrder(app.em(), b.business.id, { statusId: 2 });
    const res = await cancel(order.id, admin, {}, 'fr');
    assert.deepEqual([res.status, res.body.code], [409, 'ORDER_GONE_OUT']);
    assert.match(res.body.message, /ne peut plus être annulée/);
    assert.equal(await orderStatus(order.id), 2, 'the order goes on');

    const failed = await eventAt('/merchant/cancel-failed', 'order.cancel_failed', aboutOrder(order.id));
    assert.equal(failed.data.error_code, 'ORDER_GONE_OUT');
    assert.match(failed.event_id, /^OCF-[0-9]+$/);
    assert.equal(failed.data.order.status_id, 2);
    const refused = (await trail(order.id)).filter((r) => r.operation_type === 3042);
    assert.equal(refused.length, 1);
    assert.equal(refused[0]!.details.error_code, 'ORDER_GONE_OUT');

    const delivered = await makeOrder(app.em(), b.business.id, { statusId: 3 });
    assert.equal((await cancel(delivered.id)).body.code, 'ORDER_FINISHED');
    const intercepted = await makeOrder(app.em(), b.business.id, { statusId: 48 });
    assert.equal((await cancel(intercepted.id)).body.code, 'ORDER_UNDER_INTERCEPTION');
    const returned = await makeOrder(app.em(), b.business.id, { statusId: 15 });
    assert.equal((await cancel(returned.id)).body.code, 'ORDER_FINISHED', 'returned to its sender is finished');
  });

  test('the same refusal repeated shortly after is answered the same and written once', async () => {
    const delivered = await makeOrder(app.em(), b.business.id, { statusId: 3 });
    for (let i = 0; i < 3; i++) {
      const res = await cancel(delivered.id, staff, { reason: `try ${i}` });
      assert.deepEqual([res.status, res.body.code], [409, 'ORDER_FINISHED']);
    }
    await eventAt('/merchant/cancel-failed', 'order.cancel_failed', aboutOrder(delivered.id));
    const [n] = await app.em().execute<{ requests: number; refusals: number; events: number }[]>(
      `select (select count(*)::int from order_cancellation where order_id = ?) as requests,
         (select count(*)::int from order_operation_event where order_id = ? and operation_type = 3042) as refusals,
         (select count(*)::int from outbox_event where reference_id = ? and event_type = 'order.cancel_failed') as events`,
      [delivered.id, delivered.id, String(delivered.id)],
    );
    assert.deepEqual(n, { requests: 1, refusals: 1, events: 1 });
  });

  test("a cancelled order's packages leave their warehouse distribution", async () => {
    const carrier = await makeProvider(app.em(), 'delivery_provider');
    for (const place of [{ kind: 'warehouse', code: 'CWH' }])
      assert.equal((await app.http.post('/v1/places', { name: place.code, ...place }, { token: admin })).status, 201);
    assert.equal(
      (
        await app.http.post(
          '/v1/carrier-supplier-accounts',
          { carrier_code: carrier.business.code, member_number: 'M-C' },
          { token: admin },
        )
      ).status,
      201,
    );
    const order = await makeOrder(app.em(), b.business.id, { carrierProviderId: carrier.business.id });
    const number = order.trackingNumber;
    const received = await app.http.post(
      '/v1/distribution/scans',
      { package_number: number, action: 'received', location: 'CWH', scanned_at: new Date().toISOString() },
      { token: staff },
    );
    assert.equal(received.body.package?.status, 'created', JSON.stringify(received.body));

    const res = await cancel(order.id);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const d = await waitFor(async () => {
      const got = await app.http.get(`/v1/distribution/packages/${number}`, { token: staff });
      return got.body.distribution?.status === 'removed' ? got.body : null;
    });
    assert.deepEqual(
      [d.distribution.removal_reason, d.scans.at(-1).action, d.scans.at(-1).source],
      ['cancelled', 'removed', 'cancellation'],
    );
    // The removal is the work of the request's own process, which ends once it is done.
    const process = app.running.temporal.workflow.getHandle(orderCancellationWorkflowId(order.id));
    assert.equal(await process.result(), 'cancelled');
    // A removed package holds nothing: the cancelled order can be deleted.
    assert.equal((await app.http.del(`/v1/orders/${order.id}`, { token: admin })).status, 200);

    // A delivered order whose package is still on its distribution is held by it until the package leaves it.
    const held = await makeOrder(app.em(), b.business.id, { carrierProviderId: carrier.business.id, statusId: 3 });
    const scan = (action: string) =>
      app.http.post(
        '/v1/distribution/scans',
        { package_number: held.trackingNumber, action, location: 'CWH', scanned_at: new Date().toISOString() },
        { token: staff },
      );
    assert.equal((await scan('received')).body.package?.status, 'created');
    const refused = await app.http.del(`/v1/orders/${held.id}`, { token: admin });
    assert.deepEqual([refused.status, refused.body.code], [409, 'ORDER_NOT_DELETABLE']);
    assert.equal((await scan('removed')).body.package?.status, 'removed');
    assert.equal((await app.http.del(`/v1/orders/${held.id}`, { token: admin })).status, 200);
  });

  test("a cancelled order's parcel still in a locker is flagged for staff; the order cannot be deleted until it is out", async () => {
    const order = await makeOrder(app.em(), b.business.id);
    const stored = await app.http.post(
      '/v1/device-orders',
      {
        kind: 'delivery',
        device_id: b.device.code,
        grid_code: 'A03',
        order_id: order.id,
        reference_number: `R-${order.id}`,
        due_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
      { token: admin },
    );
    assert.equal(stored.status, 201, JSON.stringify(stored.body));
    const id = stored.body.device_order.id as number;
    assert.equal((await cancel(order.id)).status, 200);
    const flagged = await waitFor(async () => {
      const list = await app.http.get(`/v1/device-orders/${id}/exceptions`, { token: staff });
      return list.body.exceptions?.find(
        (e: { type: string; status: string }) => e.type === 'other' && e.status === 'open',
      );
    });
    assert.equal(flagged.severity, 'high');
    assert.equal((await app.http.del(`/v1/orders/${order.id}`, { token: admin })).body.code, 'ORDER_NOT_DELETABLE');
    const removed = await app.http.post(
      `/v1/device-orders/${id}/remove`,
      { removal_reason: 'handover' },
      { token: staff },
    );
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal((await app.http.del(`/v1/orders/${order.id}`, { token: admin })).status, 200);
    const kept = await app.http.get(`/v1/device-orders/${id}`, { token: staff });
    assert.deepEqual([kept.status, kept.body.device_order.order_id], [200, null], 'the device order keeps its history');
  });

  test('an order a provider holds waits for the provider: it accepts, the order is cancelled and the assignment ends cancelled', async () => {
    const { order, number } = await heldByProvider();
    const res = await cancel(order.id, staff);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const c = res.body.cancellation;
    assert.deepEqual(
      [c.status, c.provider_code, c.assignment_number, c.workflow_id],
      ['awaiting_provider', provider.code, number, orderCancellationWorkflowId(order.id)],
    );
    assert.equal(await orderStatus(order.id), 1, 'nothing changes before the provider answers');
    assert.equal((await cancel(order.id)).body.code, 'CANCEL_PENDING');

    const asked = await eventAt(
      '/provider',
      'delivery.assignment.cancel_requested',
      (e) => e.data.assignment_number === number,
    );
    assert.deepEqual([asked.data.cancellation_id, asked.data.answer_deadline], [c.id, c.answer_deadline]);
    const handle = app.running.temporal.workflow.getHandle(orderCancellationWorkflowId(order.id));
    assert.equal(((await handle.query('status')) as CancellationSnapshot).status, 'awaiting_provider');
    const snapshot = await app.http.get(`/v1/orders/${order.id}/snapshot`, { token: admin });
    assert.ok(
      snapshot.body.processes?.some(
        (p: { type: string; state: string }) => p.type === 'order-cancellation' && p.state === 'awaiting_provider',
      ),
      JSON.stringify(snapshot.body.processes),
    );

    // Another provider cannot answer for it.
    assert.equal((await answer(number, { accept: true }, otherProvider)).status, 404);
    // An answer meant for another request of the order (an older one, another provider's) does not reach this one.
    for (const stale of [
      { cancellationId: c.id - 1, providerId: provider.id },
      { cancellationId: c.id, providerId: provider.id + 1 },
    ]) {
      const sent = handle.executeUpdate(providerAnswerUpdate, {
        args: [{ ...stale, accept: true, refusalCode: null, message: null, actorId: 1 }],
      });
      assert.equal(await sent.then(() => 'accepted', refusalOf), CANCELLATION_ANSWERED);
    }
    const accepted = await answer(number, { accept: true });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.cancellation.status, 'cancelled');
    assert.equal(await orderStatus(order.id), 5);
    assert.equal(await handle.result(), 'cancelled');

    const assignment = await waitFor(async () => {
      const got = await app.http.get(`/v1/third-party-assignments/${number}`, { token: admin });
      return got.body.assignment.status === 'cancelled' ? got.body.assignment : null;
    });
    assert.equal(assignment.cancel_reason, 'cancelled');
    await eventAt('/provider', 'delivery.assignment.cancelled', (e) => e.data.assignment_number === number);
    const change = await eventAt('/merchant/status', 'order.status_change', aboutOrder(order.id));
    assert.deepEqual([change.data.after_status, change.data.operation_type], [5, 3041]);
    assert.equal((await answer(number, { accept: false })).body.code, 'CANCEL_ANSWERED');
    const got = await app.http.get(`/v1/orders/${order.id}/cancellation`, { token: admin });
    assert.equal(got.body.cancellation.status, 'cancelled');
  });

  test("a provider's refusal is order.cancel_failed with its code; the customer's webhook reads ORDER_CANCEL_REFUSED", async () => {
    const { order, number } = await heldByProvider({ customerId: b.users.customer.id });
    const res = await cancel(order.id, customer);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.deepEqual(
      [res.body.cancellation.provider_code, res.body.cancellation.workflow_id],
      [null, null],
      'a customer account does not see the carrier',
    );
    await eventAt('/provider', 'delivery.assignment.cancel_requested', (e) => e.data.assignment_number === number);
    const refused = await answer(number, {
      accept: false,
      refusal_code: 'IN_LINEHAUL',
      message: 'On the truck to Lyon',
    });
    assert.equal(refused.status, 200, JSON.stringify(refused.body));
    assert.deepEqual(
      [refused.body.cancellation.status, refused.body.cancellation.refusal_code],
      ['refused', 'IN_LINEHAUL'],
    );

    const merchant = await eventAt('/merchant/cancel-failed', 'order.cancel_failed', aboutOrder(order.id));
    const masked = await eventAt('/customer/cancel-failed', 'order.cancel_failed', aboutOrder(order.id));
    assert.equal(merchant.data.error_code, 'IN_LINEHAUL');
    assert.equal(masked.data.error_code, 'ORDER_CANCEL_REFUSED');
    assert.equal(masked.event_id, merchant.event_id);
    assert.ok(!JSON.stringify(masked).includes('Lyon'), "the carrier's words stay out of the customer's webhook");

    assert.equal(await orderStatus(order.id), 1, 'the order goes on');
    const a = await app.http.get(`/v1/third-party-assignments/${number}`, { token: admin });
    assert.equal(a.body.assignment.status, 'assigned');
    const seen = await app.http.get(`/v1/orders/${order.id}/cancellation`, { token: customer });
    assert.deepEqual(
      [seen.body.cancellation.status, seen.body.cancellation.refusal_code],
      ['refused', 'ORDER_CANCEL_REFUSED'],
    );
    const rows = (await trail(order.id)).filter((r) => r.operation_type === 3042);
    assert.deepEqual(
      [rows.length, rows[0]!.details.error_code, rows[0]!.details.provider_message],
      [1, 'IN_LINEHAUL', 'On the truck to Lyon'],
    );
    const exceptions = await app.http.get('/v1/order-exceptions', { token: staff });
    assert.ok(
      exceptions.body.exceptions?.some(
        (e: { order_id: number; kind: string; reason: string }) =>
          e.order_id === order.id && e.kind === 'cancel-refused' && e.reason === 'IN_LINEHAUL',
      ),
      JSON.stringify(exceptions.body),
    );
  });

  test('no answer from the provider in time is a refusal: order.cancel_failed with PROVIDER_NO_ANSWER', async () => {
    const { order, number } = await heldByProvider();
    const res = await cancel(order.id);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const failed = await eventAt('/merchant/cancel-failed', 'order.cancel_failed', aboutOrder(order.id));
    assert.equal(failed.data.error_code, 'PROVIDER_NO_ANSWER');
    assert.equal(failed.event_id, `OCF-${res.body.cancellation.id}`);
    const late = await answer(number, { accept: true });
    assert.deepEqual([late.status, late.body.code], [409, 'CANCEL_ANSWERED']);
    assert.equal(await orderStatus(order.id), 1);
    const got = await app.http.get(`/v1/orders/${order.id}/cancellation`, { token: staff });
    assert.equal(got.body.cancellation.status, 'timed_out');
    // A new request may be made once the process of the first has ended (its row reads timed_out a moment before the
    // process finishes: a request in that moment answers CANCEL_PENDING).
    await app.running.temporal.workflow.getHandle(orderCancellationWorkflowId(order.id)).result();
    assert.equal((await cancel(order.id)).status, 202);
  });

  test('a cancelled or delivered order is deleted for good by an admin: order.deleted, 404 after, the trail and the log stay', async () => {
    const order = await makeOrder(app.em(), b.business.id);
    assert.equal((await app.http.del(`/v1/orders/${order.id}`, { token: admin })).body.code, 'ORDER_NOT_DELETABLE');
    assert.equal((await cancel(order.id)).status, 200);
    assert.equal((await app.http.del(`/v1/orders/${order.id}`, { token: staff })).status, 403);
    assert.equal((await app.http.del(`/v1/orders/${order.id}`, { token: otherAdmin })).status, 404);
    await eventAt('/merchant/status', 'order.status_change', aboutOrder(order.id));

    const res = await app.http.del(`/v1/orders/${order.id}`, { token: admin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const deleted = await eventAt('/merchant/deleted', 'order.deleted', aboutOrder(order.id));
    assert.equal(deleted.event_id, `ODL-${order.id}`);
    assert.deepEqual(deleted.data.order, {
      id: order.id,
      order_ref: order.orderRef,
      tracking_number: order.trackingNumber,
    });

    assert.equal((await app.http.get(`/v1/orders/${order.id}`, { token: admin })).status, 404);
    assert.equal((await cancel(order.id)).status, 404);
    assert.equal((await app.http.del(`/v1/orders/${order.id}`, { token: admin })).status, 404);
    const ops = (await trail(order.id)).map((r) => r.operation_type);
    assert.ok(ops.includes(1001) && ops.includes(3041) && ops.at(-1) === 3051, JSON.stringify(ops));
    const [log] = await app.em().execute<{ events: number; deliveries: number }[]>(
      `select count(distinct e.id)::int as events, count(d.id)::int as deliveries
         from outbox_event e left join webhook_delivery d on d.outbox_event_id = e.id
         where e.reference_type = 'order' and e.reference_id = ?`,
      [String(order.id)],
    );
    assert.ok(log!.events >= 3 && log!.deliveries >= 3, JSON.stringify(log));
  });

  test('an order refused by its recipient or returned to its sender is finished: it can be deleted', async () => {
    for (const statusId of [14, 15]) {
      const order = await makeOrder(app.em(), b.business.id, { statusId });
      const res = await app.http.del(`/v1/orders/${order.id}`, { token: admin });
      assert.equal(res.status, 200, `${statusId}: ${JSON.stringify(res.body)}`);
      await eventAt('/merchant/deleted', 'order.deleted', aboutOrder(order.id));
    }
  });

  test('a request whose transaction fails to commit leaves no process waiting: the next request goes through', async () => {
    const { order } = await heldByProvider();
    // A check deferred to the commit refuses this order's request after its process has started.
    await app.em().execute(`create or replace function test_refuse_cancellation() returns trigger language plpgsql
      as $$ begin raise exception 'commit refused by the test'; end $$`);
    await app.em().execute(`create constraint trigger test_refuse_cancellation after insert on order_cancellation
      deferrable initially deferred for each row when (new.order_id = ${order.id})
      execute function test_refuse_cancellation()`);
    try {
      const failed = await cancel(order.id);
      assert.ok(failed.status >= 500, JSON.stringify(failed.body));
    } finally {
      await app.em().execute('drop trigger test_refuse_cancellation on order_cancellation');
    }
    const handle = app.running.temporal.workflow.getHandle(orderCancellationWorkflowId(order.id));
    assert.notEqual((await handle.describe()).status.name, 'RUNNING', 'the process of the unwritten request ended');
    const again = await cancel(order.id);
    assert.equal(again.status, 202, JSON.stringify(again.body));
  });

  test(
    'a process whose request was never written ends at once, without waiting for its deadline',
    { timeout: 60_000 },
    async () => {
      const order = await makeOrder(app.em(), b.business.id);
      const handle = await app.running.temporal.workflow.start(ORDER_CANCELLATION_WORKFLOW, {
        workflowId: orderCancellationWorkflowId(order.id),
        taskQueue: ORDER_CANCELLATION_QUEUE,
        args: [
          {
            cancellationId: 2_000_000_000,
            orderId: order.id,
            businessId: b.business.id,
            providerId: provider.id,
            assignmentId: 2_000_000_000,
            answerDeadline: new Date(Date.now() + 3_600_000).toISOString(),
          },
        ],
      });
      assert.equal(await handle.result(), 'refused');
      assert.equal((await cancel(order.id)).status, 200, 'no process holds the order');
    },
  );

  test("the hooks' work after the commit is retried: a failing part is thrown after the others ran", async () => {
    const ran: string[] = [];
    const failing = runAfterCommit(
      [
        async () => void ran.push('first'),
        async () => {
          throw new Error('transient');
        },
        async () => void ran.push('third'),
      ],
      createLogger('silent'),
      1,
    );
    await assert.rejects(failing, /transient/);
    assert.deepEqual(ran, ['first', 'third']);
  });

  test("another business's admin and provider get 404 on every cancellation operation", async () => {
    const { order, number } = await heldByProvider();
    assert.equal((await cancel(order.id, otherAdmin)).status, 404);
    assert.equal((await app.http.get(`/v1/orders/${order.id}/cancellation`, { token: otherAdmin })).status, 404);
    assert.equal((await app.http.del(`/v1/orders/${order.id}`, { token: otherAdmin })).status, 404);
    assert.equal((await answer(number, { accept: true }, otherProvider)).status, 404);
    // A customer account sees only its own orders.
    assert.equal((await cancel(order.id, customer)).status, 404);
    assert.equal(await orderStatus(order.id), 1);
  });

  test('every table with a foreign key to an order goes with it on deletion, or cascades', async () => {
    const rows = await app.em().execute<{ table_name: string; target: string; on_delete: string }[]>(
      `select c.conrelid::regclass::text as table_name, c.confrelid::regclass::text as target, c.confdeltype as on_delete
       from pg_constraint c
       where c.contype = 'f' and c.confrelid in ('delivery_order'::regclass, 'order_package'::regclass,
         'third_party_assignment'::regclass, 'tracking_event'::regclass)`,
    );
    const handled = new Set<string>(DELETED_WITH_ORDER);
    const missing = rows.filter((r) => !handled.has(r.table_name) && r.on_delete !== 'c' && r.on_delete !== 'n');
    assert.deepEqual(missing, [], 'add each to DELETED_WITH_ORDER (order-cancellation/repo.ts) or cascade it');
  });
});
