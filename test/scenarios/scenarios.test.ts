// The journeys `npm run scenario` plays, played here against the service in this process with business timers
// compressed, a real mail catcher and the scenarios' own webhook receiver, as accounts of a business of their own.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { grantLockerPartner } from '../../src/modules/locker-deliveries/index.ts';
import { compartmentsOf, insertDevice } from '../../src/modules/lockers/index.ts';
import { startMailCatcher, type MailCatcher } from '../../src/launchers/mailCatcher.ts';
import { SCENARIOS } from '../../scenarios/index.ts';
import { CATALOG } from '../../src/modules/index.ts';
import { play, type Played } from '../../scenarios/play.ts';
import { COMPRESSED_TIMERS } from '../../scenarios/service.ts';
import type { Accounts } from '../../scenarios/world.ts';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { startApp, type TestApp } from '../helpers/app.ts';
import { eventDefinition } from '../helpers/events.ts';
import { makeBusiness, makeProvider, PASSWORD } from '../helpers/factories.ts';
import { midMorningBusiness } from '../helpers/localDay.ts';

describe('scenarios', () => {
  let app: TestApp;
  let mail: MailCatcher;
  let accounts: Accounts;
  /**
   * The driver's day is played in a business of its own whose timezone makes it mid-morning now: the day is
   * re-optimised from now to the business's midnight, which on UTC near midnight would leave nothing to plan.
   */
  let dayAccounts: Accounts;

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
    const secondDriver = await app.http.post(
      '/v1/drivers',
      { name: `Driver Two ${b.tag}`, email: `driver2-${b.tag}@test.example`, password: PASSWORD },
      { token: await app.login(b.users.admin.email, PASSWORD) },
    );
    assert.equal(secondDriver.status, 201, JSON.stringify(secondDriver.body));
    accounts = {
      drivers: [
        { email: b.users.driver.email, password: PASSWORD },
        { email: `driver2-${b.tag}@test.example`, password: PASSWORD },
      ],
      admin: { email: b.users.admin.email, password: PASSWORD },
      carrier: { email: carrier.user.email, password: PASSWORD },
      carrierCode: carrier.business.code,
      lockerProvider: { email: lockers.user.email, password: PASSWORD },
      locker: b.device.code,
      contractors: [
        { email: b.users.broker.email, password: PASSWORD },
        { email: b.users.broker2.email, password: PASSWORD },
      ],
      employee: { email: b.users.employee.email, password: PASSWORD },
      customer: { email: b.users.customer.email, password: PASSWORD },
    };
    const day = await makeBusiness(app.em());
    const { timezone } = await midMorningBusiness(app.em(), day.business.id);
    const dayDriver = await app.http.post(
      '/v1/drivers',
      { name: `Driver Two ${day.tag}`, email: `driver2-${day.tag}@test.example`, password: PASSWORD },
      { token: await app.login(day.users.admin.email, PASSWORD) },
    );
    assert.equal(dayDriver.status, 201, JSON.stringify(dayDriver.body));
    dayAccounts = {
      ...accounts,
      admin: { email: day.users.admin.email, password: PASSWORD },
      drivers: [
        { email: day.users.driver.email, password: PASSWORD },
        { email: `driver2-${day.tag}@test.example`, password: PASSWORD },
      ],
      timezone,
    };
  });
  after(async () => {
    await app.running.close();
    await mail.close();
  });

  const run = async (name: string, sandbox = false, withWebhooks = true, as = accounts): Promise<Played> => {
    const played = await play(
      SCENARIOS.find((s) => s.name === name)!,
      { url: app.url, mailUrl: mail.webUrl!, accounts: as, sandbox, waitMs: 30_000 },
    );
    assert.equal(
      played.error,
      undefined,
      `${played.error?.message}\n${played.journal.entries.map((e) => `${e.kind} ${e.text}`).join('\n')}`,
    );
    const webhooks = played.journal.texts('webhook');
    assert.ok(webhooks.length > 0 || !withWebhooks, 'the scenario received its webhooks');
    assert.ok(
      webhooks.every((w) => w.endsWith('signature verified')),
      webhooks.join('\n'),
    );
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

  test('route-board: claim, standby, withdraw and promote, early close, award, driver named, settled', async () => {
    const p = await run('route-board');
    const boardEvents = p.journal
      .texts('webhook')
      .filter((w) => w.includes('route_board.changed'))
      .map((w) => w.split(/\s+/)[1]);
    assert.ok(boardEvents.length >= 9, boardEvents.join('\n'));
    assert.ok(p.journal.texts('step').some((s) => /board \d+ settled: route \d+ is driven by \d+/.test(s)));
  });

  test('driver-day: a plan, an offer rejected, timed out and accepted, a delivery with a photo, a failed attempt, re-optimisation', async () => {
    const p = await run('driver-day', false, true, dayAccounts);
    const ajv = new Ajv({ strict: false });
    formats.default(ajv);
    const seen = new Set<string>();
    const bodies = p
      .webhooks!.filter((w) => w.verified && w.endpoint === 'business' && !seen.has(w.id) && seen.add(w.id))
      .map((w) => w.body);
    // Every payload matches the schema its event declares.
    for (const e of bodies) {
      const validate = ajv.compile(eventDefinition(e.event)!.payload);
      assert.ok(validate(e), `${e.event} matches its schema: ${ajv.errorsText(validate.errors)}`);
    }
    const about = (ref: string) => bodies.filter((e) => e.data?.order?.order_ref?.endsWith(`-${ref}`));
    const lifecycle = (events: any[]) => events.filter((e) => /^order\.(?!status_change|created)/.test(e.event));

    // The late order's auto-assign, in the order the offers were made (OLC-O<offer id>.<step>).
    const rank = ['assigned', 'accepted', 'rejected', 'unassigned'];
    const offerKey = (id: string) => {
      const [, offer, step] = /^OLC-O(\d+)\.(\w+)$/.exec(id)!;
      return Number(offer) * 10 + rank.indexOf(step!);
    };
    const offers = lifecycle(about('LATE'))
      .filter((e) => e.event_id.startsWith('OLC-O'))
      .sort((x, y) => offerKey(x.event_id) - offerKey(y.event_id));
    const [a, b] = [offers[0]?.data.driver_id, offers[3]?.data.driver_id];
    assert.notEqual(a, b);
    assert.deepEqual(
      offers.map((e) => [e.event, e.data.driver_id ?? e.data.previous_driver_id, e.data.source ?? e.data.reason]),
      [
        ['order.assigned', a, 'auto_assign'],
        ['order.rejected', a, 'van full'],
        ['order.unassigned', a, 'reject'],
        ['order.assigned', b, 'auto_assign'],
        ['order.unassigned', b, 'timeout'],
        ['order.assigned', a, 'auto_assign'],
        ['order.accepted', a, undefined],
      ],
    );

    // The delivered stop: planned, each step reported in turn, the photo in its tracking.event.
    const completed = bodies.find((e) => e.event === 'order.completed')!;
    const delivered = bodies.filter((e) => e.data?.order?.id === completed.data.order.id);
    assert.deepEqual(
      lifecycle(delivered)
        .sort((x, y) => Date.parse(x.occurred_at) - Date.parse(y.occurred_at))
        .map((e) => e.event),
      ['order.assigned', 'order.pickup_started', 'order.picked_up', 'order.on_the_way', 'order.completed'],
    );
    assert.equal(lifecycle(delivered)[0].data.source, 'route_planning');
    assert.equal(completed.data.order.status_id, 3);
    const statuses = delivered.filter((e) => e.event === 'order.status_change').map((e) => e.data.after_status);
    for (const s of [6, 7, 2, 3]) assert.ok(statuses.includes(s), `status ${s} in ${statuses}`);
    const tracked = delivered.find((e) => e.event === 'tracking.event' && e.data.proof_files?.length > 0);
    assert.ok(tracked, 'tracking.event with the proof file');
    assert.equal(tracked.data.proof_files.length, 1);
    assert.equal(tracked.data.proof_files[0].type, 'photo');
    assert.equal(tracked.data.tracking_event.status_id, 3);

    // The failed attempt.
    const failed = bodies.find((e) => e.event === 'order.failed')!;
    assert.equal(failed.data.failure_reason, 'needs_rescheduling');
    assert.ok([12, 13, 14].includes(failed.data.order.status_id), String(failed.data.order.status_id));

    // Re-optimised: on each route the done and failed stops come before every pending one.
    const replanned = p.journal.texts('step').filter((s) => s.includes('re-optimised, finished stops first'));
    assert.ok(replanned.length > 0);
    for (const line of replanned) assert.doesNotMatch(line, /pending.*(done|failed)/);
    assert.match(replanned.join('\n'), /#1 \w+ \d+ (done|failed)/);
    assert.ok(replanned.some((l) => l.includes(' done')) && replanned.some((l) => l.includes(' failed')));
    for (const prefix of ['build-route', 'auto-assign', 'route'])
      assert.ok(
        p.journal.workflows.some((id) => id.startsWith(`${prefix}-`)),
        prefix,
      );
  });

  test('label-journey: rated by both sandbox carriers, the cheapest bought, its PDF written where it says, voided', async () => {
    const p = await run('label-journey', false, false);
    const steps = p.journal.texts('step');
    assert.ok(steps.filter((s) => /^rate sandbox_(swift|parcel)\//.test(s)).length >= 4, steps.join('\n'));
    const written = steps.map((s) => /written to (\S+\.pdf)$/.exec(s)?.[1]).find(Boolean);
    assert.ok(written, steps.join('\n'));
    const number = /tms-label-(\w+)\.pdf$/.exec(written)![1]!;
    assert.ok(steps.some((s) => s.includes(`carrier tracking number ${number}`)));
    // The file is the label: a PDF whose barcode a reader decodes to the carrier's tracking number.
    const page = written.replace(/\.pdf$/, '');
    execFileSync('pdftoppm', ['-r', '203', '-png', '-singlefile', written, page]);
    assert.equal(
      execFileSync('zbarimg', ['--raw', '-q', `${page}.png`])
        .toString()
        .trim(),
      number,
    );
    fs.rmSync(`${page}.png`);
    fs.rmSync(written);
    assert.ok(
      steps.some((s) => /voided: order \d+ is CANCELLED/.test(s)),
      steps.join('\n'),
    );
  });

  test('uniorder-job: fifty shipments rated in batches of 20 and created in one async job, every item reported', async () => {
    const p = await run('uniorder-job', false, false);
    const steps = p.journal.texts('step');
    assert.ok(steps.includes('50 shipments rated in batches of 20'), steps.join('\n'));
    assert.ok(
      steps.some((s) => /^every item reported: 50 label orders, 0 refused$/.test(s)),
      steps.join('\n'),
    );
    assert.ok(p.journal.workflows.some((w) => w.startsWith('uniorder-job-')));
  });

  test('customer-journey: wallet, a shipping order paid and placed, storage received and charged, a ship-out handed over, a refund', async () => {
    const p = await run('customer-journey', false, false);
    const steps = p.journal.texts('step');
    const all = steps.join('\n');
    assert.ok(
      steps.some((s) => /^shipping order \d+ paid: confirmed$/.test(s)),
      all,
    );
    assert.ok(
      steps.some((s) => /^storage order \d+: stored$/.test(s)),
      all,
    );
    assert.ok(
      steps.some((s) => /storage days charged/.test(s) && !/: 0 storage days/.test(s)),
      all,
    );
    assert.ok(
      steps.some((s) => /^employee: hand-over -> handed_over$/.test(s)),
      all,
    );
    assert.ok(
      steps.some((s) => /cancelled: refunded to the wallet$/.test(s)),
      all,
    );
    for (const w of ['shipping-order-', 'storage-order-', 'storage-fees-', 'shipout-'])
      assert.ok(
        p.journal.workflows.some((id) => id.startsWith(w)),
        w,
      );
  });

  test('price-hiding: no price field in any answer of the hidden families, every payment refused', async () => {
    const p = await run('price-hiding', false, false);
    const steps = p.journal.texts('step');
    assert.equal(steps.filter((s) => s.endsWith('403 PRICE_HIDDEN_SETTLE_OFFLINE')).length, 3, steps.join('\n'));
    assert.ok(
      steps.some((s) => /^\d+ answers of the hidden families: no price field/.test(s)),
      steps.join('\n'),
    );
    // Every customer operation of the families, the wallet's and the reads of the delivery orders they place is
    // walked: one the scenario does not call fails here.
    const walked = steps
      .find((s) => s.startsWith('walked: '))!
      .slice('walked: '.length)
      .split(', ');
    const deliveryOrderReads = ['get_order_detail', 'order_snapshot', 'find_order'];
    const families = CATALOG.filter(
      (op) =>
        op.roles?.includes('customer') &&
        (['Customer shipping orders', 'Storage', 'Ship-outs', 'Wallet'].includes(op.tag) ||
          deliveryOrderReads.includes(op.name)),
    );
    assert.ok(families.length >= 24, String(families.length));
    assert.ok(
      steps.some((s) => /^wallet: balance .*; [1-9]\d* entries of hidden orders without amounts$/.test(s)),
      steps.join('\n'),
    );
    for (const op of families) {
      const pattern = new RegExp(`^${op.rest!.method} ${op.rest!.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      assert.ok(
        walked.some((w) => pattern.test(w)),
        `${op.name} (${op.rest!.method} ${op.rest!.path}) is not walked`,
      );
    }
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
