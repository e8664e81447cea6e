/**
 * Payments racing over HTTP (docs/customer-services.md, "The wallet: a ledger", "Pay" of each order kind): many
 * POST .../pay at once for the same shipping order, storage order and ship-out pay each exactly once; many orders
 * paid at once from one wallet that cannot pay them all take what it has and never more. Afterwards no wallet is
 * below zero and the business's debits equal its credits (assertLedgerInvariants).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { executeBound } from '../../../src/platform/db/orm.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { anotherCustomer } from '../customer-services/orderWorld.ts';
import { RECIPIENT, shipoutWorld, type ShipoutWorld } from '../shipouts/world.ts';
import { assertLedgerInvariants } from './world.ts';

/** One package of 1.2 kg: 5.00 + 1.00 + 1 started kg above the first x 0.50 = 6.50, tax 1.30, total 7.80. */
const SHIPPING_TOTAL = 780n;
/** Three packages at a handling fee of 1.00, tax 20 %. */
const STORAGE_TOTAL = 360n;
/** The FLEET ship-out of one 1.2 kg package (shipouts/world.ts PRICING): 5.00 + 1.50 + 0.50, tax 1.40. */
const SHIPOUT_TOTAL = 840n;
/** How many pays are sent at once for each order. */
const RACERS = 10;

type Kind = 'shipping' | 'storage' | 'shipout';
interface Order {
  kind: Kind;
  id: number;
  total: bigint;
}

/** A decimal string with two decimals in minor units. */
const minor = (amount: string) => BigInt(amount.replace('.', ''));

