// App registration survives a killed worker (docs/apps.md, Registration): the worker runs as its own OS process and
// is killed (SIGKILL) while registrations send their codes and wait on their expiry. Each phone gets its code once,
// and every registration still expires, once. Real parts: the suite's Temporal, PostgreSQL, the API over HTTP.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { DEMO_APPS, type AppConfig } from '../../src/modules/apps/index.ts';
import { registrationWorkflowId } from '../../src/modules/apps/contract.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { makeBusiness, makePlatformAdmin, PASSWORD } from '../helpers/factories.ts';
import { spawnRole, stopChild } from '../helpers/roles.ts';
import { waitFor } from '../helpers/wait.ts';

// Ten minutes last 12 s.
const ENV = { SMS_PROVIDER: 'sandbox', REGISTRATION_TIMER_SCALE: '0.02' };

describe('app registration survives a killed worker', () => {
  const children = new Set<ChildProcess>();
  let app: TestApp;
  before(async () => {
    // The API only: the worker runs in a child process the test kills.
    app = await startApp(ENV, { worker: false });
  });
  after(async () => {
    for (const child of children) await stopChild(child, 'SIGKILL');
    await app?.running.close();
  });

  test('a SIGKILL between steps sends no code twice and loses no expiry', { timeout: 120_000 }, async () => {
    const b = await makeBusiness(app.em());
    const em = app.em();
    const adminEmail = await makePlatformAdmin(em);
    const admin = await app.login(adminEmail, PASSWORD);
    const config = structuredClone(DEMO_APPS[0]!) as AppConfig & { code?: string };
    delete config.code;
    config.authentication.registration.sms_configured = true;
    const appCode = `k-${randomUUID().slice(0, 8)}`;
    assert.equal((await app.http.put(`/v1/platform/apps/${appCode}`, config, { token: admin })).status, 200);
    await app.http.put(`/v1/platform/apps/${appCode}/clients/${b.business.code}`, {}, { token: admin });

    const phones: string[] = [];
    const ids: string[] = [];
    const register = async () => {
      const tail = String(randomInt(0, 1_000_000)).padStart(6, '0');
      phones.push(`+420602${tail}`);
      const res = await app.http.post(`/v1/apps/${appCode}/clients/${b.business.code}/registrations`, {
        name: 'Killed Worker',
        email: `kill-${randomUUID().slice(0, 8)}@test.example`,
        password: 'registration-password',
        phone: `602${tail}`,
        device_id: 'device-1',
        device_platform: 'android',
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      ids.push(res.body.registration_id);
    };
    const sentTo = async () =>
      (
        await app
          .em()
          .execute<{ to_number: string; n: number }[]>(
            `select to_number, count(*)::int as n from sms_message where to_number in (${phones.map((p) => `'${p}'`).join(',')}) and status = 'sent' group by to_number`,
          )
      ).reduce((all, r) => ({ ...all, [r.to_number]: r.n }), {} as Record<string, number>);

    // Three registrations sent before the kill, three started while the worker was about to pick them up.
    let worker = await spawnRole('worker', ENV, children);
    for (let i = 0; i < 3; i++) await register();
    await waitFor(async () => Object.keys(await sentTo()).length === 3);
    for (let i = 0; i < 3; i++) await register();
    await stopChild(worker.child, 'SIGKILL');
    worker = await spawnRole('worker', ENV, children);

    for (const id of ids)
      assert.equal(await app.running.temporal.workflow.getHandle(registrationWorkflowId(id)).result(), 'expired');
    const sent = await sentTo();
    assert.deepEqual(
      phones.map((p) => sent[p]),
      phones.map(() => 1),
      'one code to each phone',
    );
    const statuses = await app
      .em()
      .execute<{ status: string }[]>(
        `select status from app_registration where id in (${ids.map((i) => `'${i}'`).join(',')})`,
      );
    assert.deepEqual(
      statuses.map((s) => s.status),
      ids.map(() => 'expired'),
    );
    await stopChild(worker.child, 'SIGTERM');
  });
});
