/**
 * `npm run scenario -- <name>...|all [--url URL] [--mail-url URL] [--temporal-ui URL] [--sandbox] [--keep]` plays
 * whole journeys against the service through its public API and prints each as a timeline; `--list` names them.
 * See docs/scenarios.md.
 */
import { parseArgs } from 'node:util';
import { SCENARIOS } from './index.ts';
import { play } from './play.ts';
import { answers, startService, type Service } from './service.ts';
import { DEMO_ACCOUNTS } from './world.ts';

const say = (line: string) => process.stdout.write(`${line}\n`);
const USAGE =
  'usage: npm run scenario -- <name>...|all [--url URL] [--mail-url URL] [--temporal-ui URL] [--sandbox] [--keep]\n       npm run scenario -- --list';

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: {
      list: { type: 'boolean' },
      url: { type: 'string' },
      'mail-url': { type: 'string' },
      'temporal-ui': { type: 'string' },
      sandbox: { type: 'boolean' },
      keep: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
const { values, positionals } = args;

if (values.list || values.help || positionals.length === 0) {
  say(values.list ? 'Scenarios:' : USAGE);
  for (const s of SCENARIOS) say(`  ${s.name.padEnd(18)} ${s.summary}`);
  process.exit(values.list || values.help ? 0 : 2);
}
const unknown = positionals.filter((n) => n !== 'all' && !SCENARIOS.some((s) => s.name === n));
if (unknown.length > 0) {
  process.stderr.write(`unknown scenario: ${unknown.join(', ')} (npm run scenario -- --list names them)\n`);
  process.exit(2);
}
const chosen = positionals.includes('all')
  ? SCENARIOS.filter((s) => !values.sandbox || s.sandbox)
  : SCENARIOS.filter((s) => positionals.includes(s.name));

const url = (values.url ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
let service: Service = {
  url,
  started: false,
  stop: async () => {},
  mailUrl: values['mail-url'] ?? `http://localhost:${process.env.MAIL_WEB_PORT ?? 8025}`,
  temporalUi: values['temporal-ui'] ?? `http://localhost:${process.env.TEMPORAL_UI_PORT ?? 8233}`,
};
try {
  if (await answers(url)) say(`Playing against the service at ${url} (mail: ${service.mailUrl}).`);
  else service = await startService(url, say);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
}

let failed = 0;
for (const scenario of chosen) {
  say(`\n${scenario.name}${values.sandbox ? ' (sandbox)' : ''}: ${scenario.summary}`);
  const played = await play(scenario, {
    url,
    mailUrl: service.mailUrl,
    accounts: DEMO_ACCOUNTS,
    sandbox: values.sandbox,
    write: say,
  });
  if (played.journal.workflows.length > 0) {
    say('  Open in the Temporal UI:');
    for (const id of played.journal.workflows)
      say(
        `    ${service.temporalUi}/namespaces/${process.env.TEMPORAL_NAMESPACE ?? 'default'}/workflows/${encodeURIComponent(id)}`,
      );
  }
  if (played.error) {
    failed++;
    say(`  FAILED: ${played.error.message}`);
  } else say('  passed');
}

if (service.started && values.keep) {
  say(
    `\nThe service keeps running at ${url} (Temporal UI ${service.temporalUi}, mail ${service.mailUrl}); Ctrl-C stops it.`,
  );
  await new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}
await service.stop();
process.exit(failed > 0 ? 1 : 0);
