/**
 * SMS Marketing (docs/opt-in-families.md, "SMS Marketing") through the real HTTP API, the worker and the sandbox
 * provider: a campaign reaches each number of the business's order recipients once, skips an opted-out one and
 * reports its counts by query; pause and resume; cancel; quiet hours hold it; the family's 409 while off, not
 * migrated or revoked; 403 for accounts that are not the business's staff; 422 writing nothing; one business never
 * sees another's campaigns, and an opt-out holds for its own business only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  countsQuery,
  SMS_CAMPAIGN_QUEUE,
  SMS_CAMPAIGN_WORKFLOW,
  smsCampaignWorkflowId,
} from '../../../src/modules/sms-marketing/contract.ts';
import type { smsCampaignWorkflow } from '../../../src/modules/sms-marketing/workflows.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { waitFor } from '../../helpers/wait.ts';
import {
  czechMobile,
  ledgerOf,
  orderTo,
  platformSwitches,
  quietLater,
  quietNow,
  usableBusiness,
  type Business,
} from './world.ts';

// Eight hours of quiet last under 9 s.
const ENV = { SMS_PROVIDER: 'sandbox', SMS_CAMPAIGN_TIMER_SCALE: '0.0003', SMS_CAMPAIGN_MAX_PER_MINUTE: '6000' };

describe('SMS Marketing', () => {
  let app: TestApp;
  let platform: string;

  const create = (token: string, body: Record<string, unknown>, lang?: string) =>
    app.http.post('/v1/sms-marketing/campaigns', body, { token, lang });
  const act = (token: string, id: number, action: 'start' | 'pause' | 'resume' | 'cancel') =>
    app.http.post(`/v1/sms-marketing/campaigns/${id}/${action}`, {}, { token });
  const get = (token: string, id: number) => app.http.get(`/v1/sms-marketing/campaigns/${id}`, { token });
  const handle = (id: number) =>
    app.running.temporal.workflow.getHandle<typeof smsCampaignWorkflow>(smsCampaignWorkflowId(id));

  /** A started campaign of the business to its order recipients. */
  async function started(token: string, body: Record<string, unknown> = {}) {
    const made = await create(token, {
      name: 'Winter hours',
      text: 'Our depot closes at 18:00 this week.',
      quiet_hours: quietLater(),
      ...body,
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const res = await act(token, made.body.campaign.id, 'start');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.campaign as { id: number; counts: Record<string, number> };
  }

  /** A business whose orders go to `n` new numbers; answers them. */
  async function withAudience(biz: Business, n: number): Promise<string[]> {
    const phones = Array.from({ length: n }, czechMobile);
    for (const p of phones) await orderTo(app, biz, p);
    return phones.sort();
  }

  before(async () => {
    app = await startApp(ENV);
    platform = await app.login('platform@demo.example', 'demo-password');
  });
  after(() => app.running.close());

  test(
    'a campaign sends once to each number of its audience, skips the opted-out one, and counts by query',
    { timeout: 90_000 },
    async () => {
      const { biz, admin, employee } = await usableBusiness(app, platform);
      const [a, b, c, optedOut] = Array.from({ length: 4 }, czechMobile).sort() as [string, string, string, string];
      // The same number written three ways is one recipient; a number that is none is left out.
      await orderTo(app, biz, a);
      await orderTo(app, biz, `00${a.slice(1)}`);
      await orderTo(app, biz, `${a.slice(4, 7)} ${a.slice(7, 10)} ${a.slice(10)}`, 'CZ');
      await orderTo(app, biz, b);
      await orderTo(app, biz, c);
      await orderTo(app, biz, optedOut);
      await orderTo(app, biz, '12');
      // A French national number, read in the country of its address.
      await orderTo(app, biz, '06 12 34 56 78', 'FR');

      const stop = await app.http.post(
        '/v1/sms-marketing/opt-outs',
        { phone: `${optedOut.slice(4, 7)} ${optedOut.slice(7)}`, region: 'cz' },
        { token: employee },
      );
      assert.equal(stop.status, 200, JSON.stringify(stop.body));
      assert.deepEqual(
        [stop.body.created, stop.body.opt_out.phone, stop.body.opt_out.source],
        [true, optedOut, 'staff'],
      );
      const again = await app.http.post('/v1/sms-marketing/opt-outs', { phone: optedOut }, { token: admin });
      assert.equal(again.body.created, false, 'recorded once, kept as it was');

      // One a second: slow enough to ask the process while it sends.
      const campaign = await started(admin, { per_minute: 60 });
      assert.deepEqual(campaign.counts, { total: 5, sent: 0, failed: 0, skipped_opted_out: 0, pending: 5 });
      const live = await waitFor(async () => {
        const counts = await handle(campaign.id).query(countsQuery);
        return counts.sent >= 1 && counts.pending > 0 && counts;
      });
      assert.equal(live.state, 'sending');
      const shown = await get(employee, campaign.id);
      assert.equal(shown.body.campaign.state, 'running');
      assert.equal(shown.body.campaign.phase, 'sending');

      const final = await handle(campaign.id).result();
      assert.deepEqual(final, { total: 5, sent: 4, failed: 0, skipped_opted_out: 1, pending: 0, state: 'done' });
      const done = await get(admin, campaign.id);
      assert.equal(done.body.campaign.state, 'done');
      assert.deepEqual(done.body.campaign.counts, { total: 5, sent: 4, failed: 0, skipped_opted_out: 1, pending: 0 });
      assert.ok(done.body.campaign.ended_at);

      const ledger = await ledgerOf(app, campaign.id);
      assert.deepEqual(
        Object.keys(ledger).sort(),
        [a, b, c, '+33612345678'].sort(),
        'every number but the opted-out one, once',
      );
      for (const row of Object.values(ledger)) assert.deepEqual(row, { n: 1, sent: 1 });
      const recipients = await app
        .em()
        .execute<{ phone: string; status: string }[]>(
          'select phone, status from sms_campaign_recipient where campaign_id = ? order by phone',
          [campaign.id],
        );
      assert.equal(recipients.find((r) => r.phone === optedOut)?.status, 'skipped_opted_out');

      // What went out carries the opt-out instruction.
      const sandbox = await app.http.get(`/v1/platform/sms/sandbox-messages?to=${encodeURIComponent(b)}`, {
        token: platform,
      });
      const message = sandbox.body.messages.find((m: { purpose: string }) => m.purpose === `campaign:${campaign.id}`);
      assert.equal(message.text, 'Our depot closes at 18:00 this week.\n\nReply STOP to opt out.');

      // An ended campaign refuses every step.
      for (const action of ['start', 'pause', 'resume', 'cancel'] as const) {
        const res = await act(admin, campaign.id, action);
        assert.equal(res.status, 409, action);
        assert.equal(res.body.code, 'INVALID_TRANSITION');
      }
      const list = await app.http.get('/v1/sms-marketing/campaigns', { token: employee });
      assert.equal(list.body.total, 1);
      assert.equal(list.body.campaigns[0].counts.sent, 4);
      const optOuts = await app.http.get('/v1/sms-marketing/opt-outs', { token: employee });
      assert.deepEqual(
        optOuts.body.opt_outs.map((o: { phone: string }) => o.phone),
        [optedOut],
      );
    },
  );

  test(
    'pause holds the campaign with nothing in flight; resume finishes it, each number once',
    { timeout: 90_000 },
    async () => {
      const { biz, admin } = await usableBusiness(app, platform);
      const phones = await withAudience(biz, 6);
      const campaign = await started(admin, { per_minute: 60 });
      await waitFor(async () => (await handle(campaign.id).query(countsQuery)).sent >= 1);
      const paused = await act(admin, campaign.id, 'pause');
      assert.equal(paused.status, 200, JSON.stringify(paused.body));
      assert.equal(paused.body.campaign.state, 'paused');
      assert.equal(paused.body.campaign.phase, 'paused');
      const at = paused.body.campaign.counts.sent;
      assert.ok(at >= 1 && at < 6, `paused after ${at}`);
      // Nothing was in flight when the pause answered: the ledger holds exactly what the counts say.
      assert.equal(Object.keys(await ledgerOf(app, campaign.id)).length, at);
      assert.equal((await act(admin, campaign.id, 'pause')).status, 200, 'pausing a paused campaign changes nothing');
      assert.equal((await handle(campaign.id).query(countsQuery)).sent, at);

      const resumed = await act(admin, campaign.id, 'resume');
      assert.equal(resumed.status, 200);
      assert.equal(resumed.body.campaign.state, 'running');
      const final = await handle(campaign.id).result();
      assert.equal(final.sent, 6);
      const ledger = await ledgerOf(app, campaign.id);
      assert.deepEqual(Object.keys(ledger).sort(), phones);
      for (const row of Object.values(ledger)) assert.deepEqual(row, { n: 1, sent: 1 });
    },
  );

  test(
    'a process left by a start whose commit failed is replaced: the draft starts and sends once',
    { timeout: 90_000 },
    async () => {
      const { biz, admin } = await usableBusiness(app, platform);
      const phones = await withAudience(biz, 2);
      const made = await create(admin, { name: 'Orphaned', text: 'Open late on Friday.', quiet_hours: quietLater() });
      const id = made.body.campaign.id as number;
      // What a start leaves when its transaction rolls back after the process started: the row a draft, no audience,
      // and the process under the campaign's id, here still waiting for its send time.
      await app.running.temporal.workflow.start<typeof smsCampaignWorkflow>(SMS_CAMPAIGN_WORKFLOW, {
        workflowId: smsCampaignWorkflowId(id),
        taskQueue: SMS_CAMPAIGN_QUEUE,
        args: [
          {
            campaignId: id,
            businessId: biz.business.id,
            total: 0,
            timezone: 'UTC',
            perMinute: 60,
            // Minutes after midnight; an empty window is never quiet.
            quietHours: { start: 0, end: 0 },
            sendAt: new Date(Date.now() + 3_600_000).toISOString(),
            timerScale: 1,
          },
        ],
      });
      const res = await act(admin, id, 'start');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const final = await handle(id).result();
      assert.deepEqual(final, { total: 2, sent: 2, failed: 0, skipped_opted_out: 0, pending: 0, state: 'done' });
      const ledger = await ledgerOf(app, id);
      assert.deepEqual(Object.keys(ledger).sort(), phones);
      for (const row of Object.values(ledger)) assert.deepEqual(row, { n: 1, sent: 1 });
    },
  );

  test('cancel ends the campaign for good; a cancelled draft never starts', { timeout: 90_000 }, async () => {
    const { biz, admin } = await usableBusiness(app, platform);
    await withAudience(biz, 6);
    const campaign = await started(admin, { per_minute: 60 });
    await waitFor(async () => (await handle(campaign.id).query(countsQuery)).sent >= 1);
    const cancelled = await act(admin, campaign.id, 'cancel');
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.campaign.state, 'cancelled');
    const { sent, pending } = cancelled.body.campaign.counts;
    assert.ok(pending > 0, 'some numbers were not reached');
    assert.equal((await handle(campaign.id).result()).state, 'cancelled');
    assert.equal(Object.keys(await ledgerOf(app, campaign.id)).length, sent);
    const resume = await act(admin, campaign.id, 'resume');
    assert.equal(resume.status, 409);
    assert.equal(resume.body.code, 'INVALID_TRANSITION');

    const draft = await create(admin, { name: 'Never', text: 'Never sent.' });
    const dropped = await act(admin, draft.body.campaign.id, 'cancel');
    assert.equal(dropped.status, 200);
    assert.equal(dropped.body.campaign.state, 'cancelled');
    assert.equal((await act(admin, draft.body.campaign.id, 'start')).status, 409);
    const pauseDraft = await act(admin, (await create(admin, { name: 'D', text: 'Draft.' })).body.campaign.id, 'pause');
    assert.equal(pauseDraft.status, 409);
  });

  test('two starts at once make one process, which sends each message once', { timeout: 90_000 }, async () => {
    const { biz, admin } = await usableBusiness(app, platform);
    const phones = await withAudience(biz, 3);
    const made = await create(admin, { name: 'Race', text: 'Once.', quiet_hours: quietLater(), per_minute: 6000 });
    const id = made.body.campaign.id as number;
    const answers = await Promise.all([act(admin, id, 'start'), act(admin, id, 'start')]);
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409], JSON.stringify(answers.map((r) => r.body)));
    assert.equal(answers.find((r) => r.status === 409)!.body.code, 'INVALID_TRANSITION');
    assert.equal((await handle(id).result()).sent, 3);
    const ledger = await ledgerOf(app, id);
    assert.deepEqual(Object.keys(ledger).sort(), phones);
    for (const row of Object.values(ledger)) assert.deepEqual(row, { n: 1, sent: 1 });
  });

  test('quiet hours hold every message until they end', { timeout: 90_000 }, async () => {
    const { biz, admin } = await usableBusiness(app, platform);
    const phones = await withAudience(biz, 2);
    const campaign = await started(admin, { quiet_hours: quietNow(), per_minute: 6000 });
    const held = await waitFor(async () => {
      const counts = await handle(campaign.id).query(countsQuery);
      return counts.state === 'quiet_hours' && counts;
    });
    assert.deepEqual(held, { total: 2, sent: 0, failed: 0, skipped_opted_out: 0, pending: 2, state: 'quiet_hours' });
    assert.equal(Object.keys(await ledgerOf(app, campaign.id)).length, 0, 'nothing sent while quiet');
    assert.equal((await get(admin, campaign.id)).body.campaign.phase, 'quiet_hours');
    // The quiet hours end (SMS_CAMPAIGN_TIMER_SCALE shortens the wait), and the campaign sends.
    assert.equal((await handle(campaign.id).result()).sent, 2);
    assert.deepEqual(Object.keys(await ledgerOf(app, campaign.id)).sort(), phones);
  });

  test('409 feature_enabled false while off, not migrated or revoked', { timeout: 90_000 }, async () => {
    const biz = await makeBusiness(app.em());
    const admin = await app.login(biz.users.admin.email, PASSWORD);
    const sw = platformSwitches(app, platform);
    const expect409 = async (message: string) => {
      for (const res of [
        await create(admin, { name: 'x', text: 'y' }),
        await app.http.get('/v1/sms-marketing/campaigns', { token: admin }),
        await get(admin, 1),
        await app.http.post('/v1/sms-marketing/opt-outs', { phone: '+420601123456' }, { token: admin }),
      ]) {
        assert.equal(res.status, 409, JSON.stringify(res.body));
        assert.deepEqual(
          { result: res.body.result, code: res.body.code, feature_enabled: res.body.feature_enabled },
          { result: false, code: 'FEATURE_DISABLED', feature_enabled: false },
        );
        assert.equal(res.body.message, message);
      }
    };
    await expect409('This feature is switched off for your business.');
    await sw.family(biz, true);
    await expect409('SMS Marketing is not set up for your business yet: its SMS sender has not been migrated.');
    await sw.migrated(biz, true);
    assert.equal((await create(admin, { name: 'x', text: 'y' })).status, 201);
    await sw.revoked(biz, true);
    await expect409('SMS Marketing has been revoked for your business by the platform.');
    await sw.revoked(biz, false);
    await sw.family(biz, false);
    await expect409('This feature is switched off for your business.');
    const rows = await app
      .em()
      .execute<{ n: number }[]>('select count(*)::int as n from sms_campaign where business_id = ?', [biz.business.id]);
    assert.equal(rows[0]!.n, 1, 'only the campaign made while usable');
  });

  test('403 for the accounts that are not the business staff', { timeout: 90_000 }, async () => {
    const { biz } = await usableBusiness(app, platform);
    for (const user of [biz.users.driver, biz.users.customer, biz.users.broker]) {
      const token = await app.login(user.email, PASSWORD);
      for (const res of [
        await create(token, { name: 'x', text: 'y' }),
        await app.http.get('/v1/sms-marketing/campaigns', { token }),
        await app.http.post('/v1/sms-marketing/opt-outs', { phone: '+420601123456' }, { token }),
      ]) {
        assert.equal(res.status, 403, `${user.role}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.code, 'FORBIDDEN');
      }
    }
    const platformCall = await app.http.get('/v1/sms-marketing/campaigns', { token: platform });
    assert.equal(platformCall.status, 403);
  });

  test(
    'bad input: 422 naming each field, in the caller language, and nothing written',
    { timeout: 90_000 },
    async () => {
      const { biz, admin } = await usableBusiness(app, platform);
      const count = async () =>
        (
          await app
            .em()
            .execute<{ n: number }[]>(
              'select (select count(*) from sms_campaign where business_id = ?) + (select count(*) from sms_opt_out where business_id = ?) as n',
              [biz.business.id, biz.business.id],
            )
        )[0]!.n;
      const before_ = Number(await count());
      const fields = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field).sort();

      const long = await create(admin, { name: ' ', text: 'x'.repeat(589), per_minute: 0 });
      assert.equal(long.status, 422);
      assert.deepEqual(fields(long.body), ['name', 'per_minute', 'text']);
      const times = await create(
        admin,
        {
          name: 'x',
          text: 'y',
          send_at: new Date(Date.now() - 60_000).toISOString(),
          quiet_hours: { start: '22:00', end: '05:00' },
        },
        'fr',
      );
      assert.equal(times.status, 422);
      assert.deepEqual(fields(times.body), ['quiet_hours', 'send_at']);
      assert.equal(
        times.body.errors.find((e: { field: string }) => e.field === 'quiet_hours').message,
        'Les heures de silence doivent durer au moins 8 heures.',
      );
      const clock = await create(admin, { name: 'x', text: 'y', quiet_hours: { start: '24:00', end: '8:00' } });
      assert.equal(clock.status, 422);
      assert.deepEqual(fields(clock.body), ['quiet_hours.end', 'quiet_hours.start']);
      const phone = await app.http.post('/v1/sms-marketing/opt-outs', { phone: '+420 12' }, { token: admin });
      assert.equal(phone.status, 422);
      assert.deepEqual(fields(phone.body), ['phone']);
      assert.equal(Number(await count()), before_);
    },
  );

  test(
    "a business never reaches another's campaigns, and an opt-out holds for its own business only",
    { timeout: 90_000 },
    async () => {
      const one = await usableBusiness(app, platform);
      const two = await usableBusiness(app, platform);
      const shared = czechMobile();
      await orderTo(app, one.biz, shared);
      await orderTo(app, two.biz, shared);
      const stop = await app.http.post('/v1/sms-marketing/opt-outs', { phone: shared }, { token: one.admin });
      assert.equal(stop.status, 200);

      const draft = await create(one.admin, { name: 'Mine', text: 'Mine only.' });
      for (const res of [
        await get(two.admin, draft.body.campaign.id),
        await act(two.admin, draft.body.campaign.id, 'start'),
        await act(two.admin, draft.body.campaign.id, 'cancel'),
      ]) {
        assert.equal(res.status, 404);
        assert.equal(res.body.code, 'NOT_FOUND');
      }
      assert.equal((await app.http.get('/v1/sms-marketing/campaigns', { token: two.admin })).body.total, 0);
      assert.equal((await app.http.get('/v1/sms-marketing/opt-outs', { token: two.admin })).body.total, 0);

      // The second business's campaign reaches the number the first one's customer opted out of.
      const theirs = await started(two.admin, { per_minute: 6000 });
      const final = await handle(theirs.id).result();
      assert.deepEqual([final.sent, final.skipped_opted_out], [1, 0]);
      assert.equal(
        (await get(one.admin, draft.body.campaign.id)).body.campaign.state,
        'draft',
        'the first business’s draft untouched',
      );
    },
  );
});
