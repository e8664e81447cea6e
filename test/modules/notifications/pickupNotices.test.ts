// Recipients get their pickup code by email through a real SMTP server (the mail catcher `npm start` runs): once
// the deposit is confirmed, again after the mail server was down for a while, and never written anywhere but the
// mail. The business sees each notification with its attempts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMailCatcher, type MailCatcher } from '../../../src/launchers/mailCatcher.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { lockerWorld } from '../../helpers/lockerWorld.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('pickup code notifications', () => {
  let app: TestApp;
  let mail: MailCatcher;
  let smtpPort: number;
  let w: Awaited<ReturnType<typeof lockerWorld>>;
  const notificationsOf = async (id: number) =>
    (await app.http.get(`/v1/notifications?reference_type=locker_delivery&reference_id=${id}`, { token: w.admin })).body
      .notifications;

  before(async () => {
    mail = await startMailCatcher({ smtpPort: 0, webPort: 0 });
    smtpPort = Number(new URL(mail.smtpUrl).port);
    app = await startApp({ SMTP_URL: mail.smtpUrl, NOTIFY_RETRY_SCALE: '0.001', LOCKER_TIMER_SCALE: '0.0005' });
    w = await lockerWorld(app);
  });
  after(async () => {
    await app.running.close();
    await w.receiver.close();
    await mail.close();
  });

  test('the confirmed deposit sends the recipient the pickup code; the notification is recorded without it', async () => {
    const d = await w.deliver('remote_open');
    await w.act(d.id, 'open');
    await w.act(d.id, 'confirm');
    const code = await w.pickupCode(d.id);
    const sent = await waitFor(async () => mail.mails.find((m) => m.text.includes(code)));
    assert.deepEqual(sent.to, ['ada@example.com']);
    assert.match(sent.subject, /pickup code/);
    assert.ok(sent.text.includes(`Pickup code: ${code}`) && sent.text.includes('Hello Ada'));

    const [n] = await waitFor(async () => {
      const list = await notificationsOf(d.id);
      return list[0]?.status === 'sent' && list;
    });
    assert.deepEqual(
      [n.template, n.recipient, n.attempts, n.last_error],
      ['locker_pickup_code', 'ada@example.com', 1, null],
    );
    const rows = JSON.stringify(
      await app.em().execute('select * from notification where reference_id = ?', [String(d.id)]),
    );
    assert.ok(!rows.includes(code), 'the notification row holds no code');
    const history = JSON.stringify(
      await app.running.temporal.workflow.getHandle(`locker-delivery-${d.id}`).fetchHistory(),
    );
    assert.ok(!history.includes(code), 'nor does the workflow history');
    assert.equal(
      (await app.http.get('/v1/notifications', { token: w.provider })).status,
      403,
      "the business's list, not the provider's",
    );
    await w.door(d.doors[0]!, 'closed');
  });

  test('a mail server down when the code is due: the attempts are counted, and the mail goes out once it is back', async () => {
    await mail.close();
    const d = await w.deliver('remote_open');
    await w.act(d.id, 'open');
    await w.act(d.id, 'confirm');
    const [pending] = await waitFor(async () => {
      const list = await notificationsOf(d.id);
      return list[0]?.attempts >= 2 && list;
    });
    assert.equal(pending.status, 'pending');
    assert.ok(pending.last_error, 'the last error is kept');
    mail = await startMailCatcher({ smtpPort, webPort: null });
    const code = await w.pickupCode(d.id);
    await waitFor(async () => mail.mails.find((m) => m.text.includes(code)), 30_000);
    const [n] = await waitFor(async () => {
      const list = await notificationsOf(d.id);
      return list[0]?.status === 'sent' && list;
    });
    assert.ok(n.attempts >= 3, `attempts ${n.attempts}`);
    assert.equal(mail.mails.filter((m) => m.text.includes(code)).length, 1, 'sent once');
  });

  test('a recipient without an email address: the notification is recorded as skipped, and the delivery goes on', async () => {
    const res = await app.http.post(
      '/v1/partner-locker/deliveries',
      {
        device_id: w.b.device.code,
        parcels: [{ reference: 'NO-MAIL', size: 'M' }],
        recipient: { name: 'Bo', phone: '+33123456789' },
        open_mode: 'remote_open',
      },
      { token: w.provider },
    );
    const id = res.body.delivery.id;
    await w.act(id, 'open');
    await w.act(id, 'confirm');
    const [n] = await waitFor(async () => {
      const list = await notificationsOf(id);
      return list[0]?.status === 'skipped' && list;
    });
    assert.deepEqual([n.recipient, n.last_error], [null, 'the recipient has no email address']);
  });
});
