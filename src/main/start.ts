/**
 * `npm start`: PostgreSQL -> migrations -> demo seed -> Temporal dev server -> worker -> API, each checked
 * healthy before the next; Ctrl-C stops them in reverse order. Data stays under DATA_DIR for the next start.
 */
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { bootstrap } from './bootstrap.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed.ts';
import { startMailCatcher, type MailCatcher } from '../launchers/mailCatcher.ts';
import { reachableDataDir, startEmbeddedPostgres, type LocalPostgres } from '../launchers/postgres.ts';
import { loadOrCreateSecretsKey } from '../launchers/secretsKey.ts';
import { assertPortFree, StartupError } from '../launchers/startup.ts';
import { startTemporalDevServer, type DevServer } from '../launchers/temporalServer.ts';
import { ensureSolverVenv } from '../modules/routes/solver/venv.ts';

// One machine for development: the demo seed, webhooks to local receivers and the SMS sandbox, whose messages the
// platform admin reads (`npm run api`/`worker` keep all three off).
const config = loadConfig({
  DEMO_MODE: '1',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
  SMS_PROVIDER: 'sandbox',
  ...process.env,
});
const log = createLogger(config.logLevel);
const stops: (() => Promise<void>)[] = [];

/** Stops what started, in reverse order; `lastLine` is printed after every log line, just before exiting. */
async function shutdown(code: number, lastLine?: string): Promise<never> {
  for (const stop of stops.reverse()) await stop().catch((err: unknown) => log.error({ err }, 'stop failed'));
  if (lastLine) {
    // Log lines pino still buffers go out first, so that this line stays the last one.
    try {
      (Reflect.get(log, pino.symbols.streamSym) as { flushSync?(): void } | undefined)?.flushSync?.();
    } catch {
      /* nothing buffered to write */
    }
    process.stderr.write(`${lastLine}\n`);
  }
  process.exit(code);
}

async function main(): Promise<void> {
  // The route solver's Python, from PyPI on first use, while the servers start; without it only route builds fail.
  const solver = ensureSolverVenv().then(
    (state) => state === 'installed' && log.info('installed the route solver into .tools/solver-venv'),
    (err: unknown) => log.warn({ reason: (err as Error).message }, 'the route solver could not be installed'),
  );
  if (config.secretsKeys.length === 0) {
    const file = path.join(config.dataDir, 'secrets.key');
    const { key, created } = loadOrCreateSecretsKey(file);
    config.secretsKeys = [key];
    log.info(
      { file },
      created ? 'created the secrets key (keep it with the data; SECRETS_KEY overrides it)' : 'using the secrets key',
    );
  }
  let pg: LocalPostgres | undefined;
  if (!config.databaseUrl) {
    log.info({ port: config.pgPort }, 'starting embedded PostgreSQL');
    pg = await startEmbeddedPostgres(reachableDataDir(path.join(config.dataDir, 'postgres'), log), config.pgPort, log);
    stops.push(() => pg!.stop());
    config.databaseUrl = pg.url;
  }
  let temporal: DevServer | undefined;
  if (!config.temporalAddress) {
    log.info({ port: config.temporalPort }, 'starting the Temporal dev server');
    temporal = await startTemporalDevServer(
      {
        port: config.temporalPort,
        uiPort: config.temporalUiPort,
        namespace: config.temporalNamespace,
        dbFile: path.join(config.dataDir, 'temporal.sqlite'),
      },
      log,
    );
    stops.push(() => temporal!.stop());
    config.temporalAddress = temporal.address;
    temporal.process.once('exit', (code) => {
      log.error({ code }, 'the Temporal dev server exited');
      void shutdown(1);
    });
  }
  let mail: MailCatcher | undefined;
  if (!config.smtpUrl) {
    await assertPortFree(config.mailSmtpPort, 'The mail catcher', 'MAIL_SMTP_PORT');
    await assertPortFree(config.mailWebPort, "The mail catcher's page", 'MAIL_WEB_PORT');
    mail = await startMailCatcher({ smtpPort: config.mailSmtpPort, webPort: config.mailWebPort });
    stops.push(() => mail!.close());
    config.smtpUrl = mail.smtpUrl;
  }
  await solver;
  const running = await bootstrap(config, log, { migrate: true, seed: config.demoMode });
  stops.push(() => running.close());
  await waitHealthy(running.url!);

  const base = config.publicBaseUrl;
  const lines = [
    '',
    'Transport Management Service is running',
    `  API          ${base}/api`,
    `  Health       ${base}/api/health`,
    `  GraphQL      ${base}/api/graphql`,
    `  OpenAPI      ${base}/api/openapi.json`,
    `  Reference    ${base}/api/docs   webhooks ${base}/api/docs/webhooks`,
    `  MCP          ${base}/mcp and ${base}/mcp/developer   approvals ${base}/mcp-approvals`,
    `  Temporal     ${config.temporalAddress}` + (temporal ? `   UI http://localhost:${config.temporalUiPort}` : ''),
    mail
      ? `  Mail         ${mail.webUrl}   (what the service sent recipients; SMTP ${mail.smtpUrl})`
      : `  Mail         sent through ${config.smtpUrl!.replace(/\/\/[^@/]*@/, '//')}`,
    ...(config.webhookAllowPrivateTargets
      ? ['', 'Webhooks may go to local and private addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS=0 refuses them).']
      : []),
    // Said aloud when HOST opened the listeners: the demo accounts' password is public.
    ...(/^(127\.|::1$|localhost$)/.test(config.host)
      ? []
      : ['', `The API and /metrics listen on ${config.host} (HOST): other machines reach them.`]),
    ...(config.demoMode
      ? [
          '',
          `Demo accounts (password: ${DEMO_PASSWORD})`,
          ...DEMO_ACCOUNTS.map((a) => `  ${a.email.padEnd(30)} ${a.role}`),
        ]
      : []),
    '',
    'Press Ctrl-C to stop.',
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

async function waitHealthy(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(`${url}/api/health`).catch(() => null);
    if (res?.ok) return;
    if (Date.now() > deadline)
      throw new Error(`the API did not become healthy: ${res ? await res.text() : 'no answer'}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

process.once('SIGINT', () => void shutdown(0));
process.once('SIGTERM', () => void shutdown(0));
main().catch(async (err: unknown) => {
  // A child that could not start says what to do in one line; anything else keeps its stack for the bug report.
  if (err instanceof StartupError) await shutdown(1, err.message);
  log.fatal({ err }, 'start failed');
  await shutdown(1);
});
