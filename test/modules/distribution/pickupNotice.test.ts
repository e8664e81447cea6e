// A package shelved into a locker: the recipient's notice goes out by email through a real SMTP server, and the
// code in it collects the parcel from the device order the shelving stored. The code is in the mail only.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startMailCatcher, type MailCatcher } from '../../../src/launchers/mailCatcher.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../../helpers/factories.ts';
import { waitFor } from '../../helpers/wait.ts';

let app: TestApp;
let mail: MailCatcher;
before(async () => {
  mail = await startMailCatcher({ smtpPort: 0, webPort: 0 });
  app = await startApp({ SMTP_URL: mail.smtpUrl, NOTIFY_RETRY_SCALE: '0.001' });
});
after(async () => {
  await app.running.close();
  await mail.close();
});

test('the recipient of a package shelved into a locker gets its pickup code by mail, and the code collects it', async () => {
  const b = await makeBusiness(app.em());
  const admin = await app.login(b.users.admin.email, PASSWORD);
  for (const place of [
    { kind: 'warehouse', code: 'WH' },
    { kind: 'locker', code: 'L1', device_id: b.device.code },
  ]) {
    assert.equal(
      (await app.http.post('/v1/places', { name: `Place ${place.code}`, ...place }, { token: admin })).status,
      201,
    );
  }
  const order = await makeOrder(app.em(), b.business.id);
  await app
    .em()
    .execute(
      `update delivery_order set recipient = jsonb_set(recipient, '{email}', '"ada@example.com"') where id = ?`,
      [order.id],
    );
  const number = order.trackingNumber;
  for (const [i, [action, location]] of [
    ['received', 'WH'],
    ['loaded', 'WH'],
    ['delivered', 'L1'],
    ['shelved', 'L1'],
  ].entries()) {
    const res = await app.http.post(
      '/v1/distribution/scans',
      {
        package_number: number,
        action,
        location,
        ...(action === 'shelved' ? { grid_code: 'A02' } : {}),
        scanned_at: new Date(Date.UTC(2026, 10, 24, 11, i)).toISOString(),
      },
      { token: admin },
    );
    assert.equal(res.body.scan?.outcome, 'applied', JSON.stringify(res.body));
  }
  const sent = await waitFor(async () => mail.mails.find((m) => m.text.includes(number)));
  assert.deepEqual(sent.to, ['ada@example.com']);
  assert.ok(sent.text.includes('Place L1') && sent.text.includes('compartment A02'), sent.text);
  const code = /Pickup code: (\S+)/.exec(sent.text)![1]!;

  const distribution = (await app.http.get(`/v1/distribution/packages/${number}`, { token: admin })).body.distribution;
  const history = JSON.stringify(
    await app.running.temporal.workflow.getHandle(distribution.workflow_id).fetchHistory(),
  );
  assert.ok(!history.includes(code), 'the code is in no workflow history');
  const [n] = await waitFor(async () => {
    const list = (await app.http.get(`/v1/notifications?reference_type=package`, { token: admin })).body.notifications;
    return list.length > 0 && list[0].status === 'sent' && list;
  });
  assert.equal(n.template, 'distribution_shelved');
  const collected = await app.http.post(
    `/v1/device-orders/${distribution.device_order_id}/collect`,
    { pickup_code: code },
    { token: admin },
  );
  assert.equal(collected.status, 200, JSON.stringify(collected.body));
  assert.equal(collected.body.device_order.status, 'collected');
});
