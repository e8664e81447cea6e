import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Worker } from '@temporalio/worker';
import { startApp, type TestApp } from '../helpers/app.ts';
import { historiesDir, replayAndMaybeRecord, replayOptions } from '../helpers/histories.ts';
import { lockerWorld } from '../helpers/lockerWorld.ts';
import { makeBusiness, makeOrder, makeProvider, orderArguments, PASSWORD } from '../helpers/factories.ts';
import {
  ORDER_BATCH_QUEUE,
  ORDER_BATCH_SWEEP_WORKFLOW,
  orderBatchWorkflowId,
} from '../../src/modules/order-batches/contract.ts';
import { awaitDeviceOrderDelivery, retryWorkflowOf } from '../helpers/retryWorkflow.ts';
import { waitFor } from '../helpers/wait.ts';
import { tenantWithReceiver } from '../helpers/webhookTenant.ts';
import { deviceOrderWorkflowId } from '../../src/modules/device-orders/contract.ts';
import { distributionWorkflowId } from '../../src/modules/distribution/contract.ts';
import { lockerDeliveryWorkflowId } from '../../src/modules/locker-deliveries/contract.ts';
import {
  pauseSignal,
  progressQuery,
  resumeSignal,
  SECRETS_ROTATION_QUEUE,
  SECRETS_ROTATION_WORKFLOW,
} from '../../src/modules/secrets/contract.ts';
import { WEBHOOK_LOG_PRUNE_WORKFLOW, WEBHOOK_QUEUE } from '../../src/modules/webhooks/contract.ts';
import { LIMIT_ROWS_PRUNE_QUEUE, LIMIT_ROWS_PRUNE_WORKFLOW } from '../../src/modules/abuse-limits/contract.ts';
import { MODULES } from '../../src/modules/index.ts';
import { DEMO_APPS } from '../../src/modules/apps/index.ts';
import { registrationWorkflowId } from '../../src/modules/apps/contract.ts';
import type { secretsRotationWorkflow } from '../../src/modules/secrets/workflows.ts';
import { countsQuery, smsCampaignWorkflowId } from '../../src/modules/sms-marketing/contract.ts';
import { orderCancellationWorkflowId } from '../../src/modules/order-cancellation/contract.ts';
import { czechMobile, orderTo, quietNow } from '../modules/sms-marketing/world.ts';
import { heldSignal, interceptionWorkflowId } from '../../src/modules/order-interception/contract.ts';
import { ORDER_STATUS } from '../../src/modules/orders/index.ts';
import { routeBoardWorkflowId } from '../../src/modules/route-board/contract.ts';
import { addUser, BOARD_DATE, makeRoutes } from '../modules/route-board/world.ts';
import { buildRouteWorkflowId } from '../../src/modules/routes/contract.ts';
import { makeDriver, makePlanOrder } from '../modules/routes/fixtures.ts';
import { autoAssignWorkflowId, routeDayWorkflowId } from '../../src/modules/dispatch/contract.ts';
import { dispatchWorld, type Driver } from '../modules/dispatch/world.ts';
import {
  UNIORDER_JOB_QUEUE,
  UNIORDER_JOB_SWEEP_WORKFLOW,
  uniorderJobWorkflowId,
} from '../../src/modules/uniorder/contract.ts';
import { labelWorld, RECIPIENT, SHIPPER } from '../modules/labels/world.ts';
import { shippingOrderWorkflowId } from '../../src/modules/shipping-orders/contract.ts';
import { shipoutWorkflowId } from '../../src/modules/shipouts/contract.ts';
import { shipoutWorld } from '../modules/shipouts/world.ts';
import { transfer } from '../../src/modules/wallet/index.ts';
import {
  STORAGE_FEE_RUN_WORKFLOW,
  STORAGE_QUEUE,
  storageFeeRunWorkflowId,
  storageOrderWorkflowId,
} from '../../src/modules/storage/contract.ts';
import { boxes as storageBoxes, storageWorld } from '../modules/storage/world.ts';

