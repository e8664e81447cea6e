/**
 * The wallet through the HTTP API (docs/customer-services.md, "Operations"): a client admin tops a customer's wallet
 * up once per idempotency key (the same request answers the same transfer, other fields 409), the customer reads
 * it with get_account_credits and staff with get_customer_wallet; staff get 403 on the customer's endpoint, and a
 * customer of another business, or an account that is no customer, is 404.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
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
