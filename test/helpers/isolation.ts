/**
 * Preloaded into every test file's process by scripts/test.ts (which sets TEST_ISOLATE), so that files run side by
 * side: each file gets a Temporal namespace of its own on the suite's dev server and, when the suite has a
 * database, a database of its own cloned from the migrated and seeded template. One file's outbox relay, workers
 * and retry workflows never see another's rows or tasks, and workflow ids, which come from each database's
 * sequences, cannot collide: ids are unique per namespace.
 *
 * It sets DATABASE_URL and TEMPORAL_NAMESPACE before the test file is loaded, so everything the file starts
 * (startApp, a spawned worker, a direct ORM) reads them as it reads any configuration.
 */
import { randomBytes } from 'node:crypto';
import { cloneDatabase, registerNamespace } from '../../scripts/isolate.ts';

if (process.env.TEST_ISOLATE) {
  // A worker or API the file spawns inherits this environment and preload: it must share the file's database.
  delete process.env.TEST_ISOLATE;
  const name = `file_${process.pid}_${randomBytes(3).toString('hex')}`;
  const template = process.env.TEST_TEMPLATE_DATABASE_URL;
  if (template) process.env.DATABASE_URL = await cloneDatabase(template, name);
  const namespace = name.replaceAll('_', '-');
  await registerNamespace(process.env.TEMPORAL_ADDRESS!, namespace);
  process.env.TEMPORAL_NAMESPACE = namespace;
}
