import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { ENTITIES } from '../../src/modules/index.ts';
import { createOrm, type Orm } from '../../src/platform/db/orm.ts';

/**
 * A database of its own, migrated up to `lastApplied`, for a test of the migration after it: write rows as they
 * stood then, run `orm.migrator.up()`, read what became of them. `drop()` removes it.
 */
export async function databaseMigratedTo(
  lastApplied: string,
  prefix: string,
): Promise<{ orm: Orm; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  const database = `${prefix}_${randomUUID().slice(0, 8)}`;
  await admin.query(`create database ${database}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${database}`;
  const orm = await createOrm(url.toString(), ENTITIES, 2);
  await orm.migrator.up({ to: lastApplied });
  return {
    orm,
    async drop() {
      await orm.close();
      await admin.query(`drop database ${database}`);
      await admin.end();
    },
  };
}
