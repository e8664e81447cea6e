/**
 * The test files' runner, started by scripts/test.ts with the suite's environment: Node's test runner through its
 * `run()` API rather than `node --test`, because `node --test` sorts its files by name and so ran the slow tier
 * (test/workflows: killed workers, restarted servers, the replay of every history) last, where nothing ran beside
 * its longest files. Here the files run longest first, as the last full run in this checkout measured them
 * (node_modules/.cache/tms-test-times.json), and on a first run (a clean clone, CI) the slow tier first. The report is
 * the spec reporter's, followed by the slowest files of the run.
 *
 * Usage: node scripts/testFiles.ts <concurrency> <file or glob>...
 */
import fs from 'node:fs';
import path from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { Transform } from 'node:stream';
import { pathToFileURL } from 'node:url';

const TIMES_FILE = path.resolve('node_modules/.cache/tms-test-times.json');
/** Files that wait on real clocks, killed workers and restarted servers, first when nothing was measured yet. */
const SLOW_TIER = [/^test\/workflows\//, /^test\/scenarios\//, /Kill\.test\.ts$/];
const SHOWN = 10;
/**
 * Loaded into each file's process before the file: its reports written with blocking writes, so a forced exit loses
 * none of them, and a database and a namespace of its own (test/helpers/isolation.ts).
 */
const PRELOAD = ['blockingOutput.ts', 'isolation.ts'].map((f) => `--import=${pathToFileURL(`test/helpers/${f}`).href}`);

const [concurrencyArg, ...patterns] = process.argv.slice(2);
const files = patterns.flatMap((p) => (p.includes('*') ? fs.globSync(p).sort() : [p]));
const measured = readTimes();
const weight = (file: string) => measured[file] ?? (SLOW_TIER.some((re) => re.test(file)) ? 1e6 : 0);
// A stable sort: files of equal weight keep their order by name.
const ordered = files.toSorted((a, b) => weight(b) - weight(a));

const seconds: Record<string, number> = {};
const timing = new Transform({
  objectMode: true,
  transform(
    event: { type: string; data: { nesting?: number; file?: string; details?: { duration_ms?: number } } },
    _,
    done,
  ) {
    const { data } = event;
    if ((event.type === 'test:pass' || event.type === 'test:fail') && data.nesting === 0 && data.file) {
      const file = path.relative(process.cwd(), data.file);
      seconds[file] = (seconds[file] ?? 0) + (data.details?.duration_ms ?? 0) / 1000;
    }
    done(null, event);
  },
});

let failed = false;
/** TEST_FILE_ARGS: Node options for every file's process, such as `--cpu-prof --cpu-prof-dir=<dir>` to profile them. */
const extra = process.env.TEST_FILE_ARGS?.split(' ').filter(Boolean) ?? [];
const stream = run({
  files: ordered,
  concurrency: Number(concurrencyArg),
  forceExit: true,
  execArgv: [...PRELOAD, ...extra],
});
// A failed test that leaves a server open must not hold its file's process (forceExit), nor this one.
stream.on('test:fail', () => (failed = true));
const report = stream.pipe(timing).compose(spec);
report.pipe(process.stdout);
report.on('end', () => {
  const slowest = Object.entries(seconds)
    .sort(([, a], [, b]) => b - a)
    .slice(0, SHOWN);
  process.stdout.write(
    `\nslowest test files (s, their tests' time):\n${slowest.map(([f, s]) => `  ${s.toFixed(1).padStart(6)}  ${f}`).join('\n')}\n`,
  );
  writeTimes({ ...measured, ...seconds });
  process.exitCode = failed ? 1 : 0;
});

function readTimes(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(TIMES_FILE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

function writeTimes(times: Record<string, number>): void {
  fs.mkdirSync(path.dirname(TIMES_FILE), { recursive: true });
  fs.writeFileSync(TIMES_FILE, JSON.stringify(times));
}
