import { loadConfig } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { bootstrap, servedQueues, type BootstrapOptions } from './bootstrap.ts';

/** Runs one role against external PostgreSQL and Temporal (the production shape). */
export async function runRole(name: string, opts: BootstrapOptions): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel).child({ role: name });
  if (!config.databaseUrl || !config.temporalAddress) {
    log.fatal('set DATABASE_URL and TEMPORAL_ADDRESS (or use `npm start`, which runs everything locally)');
    process.exit(1);
  }
  if (config.secretsKeys.length === 0) {
    log.fatal(
      'set SECRETS_KEY to 32 random bytes in base64 (`openssl rand -base64 32`), the same for every API and worker process; it keeps stored secrets and codes unreadable from a database dump',
    );
    process.exit(1);
  }
  if (opts.worker) {
    try {
      servedQueues(config);
    } catch (err) {
      log.fatal((err as Error).message);
      process.exit(1);
    }
  }
  const running = await bootstrap(config, log, opts);
  log.info({ url: running.url }, `${name} running`);
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  await running.workerRun;
}
