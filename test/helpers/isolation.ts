/**
 * Preloaded into every test file's process by scripts/test.ts, so that files run side by side: each file gets a
 * database of its own, cloned from the migrated and seeded template (`CREATE DATABASE ... TEMPLATE`, tens of
 * milliseconds), and a Temporal namespace of its own on the suite's dev server. One file's outbox relay, workers
 * and retry workflows never see another's rows or tasks, and workflow ids, which come from each database's
 * sequences, cannot collide: ids are unique per namespace.
 *
 * It sets DATABASE_URL and TEMPORAL_NAMESPACE before the test file is loaded, so everything the file starts
 * (startApp, a spawned worker, a direct ORM) reads them as it reads any configuration.
 */
import { randomBytes } from 'node:crypto';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import pg from 'pg';

const template = process.env.TEST_TEMPLATE_DATABASE_URL;
const address = process.env.TEMPORAL_ADDRESS;
if (template && address) {
  // A worker or API the file spawns inherits this environment and preload: it must share the file's database.
  delete process.env.TEST_TEMPLATE_DATABASE_URL;
  const name = `file_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = new URL(template);
  const templateName = url.pathname.slice(1);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.href });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${templateName}`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.href;

  const namespace = name.replaceAll('_', '-');
  const connection = await Connection.connect({ address });
  try {
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs('1 day'),
    });
  } finally {
    await connection.close();
  }
  process.env.TEMPORAL_NAMESPACE = namespace;
}
