import path from 'node:path';
import type { EntitySchema } from '@mikro-orm/core';
import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { CompiledQuery } from 'kysely';

const migrationsDir = path.resolve(import.meta.dirname, '../../../migrations');

export type Orm = MikroORM;
export type Em = EntityManager;

/** Connections each process's pool opens at most, unless its caller says otherwise. */
export const POOL_MAX = 10;

/** `entities` are the modules' (src/modules/index.ts ENTITIES): the platform knows no table of its own. */
export async function createOrm(
  databaseUrl: string,
  entities: readonly EntitySchema[],
  poolMax = POOL_MAX,
  onLog?: (message: string) => void,
): Promise<Orm> {
  return MikroORM.init({
    clientUrl: databaseUrl,
    entities: [...entities],
    extensions: [Migrator],
    pool: { min: 1, max: poolMax },
    forceUtcTimezone: true,
    debug: false,
    allowGlobalContext: false,
    // Migration progress goes to our logger (when given), not to the console.
    logger: (message: string) => onLog?.(message),
    migrations: {
      path: migrationsDir,
      pathTs: migrationsDir,
      glob: '*.ts',
      transactional: true,
      snapshot: false,
      silent: true,
    },
  });
}

/**
 * Runs SQL with parameters bound by the server ($1, $2, ...). `em.execute` writes every value into the SQL
 * text, escaping it character by character; for a statement carrying a batch as one large JSON value, binding
 * it is the cheaper way on both ends. Inside a transaction it runs on the transaction's connection.
 */
export async function executeBound<T>(em: Em, text: string, params: unknown[]): Promise<T[]> {
  const { rows } = await em.getKysely().executeQuery<T>(CompiledQuery.raw(text, params));
  return rows as T[];
}

/** Applies pending migrations; returns the names applied. */
export async function migrate(orm: Orm): Promise<string[]> {
  const done = await orm.migrator.up();
  return done.map((m) => m.name);
}
