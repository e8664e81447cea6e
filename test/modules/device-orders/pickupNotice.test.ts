// A device order's recipient gets its pickup code by mail through a real SMTP server (the mail catcher `npm start`
// runs), whatever stored it: an approved proposal, whose kept answer shows the code as "[secret]", or a direct call,
// whose answer carries it once. The recipient is the one of the linked order; the code is in the mail only, and the
// business sees each notice, and when it could not be sent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMailCatcher, type MailCatcher } from '../../../src/launchers/mailCatcher.ts';
import { deviceOrderWorkflowId } from '../../../src/modules/device-orders/contract.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../../helpers/factories.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('device order pickup notices', () => {
  let app: TestApp;
  let mail: MailCatcher;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let employee: string;
  const store = (over: Record<string, unknown>) => ({
    kind: 'delivery',
    device_id: b.device.code,
    reference_number: `R-${Date.now()}`,
    due_at: new Date(Date.now() + 86_400_000).toISOString(),
    ...over,
  });
  const noticesOf = async (id: number) =>
    (await app.http.get(`/v1/notifications?reference_type=device_order&reference_id=${id}`, { token: admin })).body
      .notifications as { template: string; status: string; recipient: string | null; last_error: string | null }[];
  const orderFor = async (email: string | null) => {
    const order = await makeOrder(app.em(), b.business.id);
    if (email !== null)
      await app
        .em()
        .execute(
          `update delivery_order set recipient = jsonb_set(recipient, '{email}', to_jsonb(?::text)) where id = ?`,
          [email, order.id],
        );
    return order;
  };

  before(async () => {
    mail = await startMailCatcher({ smtpPort: 0, webPort: 0 });
    app = await startApp({ SMTP_URL: mail.smtpUrl, NOTIFY_RETRY_SCALE: '0.001' });
    b = await makeBusiness(app.em());
    [admin, employee] = await Promise.all([
      app.login(b.users.admin.email, PASSWORD),
      app.login(b.users.employee.email, PASSWORD),
    ]);
  });
  after(async () => {
    await app.running.close();
    await mail.close();
  });

  test("an approved device order's recipient gets the pickup code by mail, and the code collects the parcel", async () => {
    const order = await orderFor('ada@example.com');
    const proposed = await app.http.post(
      '/v1/mcp/approvals',
      { tool: 'device_order_store', arguments: store({ grid_code: 'A01', order_id: order.id }) },
      { token: employee },
    );
    assert.equal(proposed.status, 201, JSON.stringify(proposed.body));
    const approved = await app.http.post(
      `/v1/mcp/approvals/${proposed.body.approval.id}/approve`,
      {},
      { token: admin },
    );
    assert.equal(approved.body.approval.status, 'done', JSON.stringify(approved.body));
    assert.equal(approved.body.approval.result.pickup_code, '[secret]', 'the queue never shows the code');
    const id: number = approved.body.approval.result.device_order.id;

    const sent = await waitFor(async () => mail.mails.find((m) => m.to.includes('ada@example.com')));
    assert.match(sent.subject, /pickup code/i);
    const code = /Pickup code: (\d+)/.exec(sent.text)?.[1];
    assert.ok(code, sent.text);
    assert.ok(sent.text.includes('Hello Ada Recipient') && sent.text.includes('compartment A01'), sent.text);

    const [n] = await waitFor(async () => {
      const list = await noticesOf(id);
      return list[0]?.status === 'sent' && list;
    });
    assert.deepEqual([n!.template, n!.recipient], ['device_order_pickup_code', 'ada@example.com']);
    const rows = JSON.stringify(
      await app.em().execute('select * from notification where reference_id = ?', [String(id)]),
    );
    assert.ok(!rows.includes(code), 'the notification row holds no code');
    for (const workflowId of [deviceOrderWorkflowId(id), proposed.body.approval.workflow_id as string]) {
      const history = JSON.stringify(await app.running.temporal.workflow.getHandle(workflowId).fetchHistory());
      assert.ok(!history.includes(code), `nor does the history of ${workflowId}`);
    }

    const collected = await app.http.post(`/v1/device-orders/${id}/collect`, { pickup_code: code }, { token: admin });
    assert.equal(collected.status, 200, JSON.stringify(collected.body));
    assert.equal(collected.body.device_order.status, 'collected');
  });

  test('a direct store answers the code once and tells the recipient too; a recipient without an email is recorded as skipped; without an order nobody is told', async () => {
    const order = await orderFor('grace@example.com');
    const direct = await app.http.post('/v1/device-orders', store({ grid_code: 'A02', order_id: order.id }), {
      token: employee,
    });
    assert.equal(direct.status, 201, JSON.stringify(direct.body));
    const code: string = direct.body.pickup_code;
    assert.match(code, /^\d{6}$/, "the creator's answer carries the code");
    const sent = await waitFor(async () => mail.mails.find((m) => m.to.includes('grace@example.com')));
    assert.ok(sent.text.includes(`Pickup code: ${code}`), sent.text);

    const noEmail = await app.http.post(
      '/v1/device-orders',
      store({ grid_code: 'A03', order_id: (await orderFor(null)).id }),
      { token: employee },
    );
    assert.equal(noEmail.status, 201);
    const [skipped] = await waitFor(async () => {
      const list = await noticesOf(noEmail.body.device_order.id);
      return list[0]?.status === 'skipped' && list;
    });
    assert.deepEqual([skipped!.recipient, skipped!.last_error], [null, 'the recipient has no email address']);

    // Without a linked order the service knows no recipient; a storage parcel awaits its depositor. Neither process
    // sends anything, and only the store's answer has the code.
    for (const [kind, grid] of [
      ['delivery', 'A04'],
      ['storage', 'A01'],
    ]) {
      const stored = await app.http.post('/v1/device-orders', store({ kind, grid_code: grid }), { token: employee });
      assert.equal(stored.status, 201, JSON.stringify(stored.body));
      const id: number = stored.body.device_order.id;
      const collected = await app.http.post(
        `/v1/device-orders/${id}/collect`,
        { pickup_code: stored.body.pickup_code },
        { token: admin },
      );
      assert.equal(collected.status, 200);
      const history = JSON.stringify(
        await app.running.temporal.workflow.getHandle(deviceOrderWorkflowId(id)).fetchHistory(),
      );
      assert.ok(!history.includes('notifyDeviceOrderRecipient'), `the ${kind} process sends nothing`);
      assert.deepEqual(await noticesOf(id), []);
      const [kept] = await app
        .em()
        .execute<{ sealed: string | null }[]>('select pickup_code_sealed as sealed from device_order where id = ?', [
          id,
        ]);
      assert.equal(kept!.sealed, null, 'nor is its code kept');
    }
  });
});
