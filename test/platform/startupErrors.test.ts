import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { describe, test } from 'node:test';
import { assertPortFree, RecentOutput, StartupError } from '../../src/launchers/startup.ts';

describe('start-up failures in one line', () => {
  test('a taken port names the setting that moves it', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      await assert.rejects(assertPortFree(port, 'PostgreSQL', 'PG_PORT'), (err: Error) => {
        assert.ok(err instanceof StartupError);
        assert.equal(
          err.message,
          `PostgreSQL cannot start: port ${port} is already in use. Stop what listens there or choose another port (PG_PORT).`,
        );
        return true;
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("a child's last error line is kept, without its timestamp", () => {
    const output = new RecentOutput();
    output.add('2026-11-22 18:55:45.981 UTC [25783] FATAL:  lock file "postmaster.pid" already exists\n');
    output.add('2026-11-22 18:55:45.981 UTC [25783] HINT:  Is another postmaster running in data directory?\n');
    assert.equal(output.problem(), 'FATAL: lock file "postmaster.pid" already exists');
    const initdb = new RecentOutput();
    initdb.add(
      '[STDERR] initdb: error: directory "/x" exists but is not empty\nIf you want to create a new database system, either remove',
    );
    assert.equal(initdb.problem(), 'initdb: error: directory "/x" exists but is not empty');
  });

  test('`npm run api` and `npm run worker` refuse to start without SECRETS_KEY, saying how to make one', () => {
    for (const role of ['api', 'worker']) {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        TEMPORAL_ADDRESS: '127.0.0.1:1',
        LOG_LEVEL: 'info',
      };
      delete env.SECRETS_KEY;
      const run = spawnSync(process.execPath, [path.resolve(import.meta.dirname, `../../src/main/${role}.ts`)], {
        env,
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(run.status, 1, `${role}: ${run.stdout}${run.stderr}`);
      assert.match(run.stdout + run.stderr, /set SECRETS_KEY to 32 random bytes in base64/, role);
    }
  });
});
