// Isolation of every order operation (issue 36 §7): another business's admin, a customer of another business and a
// customer of the same business who did not place the order all get 404 (or find nothing) on every operation of the
// order families that names an order, by id in the path, by id or ref or tracking number in the body; and nothing
// about the order changes. The list of operations is read from the catalog, so a new order operation is covered the
// day it is added.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MODULES } from '../../../src/modules/index.ts';
import type { Operation } from '../../../src/platform/catalog/types.ts';
import type { Role } from '../../../src/platform/roles.ts';
import { User } from '../../../src/modules/identity/index.ts';
import { hashPassword } from '../../../src/platform/secrets.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../../helpers/factories.ts';

const ORDER_MODULES = ['orders', 'order-batches', 'order-cancellation', 'order-interception', 'delivery-prices'];
const byOrderId = MODULES.filter((m) => ORDER_MODULES.includes(m.name))
  .flatMap((m) => m.operations ?? [])
  .filter((op): op is Operation & { rest: NonNullable<Operation['rest']>; roles: readonly Role[] } =>
    Boolean(op.rest?.path.startsWith('/v1/orders/{id}') && op.roles !== 'public'),
  );

/** A body each operation accepts, so that only the order's ownership can refuse it. */
const VALID_BODY: Record<string, Record<string, unknown>> = {
  update_delivery_instruction: { delivery_instruction: 'back door' },
  update_order_note: { note: 'fragile' },
  reroute_to_address: { address: { line1: '1 Main St', city: 'Paris', postal_code: '75001', country: 'FR' } },
  order_intercept_request: { outcome: 'return_to_sender' },
  cancel_order: { reason: 'isolation' },
};

describe('order operations across businesses and customers', () => {
  let app: TestApp;
  let victim: { id: number; trackingNumber: string; orderRef: string };
  const strangers: { label: string; role: Role; token: string }[] = [];
  let owner: string;
  let trailBefore: number;

  before(async () => {
    app = await startApp();
    const em = app.em();
    const home = await makeBusiness(em);
    const other = await makeBusiness(em);
    const order = await makeOrder(em, home.business.id, { customerId: home.users.customer.id });
    victim = { id: order.id, trackingNumber: order.trackingNumber, orderRef: order.orderRef! };
    const neighbour = em.create(User, {
      businessId: home.business.id,
      email: `neighbour-${home.tag}@test.example`,
      name: 'Neighbour',
      role: 'customer',
      passwordHash: await hashPassword(PASSWORD),
    });
    await em.flush();
    owner = await app.login(home.users.customer.email, PASSWORD);
    strangers.push(
      {
        label: "another business's admin",
        role: 'client_admin',
        token: await app.login(other.users.admin.email, PASSWORD),
      },
      {
        label: "another business's employee",
        role: 'employee',
        token: await app.login(other.users.employee.email, PASSWORD),
      },
      {
        label: 'a customer of another business',
        role: 'customer',
        token: await app.login(other.users.customer.email, PASSWORD),
      },
      {
        label: 'another customer of the same business',
        role: 'customer',
        token: await app.login(neighbour.email, PASSWORD),
      },
    );
    const [row] = await em.execute<{ n: number }[]>(
      'select count(*)::int as n from order_operation_event where order_id = ?',
      [victim.id],
    );
    trailBefore = row!.n;
  });
  after(async () => {
    await app.running.close();
  });

  test('every operation on /v1/orders/{id}: 404 NOT_FOUND to each stranger its roles admit', async () => {
    assert.ok(byOrderId.length >= 12, `only ${byOrderId.length} operations found`);
    let checked = 0;
    for (const op of byOrderId) {
      const path = op.rest.path.replace('{id}', String(victim.id));
      for (const s of strangers.filter((x) => op.roles.includes(x.role))) {
        const body = VALID_BODY[op.name] ?? {};
        const opts = { token: s.token };
        const res =
          op.rest.method === 'GET'
            ? await app.http.get(path, opts)
            : op.rest.method === 'DELETE'
              ? await app.http.del(path, opts)
              : op.rest.method === 'PUT'
                ? await app.http.put(path, body, opts)
                : await app.http.post(path, body, opts);
        assert.equal(res.status, 404, `${op.name} as ${s.label}: ${res.status} ${JSON.stringify(res.body)}`);
        assert.equal(res.body.code, 'NOT_FOUND', op.name);
        checked++;
      }
    }
    assert.ok(checked >= 30, `checked ${checked}`);
  });

  test('operations naming orders in the body or query find nothing of the order', async () => {
    for (const s of strangers) {
      const opts = { token: s.token };
      const refs = await app.http.post(
        '/v1/orders/time-window-by-refs',
        { order_refs: [victim.orderRef], time_window: null },
        opts,
      );
      if (refs.status === 200) {
        assert.equal(refs.body.orders.length, 0, `${s.label}: ${JSON.stringify(refs.body)}`);
        assert.ok(JSON.stringify(refs.body.errors).includes(victim.orderRef), s.label);
      } else assert.ok([403, 404, 422].includes(refs.status), `${s.label}: ${JSON.stringify(refs.body)}`);

      const find = await app.http.post('/v1/orders/find', { tracking_number: victim.trackingNumber }, opts);
      if (find.status === 200) assert.equal(find.body.orders.length, 0, `${s.label}: ${JSON.stringify(find.body)}`);
      else assert.equal(find.status, 403, s.label);

      const list = await app.http.get(`/v1/orders?order_ref=${encodeURIComponent(victim.orderRef)}`, opts);
      if (list.status === 200) assert.equal(list.body.orders.length, 0, s.label);
      else assert.equal(list.status, 403, s.label);

      const trail = await app.http.post('/v1/tracking/operationevents', { order_ids: [victim.id] }, opts);
      assert.ok([403, 404].includes(trail.status), `${s.label}: ${trail.status}`);
      const byNumber = await app.http.post(
        '/v1/tracking/operationevents',
        { tracking_numbers: [victim.trackingNumber] },
        opts,
      );
      assert.ok([403, 404].includes(byNumber.status), `${s.label}: ${byNumber.status}`);

      const otep = await app.http.get(`/v1/otep/client/trackings/${victim.trackingNumber}`, opts);
      assert.equal(otep.status, 404, `${s.label}: ${otep.status}`);
    }
  });

  test('the order is as it was, and its owner still sees it', async () => {
    const [row] = await app
      .em()
      .execute<{ n: number; status_id: number; note: string | null }[]>(
        'select (select count(*)::int from order_operation_event where order_id = o.id) as n, o.status_id, o.note from delivery_order o where o.id = ?',
        [victim.id],
      );
    assert.equal(row!.n, trailBefore);
    assert.equal(row!.status_id, 1);
    assert.equal(row!.note, null);
    const seen = await app.http.get(`/v1/orders/${victim.id}`, { token: owner });
    assert.equal(seen.status, 200);
  });
});
