/**
 * The wallet through the HTTP API (docs/customer-services.md, "Operations"): a client admin tops a customer's wallet
 * up once per idempotency key (the same request answers the same transfer, other fields 409), the customer reads
 * it with get_account_credits and staff with get_customer_wallet; staff get 403 on the customer's endpoint, and a
 * customer of another business, or an account that is no customer, is 404. A top-up is at most 1000000.00, and top-ups
 * that would take an account past the ledger's ceiling are 422, never 500. A customer whose business hides a service
 * family's prices reads that family's entries without amounts (and no `owed` while storage is hidden); staff see all.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { postHold, transfer, type TransferInput } from '../../../src/modules/wallet/index.ts';
import { executeBound } from '../../../src/platform/db/orm.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { assertLedgerInvariants } from './world.ts';

describe('wallet operations', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let other: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let employee: string;
  let customer: string;
  let otherAdmin: string;
  let customerId: number;

  before(async () => {
    app = await startApp();
    b = await makeBusiness(app.em());
    other = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
    employee = await app.login(b.users.employee.email, PASSWORD);
    customer = await app.login(b.users.customer.email, PASSWORD);
    otherAdmin = await app.login(other.users.admin.email, PASSWORD);
    customerId = b.users.customer.id;
  });
  after(() => app.running.close());

  const credit = (body: Record<string, unknown>, token = admin, id = customerId) =>
    app.http.post(`/v1/client/customers/${id}/wallet/credits`, body, { token });

  test('a top-up, read by the customer and by staff', async () => {
    const empty = await app.http.get('/v1/customer/credits', { token: customer });
    assert.equal(empty.status, 200, JSON.stringify(empty.body));
    assert.deepEqual(
      [empty.body.balance, empty.body.available, empty.body.held, empty.body.owed, empty.body.in_arrears],
      ['0.00', '0.00', '0.00', '0.00', false],
    );
    assert.deepEqual([empty.body.currencies, empty.body.entries], [[], []]);

    const res = await credit({ amount: '50.5', idempotency_key: 'bank-0001', memo: 'Bank transfer' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.repeated, false);
    assert.deepEqual(
      [res.body.transfer.amount, res.body.transfer.code, res.body.transfer.idempotency_key, res.body.transfer.memo],
      ['50.50', 'top_up', 'bank-0001', 'Bank transfer'],
    );
    assert.deepEqual(res.body.wallet, {
      currency: res.body.transfer.currency,
      balance: '50.50',
      available: '50.50',
      held: '0.00',
    });

    const read = await app.http.get('/v1/customer/credits', { token: customer });
    assert.equal(read.status, 200);
    assert.deepEqual([read.body.balance, read.body.available, read.body.held], ['50.50', '50.50', '0.00']);
    assert.equal(read.body.currencies.length, 1);
    assert.equal(read.body.entries.length, 1);
    const [entry] = read.body.entries;
    assert.deepEqual(
      [entry.amount, entry.balance_after, entry.code, entry.memo, entry.transfer_id],
      ['50.50', '50.50', 'top_up', 'Bank transfer', res.body.transfer.id],
    );

    for (const token of [admin, employee]) {
      const staff = await app.http.get(`/v1/client/customers/${customerId}/wallet`, { token });
      assert.equal(staff.status, 200, JSON.stringify(staff.body));
      assert.equal(staff.body.customer_id, customerId);
      const { customer_id: _, ...rest } = staff.body;
      assert.deepEqual(rest, read.body, "staff read the customer's own answer");
    }
    await assertLedgerInvariants(app.em(), b.business.id);
  });

  test('the same top-up again answers the same transfer; the key with other fields is 409', async () => {
    const body = { amount: '20.00', idempotency_key: 'bank-0002' };
    const first = await credit(body);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const again = await credit(body);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.repeated, true);
    assert.equal(again.body.transfer.id, first.body.transfer.id);
    assert.deepEqual(again.body.wallet, first.body.wallet, 'nothing moved the second time');

    for (const changed of [{ amount: '20.01' }, { memo: 'another' }]) {
      const reused = await credit({ ...body, ...changed });
      assert.equal(reused.status, 409, JSON.stringify(reused.body));
      assert.equal(reused.body.code, 'TRANSFER_KEY_REUSED');
    }
    const read = await app.http.get('/v1/customer/credits?entries_limit=1', { token: customer });
    assert.equal(read.body.balance, '70.50');
    assert.equal(read.body.entries.length, 1, 'entries_limit');
    assert.equal(read.body.entries[0].transfer_id, first.body.transfer.id, 'newest first');
  });

  test('bad input is 422 on its field', async () => {
    for (const [body, field] of [
      [{ amount: '0.00', idempotency_key: 'k-zero' }, 'amount'],
      [{ amount: '1.001', idempotency_key: 'k-digits' }, 'amount'],
      [{ amount: '-1', idempotency_key: 'k-neg' }, 'amount'],
      [{ amount: '5' }, 'idempotency_key'],
      [{ amount: '5', idempotency_key: 'x'.repeat(129) }, 'idempotency_key'],
      [{ amount: '5', idempotency_key: 'tab\there' }, 'idempotency_key'],
    ] as const) {
      const res = await credit(body);
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        JSON.stringify(res.body.errors),
      );
    }
    const limit = await app.http.get('/v1/customer/credits?entries_limit=101', { token: customer });
    assert.equal(limit.status, 422);
  });

  test('a top-up is at most 1000000.00: above is 422 on amount, naming the limit', async () => {
    const c = await makeBusiness(app.em());
    const token = await app.login(c.users.admin.email, PASSWORD);
    const over = await credit({ amount: '1000000.01', idempotency_key: 'cap-over' }, token, c.users.customer.id);
    assert.equal(over.status, 422, JSON.stringify(over.body));
    assert.equal(over.body.errors[0].field, 'amount');
    assert.match(over.body.errors[0].message, /1000000\.00 USD/);
    const big = await credit({ amount: '999999999999999.99', idempotency_key: 'cap-big' }, token, c.users.customer.id);
    assert.equal(big.status, 422, JSON.stringify(big.body));
    const at = await credit({ amount: '1000000.00', idempotency_key: 'cap-at' }, token, c.users.customer.id);
    assert.equal(at.status, 200, JSON.stringify(at.body));
    assert.equal(at.body.wallet.balance, '1000000.00');
  });

  test("top-ups up to the ledger's ceiling (10^15 minor units) answer 422, never 500", async () => {
    const c = await makeBusiness(app.em());
    const [bid, cid] = [c.business.id, c.users.customer.id];
    const token = await app.login(c.users.admin.email, PASSWORD);
    // Most of the way there through the ledger itself (a top-up is at most 10^8 minor units).
    await transfer(app.em(), {
      businessId: bid,
      key: 'near-ceiling',
      currency: 'USD',
      code: 'top_up',
      amount: 10n ** 15n - 150_000_000n,
      debit: { kind: 'funding' },
      credit: { kind: 'wallet', customerId: cid },
    });
    const first = await credit({ amount: '1000000.00', idempotency_key: 'ceil-0' }, token, cid);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.wallet.balance, '9999999500000.00');
    for (let i = 1; i <= 5; i++) {
      const res = await credit({ amount: '1000000.00', idempotency_key: `ceil-${i}` }, token, cid);
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.errors[0].field, 'amount');
      assert.match(res.body.errors[0].message, /10000000000000\.00 USD/);
    }
    const last = await credit({ amount: '500000.00', idempotency_key: 'ceil-last' }, token, cid);
    assert.equal(last.status, 200, JSON.stringify(last.body));
    assert.equal(last.body.wallet.balance, '10000000000000.00', 'up to the ceiling itself');
    const more = await credit({ amount: '0.01', idempotency_key: 'ceil-more' }, token, cid);
    assert.equal(more.status, 422, JSON.stringify(more.body));
    await assertLedgerInvariants(app.em(), bid);
  });

  test("price hiding: a hidden family's entries carry no amounts; owed is left out while storage is hidden", async () => {
    const h = await makeBusiness(app.em());
    const [bid, cid] = [h.business.id, h.users.customer.id];
    const token = await app.login(h.users.customer.email, PASSWORD);
    const staff = await app.login(h.users.employee.email, PASSWORD);
    const move = (key: string, amount: bigint, extra: Partial<TransferInput>) =>
      transfer(app.em(), {
        businessId: bid,
        key,
        currency: 'USD',
        code: 'payment',
        amount,
        debit: { kind: 'wallet', customerId: cid },
        credit: { kind: 'revenue' },
        ...extra,
      });
    await move('top', 10_000n, {
      code: 'top_up',
      debit: { kind: 'funding' },
      credit: { kind: 'wallet', customerId: cid },
    });
    await move('so-1-pay', 1000n, { reference: { type: 'shipping_order', id: '1' } });
    await move('so-1-refund', 1000n, {
      code: 'refund',
      debit: { kind: 'revenue' },
      credit: { kind: 'wallet', customerId: cid },
      reference: { type: 'shipping_order', id: '1' },
    });
    await move('sto-2-pay', 500n, { reference: { type: 'storage_order', id: '2' } });
    await move('sho-3-pay', 300n, { code: 'hold', pending: true, reference: { type: 'shipout', id: '3' } });
    await postHold(app.em(), { businessId: bid, key: 'sho-3-post', holdKey: 'sho-3-pay' });
    await move('fee-1', 100n, { code: 'storage_fee', balancing: true, reference: { type: 'storage_fee', id: '9' } });

    const hide = (families: string) =>
      executeBound(app.em(), 'update app_user set hidden_price_families = $2::text[] where id = $1', [cid, families]);
    const read = async (as = token) => {
      const res = await app.http.get(as === token ? '/v1/customer/credits' : `/v1/client/customers/${cid}/wallet`, {
        token: as,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };
    type Entry = { code: string; amount?: string; balance_after?: string; price_hidden?: true; reference: unknown };
    const shown = (body: { entries: Entry[] }) =>
      body.entries.map((e) => [e.code, e.amount ?? null, e.price_hidden ?? false, e.reference]);
    const ALL = [
      ['storage_fee', '-1.00', false, { type: 'storage_fee', id: '9' }],
      ['hold_post', '-3.00', false, { type: 'shipout', id: '3' }],
      ['payment', '-5.00', false, { type: 'storage_order', id: '2' }],
      ['refund', '10.00', false, { type: 'shipping_order', id: '1' }],
      ['payment', '-10.00', false, { type: 'shipping_order', id: '1' }],
      ['top_up', '100.00', false, null],
    ];

    const open = await read();
    assert.deepEqual(shown(open), ALL, 'nothing hidden: every amount; a hold_post names its hold’s ship-out');
    assert.deepEqual([open.balance, open.owed, open.in_arrears], ['91.00', '0.00', false]);

    await hide('{shipping_service}');
    const noShipping = await read();
    assert.deepEqual(
      shown(noShipping),
      ALL.map((e) => ((e[3] as { type?: string } | null)?.type === 'shipping_order' ? [e[0], null, true, e[3]] : e)),
    );
    for (const e of noShipping.entries as Entry[]) assert.equal('balance_after' in e, !e.price_hidden);
    assert.equal(noShipping.owed, '0.00', 'storage is not hidden');

    await hide('{storage_services}');
    const noStorage = await read();
    assert.deepEqual(
      shown(noStorage),
      ALL.map((e, i) => (i < 3 ? [e[0], null, true, e[3]] : e)),
    );
    assert.equal('owed' in noStorage, false, 'owed is storage fees');
    assert.deepEqual(
      [noStorage.balance, noStorage.available, noStorage.held, noStorage.in_arrears],
      ['91.00', '91.00', '0.00', false],
      'the totals stay',
    );

    await hide('{shipping_service,storage_services}');
    const { customer_id: _, ...staffView } = await read(staff);
    assert.deepEqual(shown(staffView), ALL, 'staff see every amount');
    assert.equal(staffView.owed, '0.00');
    await assertLedgerInvariants(app.em(), bid);
  });

  test('who may call: staff get 403 on the customer endpoint; only a client admin credits', async () => {
    for (const token of [admin, employee]) {
      const res = await app.http.get('/v1/customer/credits', { token });
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.code, 'FORBIDDEN');
    }
    const byEmployee = await credit({ amount: '1.00', idempotency_key: 'by-employee' }, employee);
    assert.equal(byEmployee.status, 403);
    const byCustomer = await app.http.get(`/v1/client/customers/${customerId}/wallet`, { token: customer });
    assert.equal(byCustomer.status, 403);
  });

  test("another business's customer, or an account that is no customer, is 404", async () => {
    const foreign = await credit({ amount: '1.00', idempotency_key: 'foreign' }, admin, other.users.customer.id);
    assert.equal(foreign.status, 404, JSON.stringify(foreign.body));
    assert.equal(foreign.body.code, 'NOT_FOUND');
    const read = await app.http.get(`/v1/client/customers/${other.users.customer.id}/wallet`, { token: admin });
    assert.equal(read.status, 404);
    const staffId = await app.http.get(`/v1/client/customers/${b.users.employee.id}/wallet`, { token: admin });
    assert.equal(staffId.status, 404);
    const fromOther = await app.http.get(`/v1/client/customers/${customerId}/wallet`, { token: otherAdmin });
    assert.equal(fromOther.status, 404);
    const theirs = await app.http.get(`/v1/client/customers/${other.users.customer.id}/wallet`, { token: otherAdmin });
    assert.equal(theirs.status, 200);
    assert.equal(theirs.body.balance, '0.00', "the other business's customer has nothing");
  });
});
