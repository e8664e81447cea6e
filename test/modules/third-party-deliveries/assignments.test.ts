import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { eventDefinition } from '../../helpers/events.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, makeProvider, PASSWORD } from '../../helpers/factories.ts';
import { startReceiver } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';

const ajv = new Ajv({ strict: false });
formats.default(ajv);

describe('third-party delivery assignments', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  const providers: { code: string; token: string; id: number }[] = [];
  let admin: string;
  let staff: string;

  before(async () => {
    // An hour of handover deadline in 1.8 s.
    app = await startApp({ HANDOVER_TIMER_SCALE: '0.0005' });
    receiver = await startReceiver();
    b = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    staff = await app.login(b.users.employee.email, PASSWORD);
    for (const name of ['one', 'two']) {
      const p = await makeProvider(app.em(), 'delivery_provider');
      const token = await app.login(p.user.email, PASSWORD);
      assert.equal(
        (await app.http.put('/v1/provider/webhook-settings', { url: `${receiver.url}/${name}` }, { token })).status,
        200,
      );
      providers.push({ code: p.business.code, token, id: p.business.id });
    }
  });
  after(async () => {
    await app.running.close();
    await receiver.close();
  });

  /** An order of two packages, as the API creates it. */
  const twoPackageOrder = async () => {
    const order = await makeOrder(app.em(), b.business.id);
    const second = `${order.trackingNumber}-2`;
    await app
      .em()
      .execute('insert into order_package (order_id, business_id, position, package_number) values (?, ?, 2, ?)', [
        order.id,
        b.business.id,
        second,
      ]);
    return { order, packages: [order.trackingNumber, second] };
  };
  const assign = (
    orderId: number,
    provider = providers[0]!,
    extra: Record<string, unknown> = { handover_deadline_hours: 100 },
  ) =>
    app.http.post(
      '/v1/third-party-assignments',
      { order_id: orderId, provider_code: provider.code, ...extra },
      { token: admin },
    );
  const handover = (number: string, packageNumber: string) =>
    app.http.post(
      `/v1/third-party-assignments/${number}/handovers`,
      { package_number: packageNumber, scanned_at: new Date().toISOString() },
      { token: staff },
    );
  const inPool = async (orderId: number) =>
    (await app.http.get('/v1/planning/orders', { token: admin })).body.orders.some(
      (o: { id: number }) => o.id === orderId,
    );
  const providerEvent = async (path: string, number: string, name: string): Promise<any> => {
    const found = await waitFor(async () =>
      receiver.received
        .filter((r) => r.url === path)
        .map((r) => JSON.parse(r.body))
        .find((e) => e.event === name && e.data.assignment_number === number),
    );
    const validate = ajv.compile(eventDefinition(name)!.payload);
    assert.ok(validate(found), `${name} matches its schema: ${ajv.errorsText(validate.errors)}`);
    return found;
  };

  test('assigned, each package handed over, then cancelled at the carrier: the order leaves the pool and comes back', async () => {
    const { order, packages } = await twoPackageOrder();
    assert.equal(await inPool(order.id), true);
    const res = await assign(order.id);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const a = res.body.assignment;
    assert.deepEqual(
      [a.status, a.source, a.provider.code, a.packages.map((p: { package_number: string }) => p.package_number)],
      ['assigned', 'manual', providers[0]!.code, packages],
    );
    const created = await providerEvent('/one', a.number, 'delivery.assignment.created');
    assert.deepEqual(
      created.data.packages,
      packages.map((tracking_number) => ({ tracking_number })),
    );
    assert.equal(await inPool(order.id), false, 'held by the provider, the order is not planned by the business');
    // A contractor cannot take an order a provider holds, nor can another provider.
    const toContractor = await app.http.post(
      '/v1/broker-order-assignments',
      { broker_id: b.users.broker.id, order_ids: [order.id] },
      { token: admin },
    );
    assert.deepEqual(
      [toContractor.body.assigned, toContractor.body.errors.length],
      [0, 1],
      JSON.stringify(toContractor.body),
    );
    assert.equal((await assign(order.id, providers[1]!)).body.code, 'ORDER_HELD');

    assert.equal(
      (await handover(a.number, packages[0]!)).body.assignment.status,
      'assigned',
      'one of two packages: the handover waits',
    );
    assert.equal(
      (await handover(a.number, packages[0]!)).body.assignment.status,
      'assigned',
      'the same package again changes nothing',
    );
    const ahead = await app.http.post(
      `/v1/third-party-assignments/${a.number}/handovers`,
      { package_number: packages[1], scanned_at: new Date(Date.now() + 3_600_000).toISOString() },
      { token: staff },
    );
    assert.deepEqual([ahead.status, ahead.body.errors?.[0]?.field], [422, 'scanned_at']);
    const wrong = await handover(a.number, 'NOT-ITS-PACKAGE');
    assert.deepEqual([wrong.status, wrong.body.errors?.[0]?.field], [422, 'package_number']);
    const done = await handover(a.number, packages[1]!);
    assert.equal(done.body.assignment.status, 'handed_over');
    assert.ok(done.body.assignment.packages.every((p: { handed_over_at: string | null }) => p.handed_over_at));
    assert.ok((await providerEvent('/one', a.number, 'delivery.assignment.handed_over')).data.handed_over_at);
    assert.equal((await handover(a.number, packages[1]!)).body.code, 'INVALID_STEP');

    // The provider sees it, another provider does not; the provider cancels it at its carrier.
    assert.equal(
      (await app.http.get(`/v1/provider/third-party-assignments/${a.number}`, { token: providers[0]!.token })).status,
      200,
    );
    assert.equal(
      (await app.http.get(`/v1/provider/third-party-assignments/${a.number}`, { token: providers[1]!.token })).status,
      404,
    );
    assert.equal(
      (
        await app.http.post(
          `/v1/provider/third-party-assignments/${a.number}/cancel`,
          {},
          { token: providers[1]!.token },
        )
      ).status,
      404,
    );
    const cancelled = await app.http.post(
      `/v1/provider/third-party-assignments/${a.number}/cancel`,
      {},
      { token: providers[0]!.token },
    );
    assert.deepEqual(
      [cancelled.body.assignment.status, cancelled.body.assignment.cancel_reason],
      ['cancelled', 'cancelled'],
    );
    assert.equal((await providerEvent('/one', a.number, 'delivery.assignment.cancelled')).data.reason, 'cancelled');
    assert.equal(await inPool(order.id), true, "back to the business's own delivery");
    await app.running.temporal.workflow.getHandle(a.workflow_id).result();
    const listed = await app.http.get('/v1/provider/third-party-assignments?status=cancelled', {
      token: providers[0]!.token,
    });
    assert.ok(listed.body.assignments.some((x: { number: string }) => x.number === a.number));
  });

  test("the provider reports its legs and each package's tracking: partial_delivered, then delivered with the order", async () => {
    const { order, packages } = await twoPackageOrder();
    const provider = providers[0]!;
    const a = (await assign(order.id, provider)).body.assignment;
    for (const p of packages) await handover(a.number, p);
    const leg = (body: unknown) =>
      app.http.post(`/v1/provider/third-party-assignments/${a.number}/legs`, body, { token: provider.token });
    // The provider's carrier has no multi-piece shipments: one leg per package.
    assert.equal((await leg({ carrier_order_number: 'CAR-1', package_numbers: [packages[0]] })).status, 201);
    const second = await leg({ carrier_order_number: 'CAR-2', package_numbers: [packages[1]] });
    assert.deepEqual(second.body.assignment.legs, [
      { carrier_order_number: 'CAR-1', package_numbers: [packages[0]] },
      { carrier_order_number: 'CAR-2', package_numbers: [packages[1]] },
    ]);
    assert.equal(
      (await leg({ carrier_order_number: 'CAR-1', package_numbers: [packages[1]] })).body.code,
      'LEG_EXISTS',
    );
    assert.equal(
      (await leg({ carrier_order_number: 'CAR-3', package_numbers: [packages[1]] })).body.code,
      'PACKAGE_ON_LEG',
    );
    const foreign = await leg({ carrier_order_number: 'CAR-4', package_numbers: ['NOT-ITS-PACKAGE'] });
    assert.deepEqual([foreign.status, foreign.body.errors?.[0]?.field], [422, 'package_numbers']);

    const key = (await app.http.post('/v1/otep/credentials', { name: 'tracking' }, { token: provider.token })).body
      .credential.secret;
    const delivered = (subject: string, id: string) =>
      app.http.post(
        '/v1/otep/ingest',
        {
          events: [
            {
              id,
              subject,
              occurred_at: new Date().toISOString(),
              status_code: 'otep:core:delivered',
              otep_version: '1.0.0',
            },
          ],
        },
        { token: key },
      );
    assert.equal((await delivered(packages[0]!, 'd1')).body.accepted, 1);
    const partial = await providerEvent('/one', a.number, 'delivery.assignment.partial_delivered');
    assert.deepEqual(partial.data.packages, [
      { tracking_number: packages[0], outcome: 'delivered' },
      { tracking_number: packages[1], outcome: 'in_transit' },
    ]);
    assert.deepEqual(
      partial.data.legs.map((l: { carrier_order_number: string }) => l.carrier_order_number),
      ['CAR-1', 'CAR-2'],
    );
    const status = async () =>
      (await app.http.get(`/v1/third-party-assignments/${a.number}`, { token: staff })).body.assignment.status;
    assert.equal(await status(), 'partial_delivered');
    const [before] = await app
      .em()
      .execute<{ status_id: number }[]>('select status_id from delivery_order where id = ?', [order.id]);
    assert.notEqual(before!.status_id, 3, 'one package of two: the order is not delivered');

    assert.equal((await delivered(packages[1]!, 'd2')).body.accepted, 1);
    assert.equal(await app.running.temporal.workflow.getHandle(a.workflow_id).result(), 'delivered');
    assert.equal(await status(), 'delivered');
    const [after] = await app
      .em()
      .execute<{ status_id: number }[]>('select status_id from delivery_order where id = ?', [order.id]);
    assert.equal(after!.status_id, 3);
    assert.equal(
      (await leg({ carrier_order_number: 'CAR-9', package_numbers: [packages[0]] })).body.code,
      'INVALID_STEP',
    );
  });

  test('a parcel the provider reported delivered before the warehouse finished the handover is counted once the handover is complete', async () => {
    const order = await makeOrder(app.em(), b.business.id);
    const provider = providers[0]!;
    const a = (await assign(order.id, provider)).body.assignment;
    const key = (await app.http.post('/v1/otep/credentials', { name: 'early' }, { token: provider.token })).body
      .credential.secret;
    const pushed = await app.http.post(
      '/v1/otep/ingest',
      {
        events: [
          {
            id: 'early',
            subject: order.trackingNumber,
            occurred_at: new Date().toISOString(),
            status_code: 'otep:core:delivered',
            otep_version: '1.0.0',
          },
        ],
      },
      { token: key },
    );
    assert.equal(pushed.body.accepted, 1);
    assert.equal((await handover(a.number, order.trackingNumber)).body.assignment.status, 'handed_over');
    assert.equal(await app.running.temporal.workflow.getHandle(a.workflow_id).result(), 'delivered');
  });

  test('reassigned before the handover: the new provider holds the order under a new assignment with its own process', async () => {
    const { order } = await twoPackageOrder();
    const first = (await assign(order.id)).body.assignment;
    const res = await app.http.post(
      `/v1/third-party-assignments/${first.number}/reassign`,
      { provider_code: providers[1]!.code, handover_deadline_hours: 100 },
      { token: admin },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.assignment.status, res.body.assignment.cancel_reason], ['cancelled', 'reassigned']);
    const next = res.body.next;
    assert.deepEqual([next.status, next.provider.code], ['assigned', providers[1]!.code]);
    assert.equal(
      (await providerEvent('/one', first.number, 'delivery.assignment.cancelled')).data.reason,
      'reassigned',
    );
    await providerEvent('/two', next.number, 'delivery.assignment.created');
    assert.equal(await inPool(order.id), false);
    const [row] = await app
      .em()
      .execute<{ carrier_provider_id: number }[]>('select carrier_provider_id from delivery_order where id = ?', [
        order.id,
      ]);
    assert.equal(row!.carrier_provider_id, providers[1]!.id);
    await waitFor(
      async () =>
        (await app.running.temporal.workflow.getHandle(next.workflow_id).describe()).status.name === 'RUNNING',
    );
    // Reassigning the ended one again is refused.
    const again = await app.http.post(
      `/v1/third-party-assignments/${first.number}/reassign`,
      { provider_code: providers[0]!.code },
      { token: admin },
    );
    assert.equal(again.body.code, 'INVALID_STEP');
  });

  test('packages not all handed over by the deadline: the order falls back to self delivery', async () => {
    const { order, packages } = await twoPackageOrder();
    const a = (await assign(order.id, providers[0]!, { handover_deadline_hours: 1 })).body.assignment;
    await handover(a.number, packages[0]!);
    assert.equal(await app.running.temporal.workflow.getHandle(a.workflow_id).result(), 'cancelled');
    const read = (await app.http.get(`/v1/third-party-assignments/${a.number}`, { token: staff })).body.assignment;
    assert.deepEqual([read.status, read.cancel_reason], ['cancelled', 'fallback_to_self_delivery']);
    assert.equal(
      (await providerEvent('/one', a.number, 'delivery.assignment.cancelled')).data.reason,
      'fallback_to_self_delivery',
    );
    assert.equal(await inPool(order.id), true);
    // No longer held by a third party: a contractor may take it.
    const toContractor = await app.http.post(
      '/v1/broker-order-assignments',
      { broker_id: b.users.broker.id, order_ids: [order.id] },
      { token: admin },
    );
    assert.equal(toContractor.status, 200, JSON.stringify(toContractor.body));
    assert.equal((await assign(order.id)).body.code, 'ORDER_WITH_CONTRACTOR');
  });

  test("a business's rules hand each new order they match to a provider when it is created", async () => {
    const rule = await app.http.post(
      '/v1/third-party-rules',
      {
        provider_code: providers[1]!.code,
        postal_code_prefix: '75 0',
        max_weight_grams: 5000,
        handover_deadline_hours: 48,
      },
      { token: admin },
    );
    assert.equal(rule.status, 201, JSON.stringify(rule.body));
    assert.equal(rule.body.rule.postal_code_prefix, '750');
    const create = (postalCode: string, packages: unknown[]) =>
      app.http.post(
        '/v1/client/orderCreate',
        {
          type: 'D',
          scheduled_date: '2026-12-24',
          recipient: {
            name: 'Ada',
            address: { line1: '1 Main St', city: 'Paris', postal_code: postalCode, country: 'FR' },
          },
          packages,
        },
        { token: admin },
      );
    const matched = await create('75011', [{ weight_grams: 1000 }, { weight_grams: 2000 }]);
    assert.equal(matched.status, 200, JSON.stringify(matched.body));
    const number = matched.body.third_party_assignment;
    assert.match(number, /^TPA-/);
    const a = (await app.http.get(`/v1/third-party-assignments/${number}`, { token: staff })).body.assignment;
    assert.deepEqual(
      [a.source, a.provider.code, a.order.id, a.packages.length],
      ['rule', providers[1]!.code, matched.body.order_id, 2],
    );
    assert.equal((await providerEvent('/two', number, 'delivery.assignment.created')).data.source, 'rule');
    assert.equal(await inPool(matched.body.order_id), false);
    // Another postal code, a package too heavy, a package of unknown weight: no rule matches.
    for (const [postalCode, packages] of [
      ['69001', [{ weight_grams: 1000 }]],
      ['75002', [{ weight_grams: 6000 }]],
      ['75003', [{ weight_grams: 10 }, {}]],
    ] as const) {
      const res = await create(postalCode, [...packages]);
      assert.equal(res.body.third_party_assignment, null, `${postalCode} ${JSON.stringify(packages)}`);
    }
    const ended = await app.http.del(`/v1/third-party-rules/${rule.body.rule.id}`, { token: admin });
    assert.ok(ended.body.rule.ended_at);
    assert.equal(
      (await create('75011', [{ weight_grams: 1000 }])).body.third_party_assignment,
      null,
      'an ended rule matches nothing',
    );
    assert.equal((await app.http.get('/v1/third-party-rules', { token: admin })).body.rules.length, 1);
    assert.equal((await app.http.del(`/v1/third-party-rules/${rule.body.rule.id}`, { token: admin })).status, 404);
    for (const [body, field] of [
      [{ provider_code: 'NOPE' }, 'provider_code'],
      [{ provider_code: providers[0]!.code, postal_code_prefix: '7%' }, 'postal_code_prefix'],
      [{ provider_code: providers[0]!.code, max_weight_grams: 0 }, 'max_weight_grams'],
    ] as const) {
      const res = await app.http.post('/v1/third-party-rules', body, { token: admin });
      assert.deepEqual([res.status, res.body.errors?.[0]?.field], [422, field]);
    }
    assert.equal(
      (await app.http.post('/v1/third-party-rules', { provider_code: providers[0]!.code }, { token: staff })).status,
      403,
    );
  });

  test('bad input answers 422 naming the field and writes nothing; only admins assign; another business sees nothing', async () => {
    const { order } = await twoPackageOrder();
    const count = async () =>
      (await app.em().execute<{ n: number }[]>('select count(*)::int as n from third_party_assignment'))[0]!.n;
    const before = await count();
    const other = await makeBusiness(app.em());
    const otherOrder = await makeOrder(app.em(), other.business.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ order_id: 999999999, provider_code: providers[0]!.code }, 'order_id'],
      [{ order_id: otherOrder.id, provider_code: providers[0]!.code }, 'order_id'],
      [{ order_id: order.id, provider_code: b.business.code }, 'provider_code'],
      [{ order_id: order.id, provider_code: '' }, 'provider_code'],
      [
        { order_id: order.id, provider_code: providers[0]!.code, handover_deadline_hours: 0 },
        'handover_deadline_hours',
      ],
      [
        { order_id: order.id, provider_code: providers[0]!.code, handover_deadline_hours: 10_000 },
        'handover_deadline_hours',
      ],
      [{ order_id: 'x', provider_code: providers[0]!.code }, 'order_id'],
    ];
    for (const [body, field] of cases) {
      const res = await app.http.post('/v1/third-party-assignments', body, { token: admin });
      assert.equal(res.status, 422, `${field}: ${JSON.stringify(res.body)}`);
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        `${field}: ${JSON.stringify(res.body.errors)}`,
      );
    }
    const es = await app.http.post(
      '/v1/third-party-assignments',
      { order_id: order.id, provider_code: 'NOPE' },
      { token: admin, lang: 'es' },
    );
    assert.equal(es.body.errors[0].message, 'Ningún proveedor de entregas tiene este código.');
    assert.equal(
      (
        await app.http.post(
          '/v1/third-party-assignments',
          { order_id: order.id, provider_code: providers[0]!.code },
          { token: staff },
        )
      ).status,
      403,
    );
    await app.em().execute('update delivery_order set route_id = 1 where id = ?', [order.id]);
    assert.equal((await assign(order.id)).body.code, 'ORDER_ROUTED');
    assert.equal(await count(), before);

    const a = (await assign((await twoPackageOrder()).order.id)).body.assignment;
    const otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    assert.equal((await app.http.get(`/v1/third-party-assignments/${a.number}`, { token: otherAdmin })).status, 404);
    assert.equal((await app.http.get('/v1/third-party-assignments/TPA-00000000', { token: admin })).status, 404);
  });
});