describe('payments racing over HTTP', () => {
  let app: TestApp;
  let w: ShipoutWorld;

  before(async () => {
    app = await startApp();
    w = await shipoutWorld(app);
    const services = '/v1/client/customer-services';
    w.ok(
      await app.http.post(
        `${services}/shipping-services`,
        {
          code: 'LOCAL',
          name: 'Local',
          fulfilment: { kind: 'own_fleet' },
          pricing: { base_fee: '5.00', per_package: '1.00', per_kg: '0.50', included_weight_kg: '1', tax_rate: '20' },
        },
        { token: w.admin },
      ),
      201,
    );
    w.ok(
      await app.http.post(
        `${services}/storage-services`,
        {
          code: 'PAID',
          name: 'Paid storage',
          warehouse_id: w.wh1.id,
          period: 'day',
          price_per_period: '0.50',
          handling_fee: '1.00',
          tax_rate: '20',
        },
        { token: w.admin },
      ),
      201,
    );
  });
  after(() => app.running.close());

  const PATHS: Record<Kind, { base: string; key: string }> = {
    shipping: { base: '/v1/customer/shipping-orders', key: 'shipping_order' },
    storage: { base: '/v1/customer/storage-orders', key: 'storage_order' },
    shipout: { base: '/v1/customer/shipout-orders', key: 'shipout' },
  };
  const REFERENCE: Record<Kind, string> = { shipping: 'shipping_order', storage: 'storage_order', shipout: 'shipout' };

  /** One order of each kind the customer asks for, pending payment. */
  async function place(kind: Kind, token: string, customerId: number): Promise<Order> {
    if (kind === 'shipping') {
      const body = { recipient: RECIPIENT, packages: [{ weight_grams: 1200 }] };
      const o = w.ok(await app.http.post(`${PATHS.shipping.base}/services/LOCAL/orders`, body, { token }), 201);
      assert.equal(o.shipping_order.total, '7.80');
      return { kind, id: o.shipping_order.id, total: SHIPPING_TOTAL };
    }
    if (kind === 'storage') {
      const packages = [1, 2, 3].map((n) => ({ reference: `BOX-${n}`, weight_grams: 1000 }));
      const o = w.ok(await app.http.post(PATHS.storage.base, { service_code: 'PAID', packages }, { token }), 201);
      assert.equal(o.storage_order.total, '3.60');
      return { kind, id: o.storage_order.id, total: STORAGE_TOTAL };
    }
    const ids = await w.stored(w.wh1.id, 1, 1200, customerId);
    const o = w.ok(
      await app.http.post(
        `${PATHS.shipout.base}/services/FLEET/orders`,
        { package_ids: ids, recipient: RECIPIENT },
        { token },
      ),
      201,
    );
    assert.equal(o.shipout.total, '8.40');
    return { kind, id: o.shipout.id, total: SHIPOUT_TOTAL };
  }

  const read = async (o: Order, token: string) =>
    w.ok(await app.http.get(`${PATHS[o.kind].base}/${o.id}`, { token }))[PATHS[o.kind].key];

  /** `n` pays of the order sent at once: their statuses and error codes. */
  const race = (o: Order, token: string, n: number) =>
    Array.from({ length: n }, () =>
      app.http
        .post(`${PATHS[o.kind].base}/${o.id}/pay`, {}, { token })
        .then((res) => ({ order: o, status: res.status, code: res.body?.code as string | undefined })),
    );

  /** The wallet transfers that paid or held for the order: one per pay that moved money. */
  const transfersOf = async (o: Order) =>
    (
      await executeBound<{ code: string; amount: string }>(
        app.em(),
        `select code, amount::text from ledger_transfer
         where business_id = $1 and reference_type = $2 and reference_id = $3 and code in ('payment', 'hold')
         order by id`,
        [w.business.id, REFERENCE[o.kind], String(o.id)],
      )
    ).map((t) => ({ code: t.code, amount: BigInt(t.amount) }));

  const credits = async (token: string) => w.ok(await app.http.get('/v1/customer/credits', { token }));

  test(`${RACERS} pays at once of one shipping order, one storage order and one ship-out: each is paid once`, async () => {
    await w.topUp('100.00');
    const orders = [
      await place('shipping', w.customer, w.users.customer.id),
      await place('storage', w.customer, w.users.customer.id),
      await place('shipout', w.customer, w.users.customer.id),
    ];
    const answers = await Promise.all(orders.flatMap((o) => race(o, w.customer, RACERS)));
    for (const o of orders) {
      const mine = answers.filter((a) => a.order === o);
      const what = `${o.kind} ${o.id}: ${JSON.stringify(mine.map((a) => [a.status, a.code]))}`;
      assert.equal(mine.filter((a) => a.status === 200).length, 1, what);
      assert.ok(
        mine.every((a) => a.status === 200 || (a.status === 409 && a.code === 'NOTHING_DUE')),
        what,
      );
      const now = await read(o, w.customer);
      assert.equal(now.status, o.kind === 'shipout' ? 'paid' : 'confirmed', what);
      assert.equal(minor(now.paid_amount), o.total, what);
      assert.equal(now.balance_due, '0.00', what);
      assert.deepEqual(
        await transfersOf(o),
        [{ code: o.kind === 'shipout' ? 'hold' : 'payment', amount: o.total }],
        `${what}: one transfer of its total`,
      );
    }
    const wallet = await credits(w.customer);
    assert.deepEqual(
      [wallet.balance, wallet.held, wallet.available],
      ['88.60', '8.40', '80.20'],
      '100.00 less 7.80 and 3.60 paid, 8.40 held',
    );
    await assertLedgerInvariants(app.em(), w.business.id);
  });

  test('orders paid at once from a wallet that cannot pay them all: it pays what it has, never more', async () => {
    const c = await anotherCustomer(app, w.business.id, {
      email: `racer-${w.tag}@test.example`,
      name: 'Racing customer',
    });
    await w.topUp('20.00', c.id);
    const orders: Order[] = [];
    for (const kind of ['shipping', 'shipping', 'shipping', 'storage', 'storage', 'shipout', 'shipout'] as const)
      orders.push(await place(kind, c.token, c.id));
    const due = orders.reduce((sum, o) => sum + o.total, 0n);
    assert.ok(due > 2000n, 'the orders cost more than the wallet holds');

    const answers = await Promise.all(orders.flatMap((o) => race(o, c.token, 3)));
    for (const a of answers)
      assert.ok(
        a.status === 200 || (a.status === 409 && ['NOTHING_DUE', 'INSUFFICIENT_FUNDS'].includes(a.code!)),
        `${a.order.kind} ${a.order.id}: ${a.status} ${a.code}`,
      );

    let paid = 0n;
    let payments = 0n;
    let holds = 0n;
    let partial = 0;
    for (const o of orders) {
      const now = await read(o, c.token);
      const moved = await transfersOf(o);
      const sum = moved.reduce((s, t) => s + t.amount, 0n);
      const what = `${o.kind} ${o.id}: ${JSON.stringify(now)} ${moved.map((t) => `${t.code} ${t.amount}`).join(', ')}`;
      assert.equal(minor(now.paid_amount), sum, `${what}: what it reads paid is what the wallet moved for it`);
      assert.ok(sum <= o.total, `${what}: never more than its total`);
      const ok200 = answers.filter((a) => a.order === o && a.status === 200).length;
      assert.equal(moved.length, ok200, `${what}: each pay answered 200 moved money once, no other did`);
      if (sum === o.total) assert.equal(now.status, o.kind === 'shipout' ? 'paid' : 'confirmed', what);
      else {
        assert.equal(now.status, 'pending_payment', what);
        if (sum > 0n) partial++;
      }
      paid += sum;
      for (const t of moved)
        if (t.code === 'hold') holds += t.amount;
        else payments += t.amount;
    }
    assert.equal(paid, 2000n, 'the wallet paid all it had, and no more');
    assert.ok(partial <= 1, 'only the order that emptied the wallet is paid in part');
    const wallet = await credits(c.token);
    assert.equal(wallet.available, '0.00');
    assert.equal(minor(wallet.balance), 2000n - payments);
    assert.equal(minor(wallet.held), holds);
    await assertLedgerInvariants(app.em(), w.business.id);
  });
});
