/**
 * Order Chat (docs/opt-in-families.md, "Order Chat") through the real HTTP API: staff, the order's driver and its
 * customer talk on one order and see each other's read receipts; every other account (another order's driver or
 * customer, a contractor without the order, another business) gets 404; the family's 409 while it is off; the text
 * rules; paging of messages and conversations; two first messages at once make one conversation.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { User } from '../../../src/modules/identity/index.ts';
import type { Role } from '../../../src/platform/roles.ts';
import { hashPassword } from '../../../src/platform/secrets.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../../helpers/factories.ts';

type Business = Awaited<ReturnType<typeof makeBusiness>>;

describe('Order Chat', () => {
  let app: TestApp;
  let platform: string;
  let a: Business;
  let b: Business;
  /** Tokens of business a's accounts, and of a second driver and customer of a (another order's). */
  const t = {} as Record<
    'admin' | 'employee' | 'driver' | 'customer' | 'contractor' | 'driver2' | 'customer2' | 'bAdmin' | 'bDriver',
    string
  >;
  let order: number;
  let other: number;

  const switchFamily = (biz: Business, enabled: boolean) =>
    app.http.put(
      `/v1/platform/businesses/${encodeURIComponent(biz.business.code)}/families/order_chat`,
      { enabled },
      { token: platform },
    );
  const messages = (orderId: number, token: string, query = '') =>
    app.http.get(`/v1/orders/${orderId}/chat/messages${query}`, { token });
  const post = (orderId: number, token: string, text: string, lang?: string) =>
    app.http.post(`/v1/orders/${orderId}/chat/messages`, { text }, { token, lang });
  const read = (orderId: number, token: string, body: Record<string, unknown> = {}) =>
    app.http.post(`/v1/orders/${orderId}/chat/read`, body, { token });
  const conversations = (token: string, query = '') => app.http.get(`/v1/order-chat/conversations${query}`, { token });
  const messageCount = async () =>
    Number((await app.em().execute<{ n: number }[]>('select count(*)::int as n from order_chat_message'))[0]!.n);

  async function extraUser(biz: Business, role: Role): Promise<{ id: number; token: string }> {
    const em = app.em();
    const tag = randomUUID().slice(0, 8);
    const user = em.create(User, {
      businessId: biz.business.id,
      email: `${role}-x-${tag}@test.example`,
      name: `${role} x ${tag}`,
      role,
      passwordHash: await hashPassword(PASSWORD),
    });
    await em.flush();
    return { id: user.id, token: await app.login(user.email, PASSWORD) };
  }

  before(async () => {
    app = await startApp({}, { worker: false });
    platform = await app.login('platform@demo.example', 'demo-password');
    a = await makeBusiness(app.em());
    b = await makeBusiness(app.em());
    for (const biz of [a, b]) assert.equal((await switchFamily(biz, true)).status, 200);
    t.admin = await app.login(a.users.admin.email, PASSWORD);
    t.employee = await app.login(a.users.employee.email, PASSWORD);
    t.driver = await app.login(a.users.driver.email, PASSWORD);
    t.customer = await app.login(a.users.customer.email, PASSWORD);
    t.contractor = await app.login(a.users.broker.email, PASSWORD);
    t.bAdmin = await app.login(b.users.admin.email, PASSWORD);
    t.bDriver = await app.login(b.users.driver.email, PASSWORD);
    const driver2 = await extraUser(a, 'driver');
    const customer2 = await extraUser(a, 'customer');
    t.driver2 = driver2.token;
    t.customer2 = customer2.token;
    order = (await makeOrder(app.em(), a.business.id, { driverId: a.users.driver.id, customerId: a.users.customer.id }))
      .id;
    other = (await makeOrder(app.em(), a.business.id, { driverId: driver2.id, customerId: customer2.id })).id;
  });
  after(() => app.running.close());

  test("staff, the order's driver and its customer talk on one order and each sees the others' read receipts", async () => {
    const first = await post(order, t.employee, '  Your parcel leaves the depot at nine.  ');
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const { conversation_id } = first.body;
    assert.equal(first.body.message.text, 'Your parcel leaves the depot at nine.', 'trimmed');
    assert.deepEqual(first.body.message.author, {
      user_id: a.users.employee.id,
      name: a.users.employee.name,
      role: 'employee',
    });
    assert.deepEqual(first.body.message.read_by, []);

    // The driver sees it unread, reads it, and answers.
    const seen = await messages(order, t.driver);
    assert.equal(seen.status, 200);
    assert.equal(seen.body.conversation_id, conversation_id);
    assert.equal(seen.body.unread_count, 1);
    assert.deepEqual(
      seen.body.messages.map((m: { id: number }) => m.id),
      [first.body.message.id],
    );
    const driverRead = await read(order, t.driver);
    assert.equal(driverRead.status, 200, JSON.stringify(driverRead.body));
    assert.deepEqual(driverRead.body, {
      result: true,
      order_id: order,
      conversation_id,
      read_up_to_message_id: first.body.message.id,
      marked: 1,
      unread_count: 0,
    });
    const fromDriver = await post(order, t.driver, 'Thanks, I will ring twice.');
    assert.equal(fromDriver.status, 201);
    assert.equal(fromDriver.body.conversation_id, conversation_id, 'one conversation per order');
    const fromCustomer = await post(order, t.customer, 'Leave it with the neighbour if I am out.');
    assert.equal(fromCustomer.status, 201);
    assert.equal(fromCustomer.body.message.author.role, 'customer');

    // The customer reads everything; the admin (staff too) reads up to the driver's message only.
    assert.equal((await read(order, t.customer)).body.marked, 2, "the others' two messages, never its own");
    const adminRead = await read(order, t.admin, { up_to_message_id: fromDriver.body.message.id });
    assert.equal(adminRead.body.marked, 2);
    assert.equal(adminRead.body.unread_count, 1, "the customer's message stays unread for the admin");

    // Every participant sees the same receipts: who read which message, with role and time, never the author.
    const readers = (body: {
      messages: { id: number; read_by: { user_id: number; role: string; read_at: string }[] }[];
    }) => Object.fromEntries(body.messages.map((m) => [m.id, m.read_by.map((r) => `${r.role}:${r.user_id}`).sort()]));
    const expected = {
      [first.body.message.id]: [
        `client_admin:${a.users.admin.id}`,
        `customer:${a.users.customer.id}`,
        `driver:${a.users.driver.id}`,
      ],
      [fromDriver.body.message.id]: [`client_admin:${a.users.admin.id}`, `customer:${a.users.customer.id}`],
      [fromCustomer.body.message.id]: [],
    };
    for (const token of [t.employee, t.admin, t.driver, t.customer]) {
      const res = await messages(order, token);
      assert.equal(res.status, 200);
      assert.deepEqual(readers(res.body), expected);
      assert.deepEqual(
        res.body.messages.map((m: { id: number }) => m.id),
        [fromCustomer.body.message.id, fromDriver.body.message.id, first.body.message.id],
        'newest first',
      );
      for (const m of res.body.messages) for (const r of m.read_by) assert.ok(!Number.isNaN(Date.parse(r.read_at)));
    }
    // The employee has read nothing; the driver has the customer's message unread.
    assert.equal((await messages(order, t.employee)).body.unread_count, 2);
    assert.equal((await messages(order, t.driver)).body.unread_count, 1);

    // Marking an older message later unmarks nothing and keeps the first read time.
    const before = (await messages(order, t.driver)).body.messages.at(-1).read_by;
    const again = await read(order, t.driver, { up_to_message_id: first.body.message.id });
    assert.equal(again.body.marked, 0);
    assert.deepEqual((await messages(order, t.driver)).body.messages.at(-1).read_by, before);

    // The conversation list shows the order with each caller's unread count.
    for (const [token, unread] of [
      [t.employee, 2],
      [t.driver, 1],
      [t.customer, 0],
    ] as const) {
      const list = await conversations(token);
      assert.equal(list.status, 200);
      const mine = list.body.conversations.find(
        (c: { conversation_id: number }) => c.conversation_id === conversation_id,
      );
      assert.ok(mine, 'listed');
      assert.equal(mine.order.id, order);
      assert.equal(mine.message_count, 3);
      assert.equal(mine.unread_count, unread);
      assert.equal(mine.last_message.id, fromCustomer.body.message.id);
    }

    // GraphQL serves the same operations.
    const gql = await app.http.graphql(
      'query($id: Int!) { orderChatMessages(order_id: $id) { unread_count messages { id author { role } } } }',
      { id: order },
      { token: t.customer },
    );
    assert.equal(gql.status, 200, JSON.stringify(gql.body));
    assert.equal(gql.body.data.orderChatMessages.messages.length, 3);
  });

  test("another order's driver or customer, a contractor without the order, and every account of another business: 404", async () => {
    await post(order, t.admin, 'Only for this order.');
    const count = await messageCount();
    for (const token of [t.driver2, t.customer2, t.contractor, t.bAdmin, t.bDriver]) {
      for (const res of [
        await messages(order, token),
        await post(order, token, 'Let me in'),
        await read(order, token),
        await read(order, token, { up_to_message_id: 1 }),
      ]) {
        assert.equal(res.status, 404, JSON.stringify(res.body));
        assert.equal(res.body.code, 'NOT_FOUND');
        assert.equal(res.body.messages, undefined);
      }
      const list = await conversations(token);
      assert.equal(list.status, 200);
      assert.ok(!list.body.conversations.some((c: { order: { id: number } }) => c.order.id === order), 'not listed');
    }
    assert.equal(await messageCount(), count, 'nothing written');
    // Their own order's conversation is theirs: the other driver and customer see it, the first driver does not.
    assert.equal((await post(other, t.driver2, 'On my way')).status, 201);
    assert.equal((await messages(other, t.customer2)).body.messages.length, 1);
    assert.equal((await messages(other, t.driver)).status, 404);
    assert.equal((await messages(other, t.customer)).status, 404);

    // A contractor sees the order while it is assigned to it.
    const assigned = await app.http.post(
      '/v1/broker-order-assignments',
      { order_ids: [order], broker_id: a.users.broker.id },
      { token: t.admin },
    );
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
    assert.equal(assigned.body.assigned, 1);
    assert.equal((await messages(order, t.contractor)).status, 200);
    assert.equal((await post(order, t.contractor, 'Taking it from here')).status, 201);
  });

  test('while the family is off for the business every operation answers 409 {result: false, feature_enabled: false}, and works once on', async () => {
    const c = await makeBusiness(app.em());
    const staff = await app.login(c.users.employee.email, PASSWORD);
    const cDriver = await app.login(c.users.driver.email, PASSWORD);
    const cOrder = (await makeOrder(app.em(), c.business.id, { driverId: c.users.driver.id })).id;
    const count = await messageCount();
    const calls = (token: string, orderId: number) => [
      () => conversations(token),
      () => messages(orderId, token),
      () => post(orderId, token, 'Hello'),
      () => read(orderId, token),
    ];
    // Another business's order, too: the switch answers first and says nothing of the order.
    for (const call of [...calls(staff, cOrder), ...calls(cDriver, cOrder), ...calls(staff, order)]) {
      const res = await call();
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.deepEqual(res.body, {
        result: false,
        code: 'FEATURE_DISABLED',
        message: 'This feature is switched off for your business.',
        feature_enabled: false,
      });
    }
    const german = await post(cOrder, staff, 'Hallo', 'de');
    assert.equal(german.body.message, 'Diese Funktion ist für Ihr Unternehmen ausgeschaltet.');
    assert.equal(await messageCount(), count, 'nothing written while off');

    assert.equal((await switchFamily(c, true)).status, 200);
    assert.equal((await post(cOrder, staff, 'Hello')).status, 201);
    assert.equal((await messages(cOrder, cDriver)).body.messages.length, 1);
    assert.equal((await conversations(staff)).body.total, 1);
    assert.equal((await read(cOrder, cDriver)).body.marked, 1);

    assert.equal((await switchFamily(c, false)).status, 200);
    assert.equal((await messages(cOrder, cDriver)).status, 409, 'off again');
  });

  test('text that is empty, blank, too long, or holds a NUL or a lone surrogate: 422 naming text, nothing written', async () => {
    const count = await messageCount();
    for (const text of ['', '   \n ', 'x'.repeat(2001), 'A\u0000B', 'A\ud800B']) {
      const res = await post(order, t.driver, text, 'fr');
      assert.equal(res.status, 422, JSON.stringify(text));
      assert.equal(res.body.code, 'VALIDATION_FAILED');
      assert.deepEqual(
        res.body.errors.map((e: { field: string }) => e.field),
        ['text'],
      );
    }
    const missing = await app.http.post(`/v1/orders/${order}/chat/messages`, {}, { token: t.driver });
    assert.equal(missing.status, 422);
    assert.equal(await messageCount(), count);
    // 2000 characters once trimmed, emoji and line breaks included, are fine.
    const longest = `  ${'📦'.repeat(10)}\n${'y'.repeat(1989)}  `;
    const ok = await post(order, t.driver, longest);
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.message.text, longest.trim());

    // A message of another conversation is no place to read up to.
    const elsewhere = (await messages(other, t.driver2)).body.messages[0].id;
    const wrong = await read(order, t.driver, { up_to_message_id: elsewhere });
    assert.equal(wrong.status, 422);
    assert.deepEqual(
      wrong.body.errors.map((e: { field: string }) => e.field),
      ['up_to_message_id'],
    );
  });

  test('messages page back newest first by cursor; conversations page by number; two first messages make one conversation', async () => {
    const fresh = (await makeOrder(app.em(), a.business.id, { driverId: a.users.driver.id })).id;
    const [x, y] = await Promise.all([post(fresh, t.admin, 'first?'), post(fresh, t.driver, 'or me?')]);
    assert.equal(x.status, 201);
    assert.equal(y.status, 201);
    assert.equal(x.body.conversation_id, y.body.conversation_id, 'one conversation for two first messages');
    for (let i = 1; i <= 3; i++) assert.equal((await post(fresh, t.admin, `note ${i}`)).status, 201);

    const ids: number[] = [];
    let cursor = '';
    const pages: number[] = [];
    for (;;) {
      const page = await messages(fresh, t.driver, `?limit=2${cursor}`);
      assert.equal(page.status, 200);
      pages.push(page.body.messages.length);
      ids.push(...page.body.messages.map((m: { id: number }) => m.id));
      if (page.body.next_before === null) break;
      cursor = `&before=${page.body.next_before}`;
    }
    assert.deepEqual(pages, [2, 2, 1]);
    assert.deepEqual(
      ids,
      [...ids].sort((p, q) => q - p),
      'newest first',
    );
    assert.equal(new Set(ids).size, 5);
    assert.deepEqual((await messages(fresh, t.driver, `?before=${Math.min(...ids)}`)).body.messages, []);

    // The driver has conversations on two orders (the shared one and this one), the newest first.
    const all = await conversations(t.driver);
    assert.equal(all.body.total, 2);
    assert.equal(all.body.conversations[0].order.id, fresh);
    const second = await conversations(t.driver, '?per_page=1&page=2');
    assert.equal(second.body.total, 2);
    assert.deepEqual(
      second.body.conversations.map((c: { order: { id: number } }) => c.order.id),
      [order],
    );
    // Staff see every conversation of the business.
    assert.equal((await conversations(t.employee)).body.total, 3);
  });
});
