/**
 * What lets several runs share one throw-away stack: a database cloned from the migrated and seeded template, and a
 * Temporal namespace of their own. Used by each test file's preload (test/helpers/isolation.ts) and by the fuzz run
 * that goes beside the test files.
 */
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import pg from 'pg';

/** `CREATE DATABASE name TEMPLATE ...`: a copy of the template in tens of milliseconds. Returns its URL. */
export async function cloneDatabase(templateUrl: string, name: string): Promise<string> {
  const url = new URL(templateUrl);
  const template = url.pathname.slice(1);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.href });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.href;
}

/** A new namespace on the dev server; it takes workflows at once. */
export async function registerNamespace(address: string, namespace: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs('1 day'),
    });
  } finally {
    await connection.close();
  }
}
