// A route build survives a killed worker (docs/routes.md, Building routes): the worker runs as its own OS process
// and is killed (SIGKILL) while its solver child runs; once the solve's heartbeat is missed, a new worker solves again
// and stores the plan once: each order on one route with one stop and one order.assigned. Real parts: the suite's
// Temporal, PostgreSQL, the API over HTTP, a worker process of its own and the real solver.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { buildRouteWorkflowId } from '../../src/modules/routes/contract.ts';
import type { buildRouteWorkflow } from '../../src/modules/routes/workflows.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { keepEvents, makeBusiness, PASSWORD } from '../helpers/factories.ts';
import { spawnRole, stopChild } from '../helpers/roles.ts';
import { waitFor } from '../helpers/wait.ts';
import { buildEnded, makeDriver, manyOrders, solverChildrenOf } from '../modules/routes/fixtures.ts';

const DATE = '2026-12-16';
const ORDERS = 400;

describe('a route build survives a killed worker', () => {
  const children = new Set<ChildProcess>();
  let app: TestApp;

  before(async () => {
    // The API only: the worker runs in a child process the test kills.
    app = await startApp({}, { worker: false });
  });
  after(async () => {
    for (const child of children) await stopChild(child, 'SIGKILL');
    await app?.running.close();
  });

  test('a SIGKILL while solving: the build completes once, its routes written once', { timeout: 240_000 }, async () => {
    const b = await makeBusiness(app.em());
    await keepEvents(app.em(), b.business.id);
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const drivers = [];
    for (let i = 0; i < 8; i++) drivers.push(await makeDriver(app.em(), b.business.id));
    const orders = await manyOrders(app.em(), b.business.id, DATE, ORDERS);

    let worker = await spawnRole('worker', {}, children);
    const res = await app.http.post(
      '/v3/client/build-route',
      { date: DATE, order_ids: orders, driver_ids: drivers, options: { time_limit_seconds: 6 } },
      { token: admin },
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const id: number = res.body.id;
    const pid = worker.child.pid!;
    await waitFor(async () => solverChildrenOf(pid).length > 0, 60_000, 50);
    await stopChild(worker.child, 'SIGKILL');
    worker = await spawnRole('worker', {}, children);

    const handle = app.running.temporal.workflow.getHandle<typeof buildRouteWorkflow>(buildRouteWorkflowId(id));
    assert.deepEqual(await handle.result(), { outcome: 'done' });
    const done = await buildEnded(app.http, admin, id);
    assert.equal(done.status, 'done', JSON.stringify(done).slice(0, 500));
    assert.equal(done.routes.length, done.summary.routes);

    const [counts] = await app.em().execute<{ placed: number; stops: number; events: number; routes: number }[]>(
      `select (select count(*) from delivery_order where id in (${orders.join(',')}) and route_id is not null)::int as placed,
         (select count(*) from route_stop where order_id in (${orders.join(',')}))::int as stops,
         (select count(*) from outbox_event where event_type = 'order.assigned'
            and reference_id in (${orders.map((o) => `'${o}'`).join(',')}))::int as events,
         (select count(*) from route where build_id = ?)::int as routes`,
      [id],
    );
    const unassigned = done.skipped.filter((s: { code: string }) => s.code === 'UNASSIGNED').length;
    assert.deepEqual(
      counts,
      {
        placed: ORDERS - unassigned,
        stops: ORDERS - unassigned,
        events: ORDERS - unassigned,
        routes: done.summary.routes,
      },
      'each order placed once',
    );
    await stopChild(worker.child, 'SIGTERM');
  });
});
