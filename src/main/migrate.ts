import { loadConfig } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { ENTITIES } from '../modules/index.ts';
import { createOrm, migrate } from '../platform/db/orm.ts';
import { seedDemo } from './seed.ts';

const config = loadConfig();
const log = createLogger(config.logLevel);
if (!config.databaseUrl) {
  log.fatal('set DATABASE_URL');
  process.exit(1);
}
const orm = await createOrm(config.databaseUrl, ENTITIES);
try {
  log.info({ applied: await migrate(orm) }, 'migrations done');
  if (config.demoMode) await seedDemo(orm.em.fork());
} finally {
  await orm.close();
}
