// The journeys `npm run scenario` plays, played here against the service in this process with business timers
// compressed, a real mail catcher and the scenarios' own webhook receiver, as accounts of a business of their own.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { grantLockerPartner } from '../../src/modules/locker-deliveries/index.ts';
import { compartmentsOf, insertDevice } from '../../src/modules/lockers/index.ts';
import { startMailCatcher, type MailCatcher } from '../../src/launchers/mailCatcher.ts';
import { SCENARIOS } from '../../scenarios/index.ts';
import { play, type Played } from '../../scenarios/play.ts';
import { COMPRESSED_TIMERS } from '../../scenarios/service.ts';
import type { Accounts } from '../../scenarios/world.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { makeBusiness, makeProvider, PASSWORD } from '../helpers/factories.ts';

describe('scenarios', () => {
  let app: TestApp;
  let mail: MailCatcher;
  let accounts: Accounts;

  before(async () => {
    mail = await startMailCatcher({ smtpPort: 0, webPort: 0 });
    app = await startApp({ SMTP_URL: mail.smtpUrl, ...COMPRESSED_TIMERS });
    const b = await makeBusiness(app.em());
    const carrier = await makeProvider(app.em(), 'delivery_provider');
    const lockers = await makeProvider(app.em(), 'locker_provider');
    await grantLockerPartner(app.em(), b.business.id, lockers.business.id);
    await insertDevice(app.em(), {
      businessId: b.business.id,
      code: `SANDBOX-${b.tag}`,
      name: 'Sandbox locker',
      sandbox: true,
      compartments: compartmentsOf(['M01', 'M02']),
    });
    accounts = {
      admin: { email: b.users.admin.email, password: PASSWORD },
      carrier: { email: carrier.user.email, password: PASSWORD },
      carrierCode: carrier.business.code,
      lockerProvider: { email: lockers.user.email, password: PASSWORD },
      locker: b.device.code,
    };
  });
  after(async () => {
    await app.running.close();
    await mail.close();
  });

  const run = async (name: string, sandbox = false): Promise<Played> => {
    const played = await play(
      SCENARIOS.find((s) => s.name === name)!,
      { url: app.url, mailUrl: mail.webUrl!, accounts, sandbox, waitMs: 30_000 },
    );
    assert.equal(
      played.error,
      undefined,
      `${played.error?.message}\n${played.journal.entries.map((e) => `${e.kind} ${e.text}`).join('\n')}`,
    );
    const webhooks = played.journal.texts('webhook');
    assert.ok(webhooks.length > 0 && webhooks.every((w) => w.endsWith('signature verified')), webhooks.join('\n'));
    return played;
  };
  const events = (p: Played) => p.journal.texts('webhook').map((w) => w.split(/\s+/)[1]);
  /** No pickup code the mail catcher holds is anywhere on a timeline. */
  const noCodeShown = (p: Played) => {
    const codes = mail.mails.map((m) => /Pickup code: (\S+)/.exec(m.text)?.[1]).filter(Boolean) as string[];
    assert.ok(codes.length > 0);
    for (const c of codes)
      assert.ok(
        p.journal.entries.every((e) => !e.text.includes(c)),
        'the timeline shows no pickup code',
      );
  };

  test('epcis-locker: EPCIS scans move the package from receiving to a locker compartment; the mailed code collects it', async () => {
    const p = await run('epcis-locker');
    for (const step of ['created', 'loaded', 'delivered', 'shelved'])
      assert.ok(events(p).includes(`carrier_package.distribution.${step}`), step);
    assert.ok(events(p).includes('device_order.stored') && events(p).includes('device_order.collected'));
    assert.equal(p.journal.texts('notice').length, 1);
    assert.deepEqual(
      p.journal.workflows.map((w) => w.replace(/-[^-]+$/, '')),
      ['third-party-delivery', 'distribution', 'device-order'],
    );
    assert.ok(p.journal.texts('step').some((s) => /collects .* device order collected/.test(s)));
    noCodeShown(p);
  });

  test('partner-locker: remote open, deposit reported by the locker, pickup with the code from the mail', async () => {
    const p = await run('partner-locker');
    assert.deepEqual(events(p), [
      'partner_locker.delivery.doors_opened',
      'partner_locker.delivery.delivered',
      'partner_locker.pickup.completed',
    ]);
    assert.equal(p.journal.texts('notice').length, 1);
    assert.ok(p.journal.texts('step').at(-1)!.endsWith('picked_up'));
    noCodeShown(p);
  });

  test('partner-locker --sandbox: the provider alone plays a delivery into the simulated locker to its pickup', async () => {
    const p = await run('partner-locker', true);
    assert.deepEqual(events(p), [
      'partner_locker.delivery.doors_opened',
      'partner_locker.delivery.delivered',
      'partner_locker.pickup.completed',
    ]);
    assert.equal(p.journal.texts('notice').length, 0, 'the code comes from the event, not from a mail');
    assert.ok(p.journal.texts('step').at(-1)!.endsWith('picked_up'));
  });

  test('third-party-late: partial_delivered with one package of two, then delivered with the order', async () => {
    const p = await run('third-party-late');
    const seen = events(p);
    for (const e of [
      'delivery.assignment.created',
      'delivery.assignment.handed_over',
      'delivery.assignment.partial_delivered',
      'order.status_change',
    ])
      assert.ok(seen.includes(e), e);
    const delivered = p.journal
      .texts('webhook')
      .findIndex((w) => w.includes('order.status_change') && w.includes('-> 3'));
    assert.ok(
      seen.indexOf('delivery.assignment.partial_delivered') < delivered,
      'the order is delivered after the partial delivery',
    );
    assert.ok(p.journal.texts('step').some((s) => /partial delivery: \S+ delivered, \S+ in_transit/.test(s)));
  });

  test('fallback: the deadline passes without a handover and the order is back in the planning pool', async () => {
    const p = await run('fallback');
    assert.ok(events(p).includes('delivery.assignment.cancelled'));
    assert.ok(p.journal.texts('step').some((s) => s.includes('fallback_to_self_delivery')));
  });

  test('a scenario without a sandbox mode refuses --sandbox; --list names every scenario', async () => {
    const refused = await play(
      SCENARIOS.find((s) => s.name === 'fallback')!,
      { url: app.url, mailUrl: mail.webUrl!, accounts, sandbox: true },
    );
    assert.match(refused.error!.message, /no sandbox mode/);
    const listed = execFileSync(process.execPath, ['scenarios/run.ts', '--list'], { encoding: 'utf8' });
    for (const s of SCENARIOS) assert.ok(listed.includes(s.name), s.name);
  });
});
