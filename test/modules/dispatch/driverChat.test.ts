/**
 * Order Chat with the driver dispatch assigns (docs/opt-in-families.md, "Order Chat"): the driver an order is given
 * to by hand (delivery_order.driver_id) takes part in the order's chat, posting and reading with the staff; another
 * driver of the business finds no such order (404), and the driver loses the chat once the order is taken from it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { dispatchWorld, type DispatchWorld, type Driver } from './world.ts';

describe('dispatch: the assigned driver in the order chat', () => {
  let app: TestApp;
  let w: DispatchWorld;
  let assigned: Driver;
  let otherDriver: Driver;

  before(async () => {
    app = await startApp();
    w = await dispatchWorld(app);
    const platform = await app.login('platform@demo.example', 'demo-password');
    const on = await app.http.put(
      `/v1/platform/businesses/${encodeURIComponent(w.b.business.code)}/families/order_chat`,
      { enabled: true },
      { token: platform },
    );
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assigned = await w.driver();
    otherDriver = await w.driver();
  });
  after(async () => {
    await w.receiver.close();
    await app.running.close();
  });

  const post = (orderId: number, token: string, text: string) =>
    app.http.post(`/v1/orders/${orderId}/chat/messages`, { text }, { token });
  const messages = (orderId: number, token: string) => app.http.get(`/v1/orders/${orderId}/chat/messages`, { token });

  test('the driver given the order posts and reads; another driver gets 404; unassigned, the driver loses it', async () => {
    const o = await w.order();
    // Before the assignment the driver does not see the order.
    assert.equal((await post(o.id, assigned.token, 'hello?')).status, 404);
    const res = await app.http.post(
      '/v1/dispatch/assign',
      { order_id: o.id, driver_id: assigned.id },
      { token: w.admin },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));

    assert.equal((await post(o.id, w.admin, 'Gate code is 1234')).status, 201);
    const posted = await post(o.id, assigned.token, 'Thanks, on my way');
    assert.equal(posted.status, 201, JSON.stringify(posted.body));
    assert.equal(posted.body.message.author.role, 'driver');
    const read = await messages(o.id, assigned.token);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.deepEqual(
      read.body.messages.map((m: { text: string }) => m.text),
      ['Thanks, on my way', 'Gate code is 1234'],
    );
    const staffRead = await messages(o.id, w.admin);
    assert.equal(staffRead.body.messages[0].author.user_id, assigned.id);

    assert.equal((await messages(o.id, otherDriver.token)).status, 404);
    assert.equal((await post(o.id, otherDriver.token, 'me too')).status, 404);

    assert.equal((await app.http.post('/v1/dispatch/unassign', { order_id: o.id }, { token: w.admin })).status, 200);
    assert.equal((await messages(o.id, assigned.token)).status, 404);
  });
});
