/**
 * `npm run fuzz`: Schemathesis against a fresh service (throw-away PostgreSQL and Temporal, the demo accounts), three
 * minutes per credential with a new seed; `npm run fuzz -- --short` is the run `npm test` makes, `--only=client_admin,otep_key`
 * runs as those credentials only. Exits 1 on any finding.
 */
import { createLogger } from '../src/platform/logger.ts';
import { fuzzService, LONG_RUN, SHORT_RUN } from './schemathesis.ts';
import { startStack } from './stack.ts';

const stack = await startStack(createLogger(process.env.FUZZ_LOG_LEVEL ?? 'warn'), 'tms-fuzz-');
let ok = false;
try {
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  ok = await fuzzService(stack, {
    ...(process.argv.includes('--short') ? SHORT_RUN : LONG_RUN),
    ...(only && { only }),
  });
} finally {
  await stack.stop();
}
process.exit(ok ? 0 : 1);