describe('determinism: recorded histories replay against the current workflow code', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({
      WEBHOOK_RETRY_SCALE: '0.01',
      LOCKER_TIMER_SCALE: '0.0005',
      HANDOVER_TIMER_SCALE: '0.0005',
      APPROVAL_TIMER_SCALE: '0.0005',
      SMS_PROVIDER: 'sandbox',
      REGISTRATION_TIMER_SCALE: '0.002',
      SMS_CAMPAIGN_TIMER_SCALE: '0.0001',
      // An interception's 72 hours to be held last about 10 s.
      INTERCEPTION_TIMER_SCALE: '0.00004',
      CANCEL_PROVIDER_TIMER_SCALE: '0.002',
    });
  });
  after(() => app.running.close());

  test('every committed history replays', async () => {
    const files = fs.readdirSync(historiesDir).filter((f) => f.endsWith('.json'));
    assert.ok(files.length > 0, 'at least one recorded history');
    // One replay worker for them all: a worker per history cost about half a second each.
    const histories = files.map((file) => ({
      workflowId: file,
      history: JSON.parse(fs.readFileSync(path.join(historiesDir, file), 'utf8')) as unknown,
    }));
    const failed: string[] = [];
    for await (const result of Worker.runReplayHistories(replayOptions(), histories)) {
      if (result.error) failed.push(`${result.workflowId}: ${String(result.error)}`);
    }
    assert.deepEqual(failed, []);
  });

  test('every workflow type the modules declare has a recorded history', () => {
    const recorded = new Set(
      fs
        .readdirSync(historiesDir)
        .filter((f) => f.endsWith('.json'))
        .map(
          (f) =>
            (
              JSON.parse(fs.readFileSync(path.join(historiesDir, f), 'utf8')) as {
                events: { workflowExecutionStartedEventAttributes?: { workflowType: { name: string } } }[];
              }
            ).events[0]!.workflowExecutionStartedEventAttributes!.workflowType.name,
        ),
    );
    assert.deepEqual(
      MODULES.flatMap((m) => m.workflows ?? []).filter((type) => !recorded.has(type)),
      [],
    );
  });

  test('fresh histories of the scheduled jobs (webhook log and limit rows prunes, order batch sweep) replay', async () => {
    for (const [type, args, file, taskQueue] of [
      [WEBHOOK_LOG_PRUNE_WORKFLOW, [90], 'webhook-log-prune.json', WEBHOOK_QUEUE],
      [LIMIT_ROWS_PRUNE_WORKFLOW, [], 'limit-rows-prune.json', LIMIT_ROWS_PRUNE_QUEUE],
      [ORDER_BATCH_SWEEP_WORKFLOW, [], 'order-batch-sweep.json', ORDER_BATCH_QUEUE],
      [UNIORDER_JOB_SWEEP_WORKFLOW, [], 'uniorder-job-sweep.json', UNIORDER_JOB_QUEUE],
    ] as const) {
      const workflowId = `${type}-replay-${Date.now()}`;
      await app.running.temporal.workflow.execute(type, {
        workflowId,
        taskQueue,
        args: [...args],
      });
      await replayAndMaybeRecord(app, workflowId, file);
    }
  });

  test('a fresh stored -> overdue -> collected history, with its recipient notice, replays (set RECORD_HISTORY=1 to commit it)', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const res = await app.http.post(
      '/v1/device-orders',
      {
        kind: 'delivery',
        device_id: b.device.code,
        grid_code: 'A01',
        order_id: (await makeOrder(app.em(), b.business.id)).id,
        reference_number: 'R',
        due_at: new Date(Date.now() + 1000).toISOString(),
      },
      { token: admin },
    );
    const id = res.body.device_order.id;
    await waitFor(
      async () =>
        (await app.http.get(`/v1/device-orders/${id}`, { token: admin })).body.device_order.status === 'overdue',
    );
    await app.http.post(`/v1/device-orders/${id}/collect`, { pickup_code: res.body.pickup_code }, { token: admin });
    const handle = app.running.temporal.workflow.getHandle(deviceOrderWorkflowId(id));
    assert.equal(await handle.result(), 'collected');
    await replayAndMaybeRecord(app, handle.workflowId, 'device-order-overdue-collected-notice.json');
  });

  test("a fresh device order history with exceptions (overdue raised and settled, staff's own, a door left open) and its recipient notice replays", async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const key: string = (await app.http.post(`/v1/devices/${b.device.code}/keys`, { name: 'replay' }, { token: admin }))
      .body.key.secret;
    const res = await app.http.post(
      '/v1/device-orders',
      {
        kind: 'delivery',
        device_id: b.device.code,
        grid_code: 'A02',
        order_id: (await makeOrder(app.em(), b.business.id)).id,
        reference_number: 'R',
        due_at: new Date(Date.now() + 1000).toISOString(),
      },
      { token: admin },
    );
    const id = res.body.device_order.id;
    const exceptions = async () =>
      (await app.http.get(`/v1/device-orders/${id}/exceptions`, { token: admin })).body.exceptions as {
        id: number;
        type: string;
      }[];
    await waitFor(async () => (await exceptions()).some((e) => e.type === 'overdue'));
    const damaged = await app.http.post(
      `/v1/device-orders/${id}/exceptions`,
      { type: 'item_damaged' },
      { token: admin },
    );
    assert.equal(damaged.status, 201);
    assert.equal(
      (await app.http.post(`/v1/device-orders/${id}/collect`, { pickup_code: res.body.pickup_code }, { token: admin }))
        .status,
      200,
    );
    assert.equal(
      (
        await app.http.post(
          `/v1/lockers/${b.device.code}/doors`,
          { compartment_number: 2, state: 'opened', at: new Date().toISOString() },
          { token: key },
        )
      ).status,
      200,
    );
    await waitFor(async () => (await exceptions()).some((e) => e.type === 'door_left_open'));
    assert.equal(
      (
        await app.http.post(
          `/v1/lockers/${b.device.code}/doors`,
          { compartment_number: 2, state: 'closed', at: new Date().toISOString() },
          { token: key },
        )
      ).status,
      200,
    );
    const resolve = { status: 'resolved', resolution_action: 'parcel_replaced' };
    assert.equal(
      (
        await app.http.post(`/v1/device-orders/${id}/exceptions/${damaged.body.exception.id}/resolve`, resolve, {
          token: admin,
        })
      ).status,
      200,
    );
    const handle = app.running.temporal.workflow.getHandle(deviceOrderWorkflowId(id));
    assert.equal(await handle.result(), 'collected');
    await replayAndMaybeRecord(app, handle.workflowId, 'device-order-exceptions-door-left-open-notice.json');
  });

  test('a fresh locker delivery history (opened twice, confirmed, corrected, deposit expired) replays', async () => {
    // An hour lasts 1.8 s here (LOCKER_TIMER_SCALE).
    const w = await lockerWorld(app, { pickup_ttl_hours: 1, correction_window_minutes: 60 });
    try {
      const d = await w.deliver('remote_open');
      for (const action of ['open', 'open', 'confirm']) assert.equal((await w.act(d.id, action)).status, 200);
      assert.equal((await w.act(d.id, 'correction', { compartment_numbers: d.doors })).status, 200);
      const handle = app.running.temporal.workflow.getHandle(lockerDeliveryWorkflowId(d.id));
      assert.equal(await handle.result(), 'expired');
      await replayAndMaybeRecord(app, handle.workflowId, 'locker-delivery-opened-confirmed-expired.json');
    } finally {
      await w.receiver.close();
    }
  });

  test('a fresh locker delivery history (screen code, doors reported, deposit timeout, pickup) replays', async () => {
    const w = await lockerWorld(app, { deposit_timeout_minutes: 1 });
    try {
      const d = await w.deliver('screen_code');
      assert.equal((await w.screen(d.code!)).status, 200);
      await w.door(d.doors[0]!, 'opened');
      await w.door(d.doors[0]!, 'closed');
      await waitFor(async () => (await w.read(d.id)).status === 'delivered');
      assert.equal((await w.screen(await w.pickupCode(d.id))).body.opened, 'pickup');
      await w.door(d.doors[0]!, 'closed');
      const handle = app.running.temporal.workflow.getHandle(lockerDeliveryWorkflowId(d.id));
      assert.equal(await handle.result(), 'picked_up');
      await replayAndMaybeRecord(app, handle.workflowId, 'locker-delivery-screen-timeout-pickup.json');
    } finally {
      await w.receiver.close();
    }
  });

  test('a fresh webhook retry history (start delay, refused attempt, timer, delivered attempt) replays', async () => {
    const { receiver, store } = await tenantWithReceiver(app, (n) => (n < 2 ? 500 : 200), 'replay-secret-0123456789');
    try {
      const delivery = await awaitDeviceOrderDelivery(
        app,
        (await store()).deviceOrderId,
        (d) => d.status === 'delivered',
      );
      const handle = await retryWorkflowOf(app, delivery.id);
      assert.deepEqual(await handle.result(), { delivered: 1, dead: 0 });
      await replayAndMaybeRecord(app, handle.workflowId, 'webhook-retries-refused-then-delivered.json');
    } finally {
      await receiver.close();
    }
  });

  test('a fresh package distribution history (received, a flagged scan, loaded, delivered, shelved into a locker) replays', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    for (const place of [
      { kind: 'warehouse', code: 'WH' },
      { kind: 'locker', code: 'L1', device_id: b.device.code },
    ]) {
      assert.equal((await app.http.post('/v1/places', { name: place.code, ...place }, { token: admin })).status, 201);
    }
    const number = (await makeOrder(app.em(), b.business.id)).trackingNumber;
    const steps = [
      ['received', 'WH', 'applied'],
      ['delivered', 'L1', 'flagged'],
      ['loaded', 'WH', 'applied'],
      ['delivered', 'L1', 'applied'],
      ['shelved', 'L1', 'applied'],
    ];
    for (const [i, [action, location, outcome]] of steps.entries()) {
      const res = await app.http.post(
        '/v1/distribution/scans',
        {
          package_number: number,
          action,
          location,
          ...(action === 'shelved' ? { grid_code: 'A03' } : {}),
          scanned_at: new Date(Date.UTC(2026, 10, 24, 9, i)).toISOString(),
        },
        { token: admin },
      );
      assert.equal(res.body.scan?.outcome, outcome, JSON.stringify(res.body));
    }
    const handle = app.running.temporal.workflow.getHandle(distributionWorkflowId(number));
    await handle.result();
    await replayAndMaybeRecord(app, handle.workflowId, 'package-distribution-shelved-locker.json');
  });

  test('a fresh third-party delivery history (assigned, one package handed over, the deadline missed: fallback) replays', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const provider = await makeProvider(app.em(), 'delivery_provider');
    const order = await makeOrder(app.em(), b.business.id);
    await app
      .em()
      .execute('insert into order_package (order_id, business_id, position, package_number) values (?, ?, 2, ?)', [
        order.id,
        b.business.id,
        `${order.trackingNumber}-2`,
      ]);
    const res = await app.http.post(
      '/v1/third-party-assignments',
      { order_id: order.id, provider_code: provider.business.code, handover_deadline_hours: 1 },
      { token: admin },
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const a = res.body.assignment;
    const handover = await app.http.post(
      `/v1/third-party-assignments/${a.number}/handovers`,
      { package_number: order.trackingNumber, scanned_at: new Date().toISOString() },
      { token: admin },
    );
    assert.equal(handover.status, 200, JSON.stringify(handover.body));
    const handle = app.running.temporal.workflow.getHandle(a.workflow_id);
    assert.equal(await handle.result(), 'cancelled');
    await replayAndMaybeRecord(app, handle.workflowId, 'third-party-delivery-fallback.json');
  });

  test('fresh approval histories (approved and run, expired) replay', async () => {
    const b = await makeBusiness(app.em());
    const [admin, employee] = await Promise.all([
      app.login(b.users.admin.email, PASSWORD),
      app.login(b.users.employee.email, PASSWORD),
    ]);
    const args = {
      type: 'D',
      scheduled_date: '2026-12-24',
      recipient: {
        name: 'R',
        phone: '+1 555 0100',
        address: { line1: '1 Main St', city: 'X', postal_code: '1', country: 'us' },
      },
    };
    const propose = async () =>
      (await app.http.post('/v1/mcp/approvals', { tool: 'create_order', arguments: args }, { token: employee })).body
        .approval;
    const approved = await propose();
    assert.equal(
      (await app.http.post(`/v1/mcp/approvals/${approved.id}/approve`, {}, { token: admin })).body.approval.status,
      'done',
    );
    assert.equal(await app.running.temporal.workflow.getHandle(approved.workflow_id).result(), 'done');
    await replayAndMaybeRecord(app, approved.workflow_id, 'approval-approved-done.json');
    // 24 hours at 0.0005: 43 s. One hour: under 2 s.
    await app.http.put('/v1/mcp/approval-settings', { expire_after_hours: 1 }, { token: admin });
    const expired = await propose();
    assert.equal(await app.running.temporal.workflow.getHandle(expired.workflow_id).result(), 'expired');
    await replayAndMaybeRecord(app, expired.workflow_id, 'approval-expired.json');
  });

  test("a fresh third-party delivery history (handed over, partial_delivered, delivered by the provider's tracking) replays", async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const provider = await makeProvider(app.em(), 'delivery_provider');
    const providerToken = await app.login(provider.user.email, PASSWORD);
    const key = (await app.http.post('/v1/otep/credentials', { name: 'replay' }, { token: providerToken })).body
      .credential.secret;
    const order = await makeOrder(app.em(), b.business.id);
    const packages = [order.trackingNumber, `${order.trackingNumber}-2`];
    await app
      .em()
      .execute('insert into order_package (order_id, business_id, position, package_number) values (?, ?, 2, ?)', [
        order.id,
        b.business.id,
        packages[1],
      ]);
    const a = (
      await app.http.post(
        '/v1/third-party-assignments',
        { order_id: order.id, provider_code: provider.business.code, handover_deadline_hours: 100 },
        { token: admin },
      )
    ).body.assignment;
    for (const p of packages)
      await app.http.post(
        `/v1/third-party-assignments/${a.number}/handovers`,
        { package_number: p, scanned_at: new Date().toISOString() },
        { token: admin },
      );
    const status = async () =>
      (await app.http.get(`/v1/third-party-assignments/${a.number}`, { token: admin })).body.assignment.status;
    for (const [i, p] of packages.entries()) {
      await app.http.post(
        '/v1/otep/ingest',
        {
          events: [
            {
              id: `d${i}`,
              subject: p,
              occurred_at: new Date().toISOString(),
              status_code: 'otep:core:delivered',
              otep_version: '1.0.0',
            },
          ],
        },
        { token: key },
      );
      if (i === 0) await waitFor(async () => (await status()) === 'partial_delivered');
    }
    const handle = app.running.temporal.workflow.getHandle(a.workflow_id);
    assert.equal(await handle.result(), 'delivered');
    await replayAndMaybeRecord(app, handle.workflowId, 'third-party-delivery-partial-delivered.json');
  });

  test('a fresh app registration history (code sent, expired by its timer) replays', async () => {
    const b = await makeBusiness(app.em());
    const appCode = `replay-${Date.now()}`;
    await app
      .em()
      .execute(
        `insert into platform_app (code, name, type, schema_version, config) values (?, 'Replay', 'customer', 1, ?::jsonb)`,
        [appCode, JSON.stringify(registrationAppConfig())],
      );
    await app
      .em()
      .execute(
        'insert into platform_app_client (app_id, business_id, available) select id, ?, true from platform_app where code = ?',
        [b.business.id, appCode],
      );
    // Ten minutes last 1.2 s here (REGISTRATION_TIMER_SCALE).
    const res = await app.http.post(`/v1/apps/${appCode}/clients/${b.business.code}/registrations`, {
      name: 'Replay',
      email: `replay-${Date.now()}@test.example`,
      password: 'registration-password',
      phone: '+420 601 555 010',
      device_id: 'replay',
      device_platform: 'ios',
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const handle = app.running.temporal.workflow.getHandle(registrationWorkflowId(res.body.registration_id));
    assert.equal(await handle.result(), 'expired');
    await replayAndMaybeRecord(app, handle.workflowId, 'app-registration-expired.json');
  });

  test('a fresh sms-campaign history (quiet hours, paused, resumed, done) replays', async () => {
    const b = await makeBusiness(app.em());
    await app
      .em()
      .execute(
        'insert into business_switch (business_id, sms_marketing, sms_marketing_migrated) values (?, true, true)',
        [b.business.id],
      );
    for (let i = 0; i < 3; i++) await orderTo(app, b, czechMobile());
    const token = await app.login(b.users.admin.email, PASSWORD);
    // Eight hours of quiet last under 3 s here (SMS_CAMPAIGN_TIMER_SCALE); then one message a second.
    const made = await app.http.post(
      '/v1/sms-marketing/campaigns',
      { name: 'Replay', text: 'Replayed.', per_minute: 60, quiet_hours: quietNow() },
      { token },
    );
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.campaign.id as number;
    assert.equal((await app.http.post(`/v1/sms-marketing/campaigns/${id}/start`, {}, { token })).status, 200);
    const handle = app.running.temporal.workflow.getHandle(smsCampaignWorkflowId(id));
    await waitFor(async () => (await handle.query(countsQuery)).sent >= 1);
    assert.equal((await app.http.post(`/v1/sms-marketing/campaigns/${id}/pause`, {}, { token })).status, 200);
    assert.equal((await app.http.post(`/v1/sms-marketing/campaigns/${id}/resume`, {}, { token })).status, 200);
    assert.equal(((await handle.result()) as { sent: number }).sent, 3);
    await replayAndMaybeRecord(app, handle.workflowId, 'sms-campaign-quiet-paused-done.json');
  });

  test('a fresh order-batch history (a good and a refused row, then the postback) replays', async () => {
    const b = await makeBusiness(app.em());
    const token = await app.login(b.users.admin.email, PASSWORD);
    const res = await app.http.post(
      '/v1/client/batchOrderCreateAsync',
      { orders: [orderArguments('replay-batch-0'), { ...orderArguments('replay-batch-1'), type: 'X' }] },
      { token },
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const handle = app.running.temporal.workflow.getHandle(orderBatchWorkflowId(res.body.asyncId));
    assert.deepEqual(await handle.result(), { total: 2, succeeded: 1, failed: 1 });
    await replayAndMaybeRecord(app, handle.workflowId, 'order-batch-done.json');
  });

  test('a fresh uniorder job history (labels of two carriers, an item stored invalid) replays', async () => {
    const w = await labelWorld(app);
    const shipment = { type: 'D', shipper: SHIPPER, recipient: RECIPIENT, parcels: [{ weight_grams: 1200 }] };
    const rated = await app.http.post('/v1/uniorder/rate', { ...shipment, quote_labels: true }, { token: w.admin });
    assert.equal(rated.status, 200, JSON.stringify(rated.body));
    const rateOf = (carrier: string) => rated.body.rates.find((r: any) => r.carrier === carrier).rate_id;
    const res = await app.http.post(
      '/v1/uniorder/batch-async',
      { items: [{ rate_id: rateOf('sandbox_swift') }, { rate_id: rateOf('sandbox_parcel') }, { rate_id: 7 }] },
      { token: w.admin },
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const handle = app.running.temporal.workflow.getHandle(uniorderJobWorkflowId(res.body.job_id));
    assert.deepEqual(await handle.result(), { total: 3, succeeded: 2, failed: 1 });
    await replayAndMaybeRecord(app, handle.workflowId, 'uniorder-job-done.json');
  });

  test('fresh shipping order histories (paid and its delivery order placed; expired unpaid) replay', async () => {
    const w = await labelWorld(app);
    const settings = { currency: 'EUR', unpaid_expiry_seconds: 2 };
    assert.equal(
      (await app.http.put('/v1/client/customer-services/settings', settings, { token: w.admin })).status,
      200,
    );
    const service = await app.http.post(
      '/v1/client/customer-services/shipping-services',
      {
        code: 'LOCAL',
        name: 'Local',
        fulfilment: { kind: 'own_fleet' },
        pricing: { base_fee: '5.00', per_package: '0', per_kg: '0', included_weight_kg: '0', tax_rate: '0' },
      },
      { token: w.admin },
    );
    assert.equal(service.status, 201, JSON.stringify(service.body));
    await app.em().transactional((tx) =>
      transfer(tx, {
        businessId: w.business.id,
        key: `replay-top-up-${w.tag}`,
        currency: 'EUR',
        code: 'top_up',
        amount: 500n,
        debit: { kind: 'funding' },
        credit: { kind: 'wallet', customerId: w.users.customer.id },
      }),
    );
    const create = async () => {
      const res = await app.http.post(
        '/v1/customer/shipping-orders/services/LOCAL/orders',
        { recipient: RECIPIENT, packages: [{ weight_grams: 500 }] },
        { token: w.customer },
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.shipping_order.id as number;
    };
    const paid = await create();
    const unpaid = await create();
    const pay = await app.http.post(`/v1/customer/shipping-orders/${paid}/pay`, {}, { token: w.customer });
    assert.equal(pay.body.shipping_order.status, 'confirmed', JSON.stringify(pay.body));
    for (const [id, outcome, file] of [
      [paid, 'placed', 'shipping-order-placed.json'],
      [unpaid, 'expired', 'shipping-order-expired.json'],
    ] as const) {
      const handle = app.running.temporal.workflow.getHandle(shippingOrderWorkflowId(id));
      assert.equal(await handle.result(), outcome);
      await replayAndMaybeRecord(app, handle.workflowId, file);
    }
  });

  test('fresh ship-out histories (priced later, paid in two holds, a step refused, picked, packed, handed over; expired unpaid) replay', async () => {
    const x = await shipoutWorld(app, { unpaidExpirySeconds: 2 });
    await x.topUp('100.00');
    const create = async (service: string) => {
      const res = await app.http.post(
        `/v1/customer/shipout-orders/services/${service}/orders`,
        { package_ids: await x.stored(x.wh1.id, 1), recipient: RECIPIENT },
        { token: x.customer },
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.shipout.id as number;
    };
    const shipped = await create('LATER');
    const unpaid = await create('FLEET');
    const step = async (id: number, what: string, body: Record<string, unknown> = {}, status = 200) => {
      const res = await app.http.post(`/v1/client/shipouts/${id}/${what}`, body, { token: x.employee });
      assert.equal(res.status, status, JSON.stringify(res.body));
    };
    await step(shipped, 'price', { total: '6.00' });
    for (const body of [{ amount: '2.00' }, {}]) {
      const res = await app.http.post(`/v1/customer/shipout-orders/${shipped}/pay`, body, { token: x.customer });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    await step(shipped, 'pack', {}, 409);
    for (const what of ['pick', 'pack', 'hand-over']) await step(shipped, what);
    for (const [id, outcome, file] of [
      [shipped, 'handed_over', 'shipout-handed-over.json'],
      [unpaid, 'expired', 'shipout-expired.json'],
    ] as const) {
      const handle = app.running.temporal.workflow.getHandle(shipoutWorkflowId(id));
      assert.equal(await handle.result(), outcome);
      await replayAndMaybeRecord(app, handle.workflowId, file);
    }
  });

  test('fresh order-interception histories (held and executed with a rejected second request; failed) replay', async () => {
    const b = await makeBusiness(app.em());
    const token = await app.login(b.users.admin.email, PASSWORD);
    const customer = await app.login(b.users.customer.email, PASSWORD);
    const executed = await makeOrder(app.em(), b.business.id, {
      statusId: ORDER_STATUS.ON_THE_WAY,
      customerId: b.users.customer.id,
    });
    const first = await app.http.post(
      `/v1/orders/${executed.id}/interception`,
      { outcome: 'hold_at_warehouse' },
      { token },
    );
    assert.equal(first.body.interception?.state, 'in_effect', JSON.stringify(first.body));
    const second = await app.http.post(
      `/v1/orders/${executed.id}/interception`,
      { outcome: 'return_to_sender' },
      { token: customer },
    );
    assert.equal(second.body.interception?.end_reason, 'already_intercepted', JSON.stringify(second.body));
    const handle = app.running.temporal.workflow.getHandle(interceptionWorkflowId(executed.id));
    await handle.signal(heldSignal, {
      packageNumber: executed.trackingNumber,
      place: null,
      source: 'carrier',
      occurredAt: new Date().toISOString(),
    });
    await waitFor(
      async () =>
        (await app.http.get(`/v1/orders/${executed.id}/interception`, { token })).body.interception.state ===
        'held_at_warehouse',
    );
    assert.equal((await app.http.post(`/v1/orders/${executed.id}/interception/execute`, {}, { token })).status, 200);
    await handle.result();
    await replayAndMaybeRecord(app, handle.workflowId, 'order-interception-held-executed.json');

    const failed = await makeOrder(app.em(), b.business.id, { statusId: ORDER_STATUS.ON_THE_WAY });
    assert.equal(
      (await app.http.post(`/v1/orders/${failed.id}/interception`, { outcome: 'return_to_sender' }, { token })).status,
      201,
    );
    const waiting = app.running.temporal.workflow.getHandle(interceptionWorkflowId(failed.id));
    assert.equal(((await waiting.result()) as { state: string }).state, 'failed');
    await replayAndMaybeRecord(app, waiting.workflowId, 'order-interception-failed.json');
  });

  test('a fresh key rotation history (paused, resumed, batches over every column) replays', async () => {
    const { receiver } = await tenantWithReceiver(app, () => 200, 'replay-secret-0123456789');
    try {
      const handle = await app.running.temporal.workflow.signalWithStart<typeof secretsRotationWorkflow, []>(
        SECRETS_ROTATION_WORKFLOW,
        {
          workflowId: `secrets-rotation-replay-${Date.now()}`,
          taskQueue: SECRETS_ROTATION_QUEUE,
          args: [{ batchSize: 100 }],
          signal: pauseSignal,
          signalArgs: [],
        },
      );
      await waitFor(async () => (await handle.query(progressQuery).catch(() => null))?.paused);
      await handle.signal(resumeSignal);
      const done = await handle.result();
      assert.equal(done.column, done.columns.length);
      await replayAndMaybeRecord(app, handle.workflowId, 'secrets-rotation-paused-resumed.json');
    } finally {
      await receiver.close();
    }
  });

  test('fresh order cancellation histories (the provider accepts; no answer in time; cancelled at once) replay', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const p = await makeProvider(app.em(), 'delivery_provider');
    const providerToken = await app.login(p.user.email, PASSWORD);
    // An order held by the provider, asked to be cancelled (CANCEL_PROVIDER_TIMER_SCALE: 30 minutes in 3.6 s).
    const held = async () => {
      const order = await makeOrder(app.em(), b.business.id);
      const res = await app.http.post(
        '/v1/third-party-assignments',
        { order_id: order.id, provider_code: p.business.code, handover_deadline_hours: 100 },
        { token: admin },
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal((await app.http.post(`/v1/orders/${order.id}/cancel`, {}, { token: admin })).status, 202);
      return { orderId: order.id, number: res.body.assignment.number as string };
    };
    const accepted = await held();
    const answer = await app.http.post(
      `/v1/provider/third-party-assignments/${accepted.number}/cancel-request`,
      { accept: true },
      { token: providerToken },
    );
    assert.equal(answer.body.cancellation?.status, 'cancelled', JSON.stringify(answer.body));
    const one = app.running.temporal.workflow.getHandle(orderCancellationWorkflowId(accepted.orderId));
    assert.equal(await one.result(), 'cancelled');
    await replayAndMaybeRecord(app, one.workflowId, 'order-cancellation-accepted.json');
    const unanswered = await held();
    const two = app.running.temporal.workflow.getHandle(orderCancellationWorkflowId(unanswered.orderId));
    assert.equal(await two.result(), 'timed_out');
    await replayAndMaybeRecord(app, two.workflowId, 'order-cancellation-timed-out.json');
    // An order no provider holds, cancelled at once: its process finishes the work after the commit.
    const plain = await makeOrder(app.em(), b.business.id);
    assert.equal((await app.http.post(`/v1/orders/${plain.id}/cancel`, {}, { token: admin })).status, 200);
    const three = app.running.temporal.workflow.getHandle(orderCancellationWorkflowId(plain.id));
    assert.equal(await three.result(), 'cancelled');
    await replayAndMaybeRecord(app, three.workflowId, 'order-cancellation-at-once.json');
  });

  test('a fresh route board history (claims, standby, withdraw, early close, award, driver named, settled) replays', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const broker = await app.login(b.users.broker.email, PASSWORD);
    const broker2 = await app.login(b.users.broker2.email, PASSWORD);
    const routes = await makeRoutes(app, b.business.id, 2);
    const hours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
    const created = await app.http.post(
      '/v1/route-boards',
      { route_date: BOARD_DATE, route_ids: routes.map((r) => r.id), closes_at: hours(1), settles_at: hours(2) },
      { token: admin },
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id: number = created.body.board.id;
    const seat: number = created.body.board.seats[0].id;
    const board = () => app.http.get(`/v1/route-boards/${id}`, { token: admin });
    await waitFor(async () => (await board()).body.board.status === 'open');
    const claim = async (token: string, body: object) =>
      (await app.http.post(`/v1/route-boards/${id}/claims`, body, { token })).body.claim as { id: number };
    const held = await claim(broker, { seat_id: seat });
    const standby = await claim(broker2, { seat_id: seat });
    const pooled = await claim(broker, {});
    await app.http.post(`/v1/route-boards/${id}/claims/${held.id}/withdraw`, {}, { token: broker });
    assert.equal((await app.http.post(`/v1/route-boards/${id}/close`, {}, { token: admin })).status, 200);
    for (const [c, token] of [
      [standby, broker2],
      [pooled, broker],
    ] as const) {
      const driver = await addUser(app, b.business.id, 'driver');
      const res = await app.http.post(
        `/v1/route-boards/${id}/claims/${c.id}/assign`,
        { driver_id: driver.id },
        { token },
      );
      // The last driver named settles the board, which may show in the answer already.
      assert.ok(['assigned', 'settled'].includes(res.body.claim?.status), JSON.stringify(res.body));
    }
    const handle = app.running.temporal.workflow.getHandle(routeBoardWorkflowId(id));
    assert.equal(await handle.result(), 'settled');
    await replayAndMaybeRecord(app, handle.workflowId, 'route-board-settled.json');
  });

  test('a fresh route build history (prepared, solved, stored) replays', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const driver = await makeDriver(app.em(), b.business.id);
    const orders = [await makePlanOrder(app.em(), b.business.id), await makePlanOrder(app.em(), b.business.id)];
    const res = await app.http.post(
      '/v3/client/build-route',
      { date: '2026-12-17', order_ids: orders, driver_ids: [driver], options: { time_limit_seconds: 1 } },
      { token: admin },
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const handle = app.running.temporal.workflow.getHandle(buildRouteWorkflowId(res.body.id));
    assert.deepEqual(await handle.result(), { outcome: 'done' });
    await replayAndMaybeRecord(app, handle.workflowId, 'build-route-done.json');
  });

  test('fresh auto-assign (rejected, then accepted) and driver day (route completed) histories replay', async () => {
    const w = await dispatchWorld(app);
    try {
      const first = await w.driver({ position: { lat: 1, lng: 1 } });
      const second = await w.driver({ position: { lat: 2, lng: 2 } });
      const o = await w.order({ at: { lat: 1, lng: 1 } });
      const started = await app.http.post('/v1/dispatch/auto-assign', { order_id: o.id }, { token: w.admin });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      const offered = (d: Driver) =>
        waitFor(async () => (await app.http.get('/v1/driver/offers', { token: d.token })).body.offers.length === 1);
      await offered(first);
      assert.equal((await app.http.post(`/v1/driver/offers/${o.id}/reject`, {}, { token: first.token })).status, 200);
      await offered(second);
      assert.equal((await app.http.post(`/v1/driver/offers/${o.id}/accept`, {}, { token: second.token })).status, 200);
      const assign = app.running.temporal.workflow.getHandle(autoAssignWorkflowId(o.id));
      assert.equal(await assign.result(), 'accepted');
      await replayAndMaybeRecord(app, assign.workflowId, 'auto-assign-rejected-accepted.json');
      for (const step of ['pickup_started', 'picked_up', 'on_the_way', 'on_the_way', 'completed']) {
        const res = await app.http.post(`/v1/driver/orders/${o.id}/report`, { step }, { token: second.token });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      const day = app.running.temporal.workflow.getHandle(routeDayWorkflowId((await w.orderRow(o.id)).route_id!));
      assert.equal(await day.result(), 'completed');
      await replayAndMaybeRecord(app, day.workflowId, 'route-day-completed.json');
    } finally {
      await w.receiver.close();
    }
  });

  test('fresh storage order (expired; paid) and storage fee run histories replay', async () => {
    const w = await storageWorld(app, { storageDaySeconds: 1, unpaidExpirySeconds: 1 });
    const order = async () => {
      const res = await app.http.post(
        '/v1/customer/storage-orders',
        { service_code: 'ST', packages: storageBoxes(2) },
        { token: w.customer },
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.storage_order as { id: number; packages: { tracking_number: string }[] };
    };
    const expiring = await order();
    const expired = app.running.temporal.workflow.getHandle(storageOrderWorkflowId(expiring.id));
    assert.equal(await expired.result(), 'expired');
    await replayAndMaybeRecord(app, expired.workflowId, 'storage-order-expired.json');

    await w.topUp(10_000n);
    const paid = await order();
    const pay = await app.http.post(`/v1/customer/storage-orders/${paid.id}/pay`, {}, { token: w.customer });
    assert.equal(pay.status, 200, JSON.stringify(pay.body));
    const paidRun = app.running.temporal.workflow.getHandle(storageOrderWorkflowId(paid.id));
    assert.equal(await paidRun.result(), 'paid');
    await replayAndMaybeRecord(app, paidRun.workflowId, 'storage-order-paid.json');

    for (const p of paid.packages) assert.equal((await w.receive(p.tracking_number)).status, 200);
    await new Promise((r) => setTimeout(r, 1_200));
    const workflowId = storageFeeRunWorkflowId(`replay-${Date.now()}`);
    const totals = await app.running.temporal.workflow.execute(STORAGE_FEE_RUN_WORKFLOW, {
      workflowId,
      taskQueue: STORAGE_QUEUE,
      args: [{ business_id: w.business.id }],
    });
    assert.ok(totals.fees >= 2, JSON.stringify(totals));
    await replayAndMaybeRecord(app, workflowId, 'storage-fee-run.json');
  });
});

/** The first demo app's configuration (without its name, type and schema version), with SMS codes on. */
function registrationAppConfig() {
  const { code: _code, name: _name, type: _type, schema_version: _version, ...config } = structuredClone(DEMO_APPS[0]!);
  config.authentication.registration.sms_configured = true;
  return config;
}
