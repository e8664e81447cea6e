import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bootstrap } from '../../src/main/bootstrap.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { makeBusiness, makeOrder, makeProvider, PASSWORD } from '../helpers/factories.ts';
import { waitFor } from '../helpers/wait.ts';

describe('durability: a journey survives a stopped worker', () => {
  let app: TestApp;
  // An hour of handover deadline in 1.8 s.
  before(async () => {
    app = await startApp({ HANDOVER_TIMER_SCALE: '0.0005' });
  });
  after(() => app.running.close());

  test('a scan sent while no worker runs is applied once one is back; a handover deadline missed meanwhile falls back', async () => {
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    for (const place of [
      { kind: 'warehouse', code: 'WH' },
      { kind: 'locker', code: 'L1', device_id: b.device.code },
    ]) {
      assert.equal((await app.http.post('/v1/places', { name: place.code, ...place }, { token: admin })).status, 201);
    }
    const number = (await makeOrder(app.em(), b.business.id)).trackingNumber;
    const scan = (action: string, minute: number, extra: Record<string, unknown> = {}) =>
      app.http.post(
        '/v1/distribution/scans',
        {
          package_number: number,
          action,
          location: action === 'received' || action === 'loaded' ? 'WH' : 'L1',
          scanned_at: new Date(Date.UTC(2026, 10, 24, 10, minute)).toISOString(),
          ...extra,
        },
        { token: admin },
      );
    assert.equal((await scan('received', 0)).body.package.status, 'created');
    assert.equal((await scan('loaded', 1)).body.package.status, 'in_transit');
    const provider = await makeProvider(app.em(), 'delivery_provider');
    const held = await makeOrder(app.em(), b.business.id);
    const assignment = (
      await app.http.post(
        '/v1/third-party-assignments',
        { order_id: held.id, provider_code: provider.business.code, handover_deadline_hours: 1 },
        { token: admin },
      )
    ).body.assignment;
    const assignmentStatus = async () =>
      (
        await app
          .em()
          .execute<{ status: string }[]>('select status from third_party_assignment where number = ?', [
            assignment.number,
          ])
      )[0]!.status;

    await app.running.stopWorkers();

    // The scan waits for a worker to judge it; the deadline passes with none running.
    const delivered = scan('delivered', 2);
    await new Promise((r) => setTimeout(r, 2500));
    const status = async () =>
      (
        await app
          .em()
          .execute<{ status: string }[]>(
            'select pd.status from package_distribution pd join order_package pk on pk.id = pd.package_id where pk.package_number = ?',
            [number],
          )
      )[0]!.status;
    assert.equal(await status(), 'in_transit', 'nothing moves while no worker runs');
    assert.equal(await assignmentStatus(), 'assigned');

    const restarted = await bootstrap(app.config, createLogger('silent'), { api: false, worker: true });
    try {
      const answer = await delivered;
      assert.deepEqual(
        [answer.status, answer.body.scan.outcome, answer.body.package.status],
        [200, 'applied', 'delivered'],
      );
      assert.equal((await scan('shelved', 3, { grid_code: 'A01' })).body.package.status, 'shelved');
      await waitFor(async () => (await assignmentStatus()) === 'cancelled');
      const [row] = await app
        .em()
        .execute<{ cancel_reason: string; self_delivery: boolean }[]>(
          'select a.cancel_reason, o.self_delivery from third_party_assignment a join delivery_order o on o.id = a.order_id where a.number = ?',
          [assignment.number],
        );
      assert.deepEqual([row!.cancel_reason, row!.self_delivery], ['fallback_to_self_delivery', true]);
      const scans = await app
        .em()
        .execute<{ n: number }[]>(
          'select count(*)::int as n from distribution_scan s join order_package pk on pk.id = s.package_id where pk.package_number = ?',
          [number],
        );
      assert.equal(scans[0]!.n, 4, 'each scan kept once');
    } finally {
      await restarted.close();
    }
  });
});
