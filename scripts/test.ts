/**
 * `npm test`: first the static checks (type check, lint, format, contract lint; scripts/checks.ts), and nothing
 * starts unless they pass. Then a throw-away PostgreSQL and an in-memory Temporal dev server on free ports, migrated
 * and seeded once into the template database, the workflows bundled once, and every test file run with Node's test
 * runner, TEST_CONCURRENCY files at a time: each file clones its own database from the template and registers its
 * own namespace (test/helpers/isolation.ts). A full run has a short Schemathesis run against the service beside the
 * files, on a database and namespace of its own (scripts/schemathesis.ts); its lines follow the files' report.
 *
 * `npm test -- <files>` runs those files only, without the checks and the fuzz run.
 * `npm run test:fast` (`--fast`) runs the fast tier only: unit tests (`*.unit.test.ts`, no service) and the workflow
 * tests with mocked activities (`test/modules/<name>/workflow.test.ts`), on a Temporal dev server and no database.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createLogger } from '../src/platform/logger.ts';
import { runChecks } from './checks.ts';
import { findOrInstallChromium } from './chromium.ts';
import { findOrInstallDebian } from './debian.ts';
import { fuzzService, SHORT_RUN } from './schemathesis.ts';
import { startStack, UNREACHED_RATE_LIMITS } from './stack.ts';

const FAST_TIER = ['test/**/*.unit.test.ts', 'test/modules/*/workflow.test.ts'];
/** Programs the label tests read labels with: a barcode decoder and poppler's PDF rasteriser, page-size reader and text extractor. */
const LABEL_TOOLS = [
  ['zbarimg', 'zbar-tools'],
  ['pdftoppm', 'poppler-utils'],
  ['pdfinfo', 'poppler-utils'],
  ['pdftotext', 'poppler-utils'],
] as const;

/** Files at a time; 4 measured best on two cores once the slowest files ran first (docs/testing.md). */
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 4);
const fast = process.argv.includes('--fast');
const named = process.argv.slice(2).filter((a) => a !== '--fast');
const full = !fast && named.length === 0;
const files = fast ? FAST_TIER : full ? ['test/**/*.test.ts'] : named;
if (full && !(await runChecks())) process.exit(1);

// The browser and the label tests' PDF and barcode readers are found or installed while the stack starts: one waits
// on the network, the other on the CPU.
const browser = fast ? Promise.resolve('') : findOrInstallChromium();
browser.catch(() => undefined);
const labelTools = fast
  ? Promise.resolve([])
  : Promise.all(LABEL_TOOLS.map(([binary, pkg]) => findOrInstallDebian(binary, pkg, 'the label tests')));
labelTools.catch(() => undefined);
const stack = await startStack(createLogger(process.env.TEST_LOG_LEVEL ?? 'warn'), 'tms-test-', { database: !fast });
let code = 1;
const fuzzLines: string[] = [];
const fuzz = full
  ? fuzzService(stack, SHORT_RUN, { write: (t) => fuzzLines.push(t) }).catch((err: unknown) => {
      fuzzLines.push(`the fuzz run failed: ${String(err)}\n`);
      return false;
    })
  : null;
try {
  const chromium = await browser;
  await labelTools;
  // The files run longest first (scripts/testFiles.ts); --test-force-exit's equivalent there means a failed test that
  // leaves a server open (a receiver it meant to close) cannot hold its file's process, and the run, until CI's limit.
  const child = spawn(process.execPath, ['scripts/testFiles.ts', String(concurrency), ...files], {
    stdio: 'inherit',
    env: {
      ...process.env,
      // Every test file comes from one address and signs in often: the tests of the limits set their own.
      ...UNREACHED_RATE_LIMITS,
      CHROMIUM_PATH: chromium,
      TEST_ISOLATE: '1',
      ...(stack.databaseUrl && { TEST_TEMPLATE_DATABASE_URL: stack.databaseUrl }),
      TEMPORAL_ADDRESS: stack.temporalAddress,
      WORKFLOW_BUNDLE_PATH: stack.bundlePath,
      // Each file is a process that compiles the same modules: V8's code for them (and the stripped TypeScript) is
      // kept on disk and read back, about 0.4 s of each file's start-up (docs/testing.md).
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.resolve('node_modules/.cache/tms-compile'),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      // An error code an operation does not declare answers 500, so the test that meets it fails.
      STRICT_ERROR_CODES: '1',
      METRICS_PORT: '0',
      SECRETS_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    },
  });
  code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
  if (fuzz) {
    const passed = await fuzz;
    process.stdout.write(fuzzLines.join(''));
    if (!passed) code = 1;
  }
} finally {
  await stack.stop();
}
process.exit(code);
