// Code rotation over HTTP, with the provider's real receiver and a real SMTP server: the old code stops working at
// once, the new delivery code reaches only the provider's answer, the new pickup code only the recipient's mail;
// no webhook and no workflow history holds either, and later events carry no pickup code.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMailCatcher, type MailCatcher } from '../../../src/launchers/mailCatcher.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { lockerWorld } from '../../helpers/lockerWorld.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('locker code rotation', () => {
  let app: TestApp;
  let mail: MailCatcher;
  let w: Awaited<ReturnType<typeof lockerWorld>>;
  const nowhere = async (id: number, code: string) => {
    const bodies = w.receiver.received
      .filter((r) => r.body.includes(`"delivery_id":"${id}"`))
      .map((r) => r.body)
      .join('\n');
    assert.ok(!bodies.includes(code), 'no webhook carries the new code');
    const history = JSON.stringify(
      await app.running.temporal.workflow.getHandle(`locker-delivery-${id}`).fetchHistory(),
    );
    assert.ok(!history.includes(code), 'nor the workflow history');
  };
  const mailWith = (code: string) => waitFor(async () => mail.mails.find((m) => m.text.includes(code)));

  before(async () => {
    mail = await startMailCatcher({ smtpPort: 0, webPort: null });
    // An hour lasts 1.8 s: the hourly rotation below, and the 72 hour pickup expiry over two minutes.
    app = await startApp({ SMTP_URL: mail.smtpUrl, NOTIFY_RETRY_SCALE: '0.001', LOCKER_TIMER_SCALE: '0.0005' });
    w = await lockerWorld(app);
  });
  after(async () => {
    await app.running.close();
    await w.receiver.close();
    await mail.close();
  });

  test('a new delivery code is answered to the provider once; the old one opens nothing from then on', async () => {
    const d = await w.deliver('screen_code');
    const rotated = await w.act(d.id, 'rotate-code', { code: 'delivery' });
    assert.equal(rotated.status, 200);
    const fresh: string = rotated.body.delivery_code;
    assert.match(fresh, /^\d{8}$/);
    assert.notEqual(fresh, d.code);
    assert.equal((await w.screen(d.code!)).status, 422, 'the old code stopped working');
    assert.equal((await w.screen(fresh)).body.opened, 'deposit');
    const event = await w.event(d.id, 'partner_locker.delivery.code_rotated');
    assert.deepEqual([event.data.rotation.code, event.data.rotation.recipient_notified], ['delivery_code', false]);
    await w.event(d.id, 'partner_locker.delivery.doors_opened');
    await nowhere(d.id, fresh);
    const remote = await w.deliver('remote_open');
    const refused = await w.act(remote.id, 'rotate-code', { code: 'delivery' }, 'de');
    assert.deepEqual(
      [refused.status, refused.body.errors[0].field, refused.body.errors[0].message],
      [422, 'code', 'Diese Zustellung wird aus der Ferne geöffnet und hat keinen Zustellcode.'],
    );
    await w.act(d.id, 'cancel');
    await w.act(remote.id, 'cancel');
  });

  test('a new pickup code goes to the recipient only; the old one stops working, and later events carry none', async () => {
    const d = await w.deliver('remote_open');
    await w.act(d.id, 'open');
    await w.act(d.id, 'confirm');
    const first = await w.pickupCode(d.id);
    await mailWith(first);
    const rotated = await w.act(d.id, 'rotate-code', { code: 'pickup', notify_recipient: true });
    assert.deepEqual([rotated.status, rotated.body.delivery_code], [200, undefined]);
    const second = await w.pickupCode(d.id);
    assert.notEqual(second, first);
    const told = await mailWith(second);
    assert.match(told.subject, /new pickup code/);
    const event = await w.event(d.id, 'partner_locker.delivery.code_rotated');
    assert.deepEqual([event.data.rotation.code, event.data.rotation.recipient_notified], ['pickup_code', true]);
    assert.equal((await w.screen(first)).status, 422, 'the old pickup code stopped working');
    assert.equal((await w.screen(second)).body.opened, 'pickup');
    await w.door(d.doors[0]!, 'closed');
    await w.event(d.id, 'partner_locker.pickup.completed');
    await nowhere(d.id, second);
    assert.equal(
      (await w.act(d.id, 'rotate-code', { code: 'pickup' })).status,
      409,
      'nothing to rotate once collected',
    );
  });

  test('rotated before the deposit: the recipient is told at delivery, not before, and the events carry pickup_code null', async () => {
    const d = await w.deliver('remote_open');
    const rotated = await w.act(d.id, 'rotate-code', { code: 'pickup' });
    assert.equal(rotated.status, 200);
    assert.equal(
      (await w.event(d.id, 'partner_locker.delivery.code_rotated')).data.rotation.recipient_notified,
      false,
      'the recipient has no code yet',
    );
    await w.act(d.id, 'open');
    await w.act(d.id, 'confirm');
    assert.equal((await w.event(d.id, 'partner_locker.delivery.doors_opened')).data.pickup_code, null);
    assert.equal((await w.event(d.id, 'partner_locker.delivery.delivered')).data.pickup_code, null);
    const code = await w.pickupCode(d.id);
    assert.match((await mailWith(code)).subject, /^Your pickup code/);
    await nowhere(d.id, code);
    await w.screen(code);
    await w.door(d.doors[0]!, 'closed');
  });

  test("the business's periodic rotation replaces a waiting pickup code and tells the recipient", async () => {
    const hourly = await lockerWorld(app, { code_rotation_hours: 1 });
    try {
      const d = await hourly.deliver('remote_open');
      await hourly.act(d.id, 'open');
      await hourly.act(d.id, 'confirm');
      const first = await hourly.pickupCode(d.id);
      await mailWith(first);
      const rotation = await hourly.event(d.id, 'partner_locker.delivery.code_rotated');
      assert.deepEqual([rotation.data.rotation.code, rotation.data.rotation.recipient_notified], ['pickup_code', true]);
      const second = await hourly.pickupCode(d.id);
      assert.notEqual(second, first);
      await mailWith(second);
      assert.equal((await hourly.screen(first)).status, 422);
    } finally {
      await hourly.receiver.close();
    }
  });
});
