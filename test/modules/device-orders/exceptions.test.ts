/**
 * Device order exceptions end to end over HTTP, with the real worker and a real webhook receiver: staff open and
 * resolve through the process, overdue and door_left_open open and close by themselves, a process that has ended
 * is resumed, and bad input writes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { DEVICE_ORDER_EXCEPTIONS, deviceOrderWorkflowId } from '../../../src/modules/device-orders/contract.ts';
import { eventDefinition } from '../../helpers/events.ts';
import { translate } from '../../../src/platform/i18n/messages.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';

const ajv = new Ajv({ strict: false });
formats.default(ajv);

interface DeviceOrderEvent {
  event: string;
  data: {
    device_order: { id: number; status: string };
    exception?: { id: number; type: string; severity: string; status: string; resolution_action: string | null };
  };
}

describe('device order exceptions', () => {
  let app: TestApp;
  // Door watch 3 s and door limit 0.6 s (LOCKER_TIMER_SCALE).
  before(async () => {
    app = await startApp({ LOCKER_TIMER_SCALE: '0.005' });
  });
  after(() => app.running.close());

  async function world() {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const receiver = await startReceiver();
    after(() => receiver.close());
    assert.equal(
      (
        await app.http.put(
          '/v1/webhook-settings',
          { webhook_sign_secret: 'whsec-exceptions-test-0001', device_order_webhook_url: receiver.url },
          { token: admin },
        )
      ).status,
      200,
    );
    const key: string = (
      await app.http.post(`/v1/devices/${b.device.code}/keys`, { name: 'test locker' }, { token: admin })
    ).body.key.secret;
    const events = (id: number) =>
      receiver.received.map((r) => JSON.parse(r.body) as DeviceOrderEvent).filter((e) => e.data.device_order.id === id);
    return {
      b,
      admin,
      async store(grid = 'A01', dueInMs = 3600_000) {
        const res = await app.http.post(
          '/v1/device-orders',
          {
            kind: 'delivery',
            device_id: b.device.code,
            grid_code: grid,
            reference_number: `PKG-${grid}`,
            due_at: new Date(Date.now() + dueInMs).toISOString(),
          },
          { token: admin },
        );
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return { id: res.body.device_order.id as number, code: res.body.pickup_code as string };
      },
      open: (id: number, body: Record<string, unknown>, token = admin, lang?: string) =>
        app.http.post(`/v1/device-orders/${id}/exceptions`, body, { token, lang }),
      resolve: (id: number, exceptionId: number, body: Record<string, unknown>, token = admin, lang?: string) =>
        app.http.post(`/v1/device-orders/${id}/exceptions/${exceptionId}/resolve`, body, { token, lang }),
      list: async (id: number) =>
        (await app.http.get(`/v1/device-orders/${id}/exceptions`, { token: admin })).body.exceptions as {
          id: number;
          type: string;
          status: string;
          resolution_action: string | null;
        }[],
      door: (compartmentNumber: number, state: 'opened' | 'closed') =>
        app.http.post(
          `/v1/lockers/${b.device.code}/doors`,
          { compartment_number: compartmentNumber, state, at: new Date().toISOString() },
          { token: key },
        ),
      events,
      /** The exception events the receiver got for the order, in order, each checked against its published schema. */
      async exceptionEvents(id: number, count: number) {
        const found = await waitFor(async () => {
          const list = events(id).filter((e) => e.event.startsWith('device_order.exception_'));
          return list.length >= count ? list : undefined;
        });
        for (const e of found) {
          const validate = ajv.compile(eventDefinition(e.event)!.payload);
          assert.ok(validate(e), `${e.event} matches its schema: ${ajv.errorsText(validate.errors)}`);
        }
        return found.map(
          (e) =>
            `${e.event.slice('device_order.exception_'.length)} ${e.data.exception!.type} ${e.data.exception!.status} ${e.data.exception!.resolution_action}`,
        );
      },
    };
  }
  const status = async (id: number) =>
    (await app.running.temporal.workflow.getHandle(deviceOrderWorkflowId(id)).describe()).status.name;

  test('staff open and resolve through the process, which stays open for them after the collect', async () => {
    const w = await world();
    const { id, code } = await w.store();
    const opened = await w.open(id, { type: 'item_damaged' });
    assert.equal(opened.status, 201, JSON.stringify(opened.body));
    assert.deepEqual(
      { ...opened.body.exception, id: 0 },
      { id: 0, type: 'item_damaged', severity: 'medium', status: 'open', resolution_action: null },
    );
    assert.equal(opened.body.device_order.status, 'stored');

    const twice = await w.open(id, { type: 'item_damaged', severity: 'high' }, w.admin, 'de');
    assert.equal(twice.status, 409);
    assert.equal(twice.body.code, 'EXCEPTION_ALREADY_OPEN');
    assert.equal(twice.body.message, translate('device_order.exception_already_open', 'de'));

    const employee = await app.login(w.b.users.employee.email, PASSWORD);
    assert.equal((await w.open(id, { type: 'item_missing', severity: 'low' }, employee)).status, 201);
    assert.equal(
      (await app.http.post(`/v1/device-orders/${id}/collect`, { pickup_code: code }, { token: w.admin })).status,
      200,
    );
    // The door watch (3 s) passes without a door report; the two open exceptions keep the process running.
    await new Promise((r) => setTimeout(r, 3500));
    assert.equal(await status(id), 'RUNNING');

    const exceptionId: number = opened.body.exception.id;
    const resolved = await w.resolve(id, exceptionId, { status: 'resolved', resolution_action: 'parcel_replaced' });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    assert.deepEqual(
      { ...resolved.body.exception, id: 0 },
      { id: 0, type: 'item_damaged', severity: 'medium', status: 'resolved', resolution_action: 'parcel_replaced' },
    );
    assert.equal(resolved.body.device_order.status, 'collected');
    const again = await w.resolve(
      id,
      exceptionId,
      { status: 'dismissed', resolution_action: 'no_action_needed' },
      w.admin,
      'fr',
    );
    assert.equal(again.status, 409);
    assert.equal(again.body.message, translate('device_order.exception_not_open', 'fr'));

    const missing = (await w.list(id)).find((e) => e.type === 'item_missing')!;
    assert.equal(
      (await w.resolve(id, missing.id, { status: 'dismissed', resolution_action: 'no_action_needed' }, employee))
        .status,
      200,
    );
    assert.equal(await app.running.temporal.workflow.getHandle(deviceOrderWorkflowId(id)).result(), 'collected');
    assert.deepEqual(await w.exceptionEvents(id, 4), [
      'opened item_damaged open null',
      'opened item_missing open null',
      'resolved item_damaged resolved parcel_replaced',
      'resolved item_missing dismissed no_action_needed',
    ]);
    const [who] = await app
      .em()
      .execute<{ opened_by: number; closed_by: number }[]>(
        "select opened_by, closed_by from device_order_exception where device_order_id = ? and type = 'item_missing'",
        [id],
      );
    assert.deepEqual(who, { opened_by: w.b.users.employee.id, closed_by: w.b.users.employee.id });
  });

  test('an exception on an order whose process has ended resumes it from the read model until the exception closes', async () => {
    const w = await world();
    const { id } = await w.store();
    assert.equal(
      (await app.http.post(`/v1/device-orders/${id}/remove`, { removal_reason: 'handover' }, { token: w.admin }))
        .status,
      200,
    );
    const handle = app.running.temporal.workflow.getHandle(deviceOrderWorkflowId(id));
    assert.equal(await handle.result(), 'removed');
    const firstRun = (await handle.describe()).runId;

    const opened = await w.open(id, { type: 'item_missing' });
    assert.equal(opened.status, 201, JSON.stringify(opened.body));
    const resumed = await handle.describe();
    assert.notEqual(resumed.runId, firstRun);
    assert.equal(resumed.status.name, 'RUNNING');
    assert.deepEqual(resumed.typedSearchAttributes.get(DEVICE_ORDER_EXCEPTIONS), ['item_missing']);
    assert.equal(
      (await w.resolve(id, opened.body.exception.id, { status: 'resolved', resolution_action: 'parcel_found' })).status,
      200,
    );
    assert.equal(
      await app.running.temporal.workflow.getHandle(deviceOrderWorkflowId(id), resumed.runId).result(),
      'removed',
    );
  });

  test('overdue opens its exception by itself; the collect resolves it', async () => {
    const w = await world();
    const { id, code } = await w.store('A02', 1000);
    await waitFor(async () => (await w.list(id)).some((e) => e.type === 'overdue'));
    assert.equal(
      (await app.http.post(`/v1/device-orders/${id}/collect`, { pickup_code: code }, { token: w.admin })).status,
      200,
    );
    assert.deepEqual(await w.exceptionEvents(id, 2), [
      'opened overdue open null',
      'resolved overdue resolved collected',
    ]);
    assert.deepEqual(
      w.events(id).map((e) => e.event),
      [
        'device_order.stored',
        'device_order.overdue',
        'device_order.exception_opened',
        'device_order.collected',
        'device_order.exception_resolved',
      ],
    );
    assert.equal(await app.running.temporal.workflow.getHandle(deviceOrderWorkflowId(id)).result(), 'collected');
  });

  test('a door left open after the pickup opens door_left_open by itself; its closing resolves it; a quick close opens nothing', async () => {
    const w = await world();
    const slow = await w.store('A03');
    assert.equal(
      (await app.http.post(`/v1/device-orders/${slow.id}/collect`, { pickup_code: slow.code }, { token: w.admin }))
        .status,
      200,
    );
    assert.equal((await w.door(3, 'opened')).status, 200);
    await waitFor(async () => (await w.list(slow.id)).some((e) => e.type === 'door_left_open'));
    assert.equal(await status(slow.id), 'RUNNING');
    // Past the watch and twice the limit (4.2 s): the open exception still routes the door's reports to the order.
    await new Promise((r) => setTimeout(r, 4500));
    assert.equal((await w.door(3, 'closed')).status, 200);
    assert.deepEqual(await w.exceptionEvents(slow.id, 2), [
      'opened door_left_open open null',
      'resolved door_left_open resolved door_closed',
    ]);
    assert.deepEqual(
      (await w.list(slow.id)).map((e) => [e.type, e.status, e.resolution_action]),
      [['door_left_open', 'resolved', 'door_closed']],
    );
    assert.equal(await app.running.temporal.workflow.getHandle(deviceOrderWorkflowId(slow.id)).result(), 'collected');

    const quick = await w.store('A04');
    assert.equal(
      (await app.http.post(`/v1/device-orders/${quick.id}/remove`, { removal_reason: 'relay' }, { token: w.admin }))
        .status,
      200,
    );
    assert.equal((await w.door(4, 'opened')).status, 200);
    assert.equal((await w.door(4, 'closed')).status, 200);
    assert.equal(await app.running.temporal.workflow.getHandle(deviceOrderWorkflowId(quick.id)).result(), 'removed');
    assert.deepEqual(await w.list(quick.id), []);
    // The door's last order has ended: the report is kept and nobody needs to hear it.
    assert.deepEqual((await w.door(4, 'opened')).body, { result: true, applied: true });
    assert.equal((await w.door(4, 'closed')).status, 200);

    // An order still running for an exception, left longer ago than the watch and twice the limit (4.2 s), no longer
    // hears its old compartment's door.
    const kept = await w.store('A02');
    assert.equal((await w.open(kept.id, { type: 'item_damaged' })).status, 201);
    assert.equal(
      (await app.http.post(`/v1/device-orders/${kept.id}/remove`, { removal_reason: 'anomaly' }, { token: w.admin }))
        .status,
      200,
    );
    await new Promise((r) => setTimeout(r, 4500));
    assert.equal((await w.door(2, 'opened')).status, 200);
    const history = await app.running.temporal.workflow.getHandle(deviceOrderWorkflowId(kept.id)).fetchHistory();
    assert.ok(!history.events!.some((e) => e.workflowExecutionSignaledEventAttributes), 'no door report reached it');
    assert.equal(await status(kept.id), 'RUNNING');
  });

  test('bad input, other businesses and other roles: clear 4xx and nothing written', async () => {
    const w = await world();
    const { id } = await w.store();
    const bad = await w.open(id, { type: 'pickup_code_locked', severity: 'urgent' }, w.admin, 'es');
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.errors.map((f: { field: string }) => f.field).sort(), ['severity', 'type']);
    const badResolve = await w.resolve(id, 1, { status: 'open', resolution_action: 'collected' });
    assert.equal(badResolve.status, 422);
    assert.deepEqual(badResolve.body.errors.map((f: { field: string }) => f.field).sort(), [
      'resolution_action',
      'status',
    ]);
    assert.equal((await w.resolve(id, 2_000_000_000, { status: 'resolved', resolution_action: 'other' })).status, 404);

    const other = await world();
    assert.equal((await w.open(id, { type: 'other' }, other.admin)).status, 404);
    const opened = await w.open(id, { type: 'other' });
    assert.equal(
      (await other.resolve(id, opened.body.exception.id, { status: 'resolved', resolution_action: 'other' })).status,
      404,
    );
    assert.equal((await app.http.get(`/v1/device-orders/${id}/exceptions`, { token: other.admin })).status, 404);
    const customer = await app.login(w.b.users.customer.email, PASSWORD);
    assert.equal((await w.open(id, { type: 'other' }, customer)).status, 403);
    assert.deepEqual(
      (await w.list(id)).map((e) => e.type),
      ['other'],
    );
  });
});
