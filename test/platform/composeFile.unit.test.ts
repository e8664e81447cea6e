import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import YAML from 'yaml';
import { TASK_QUEUES } from '../../src/modules/index.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { hostnameOf } from '../../src/platform/hostnames.ts';

/**
 * docker-compose.yml is the production shape, so it must stay a file Docker Compose loads. It is checked against the
 * Compose Specification's JSON schema as compose-go (Docker Compose's loader) ships it, taken from the Go module
 * proxy the way the Temporal CLI is built, at a pinned version.
 */
const COMPOSE_GO = 'github.com/compose-spec/compose-go/v2@v2.16.2';

function composeValidator() {
  // Outside any module, so no go.mod is needed; the module cache keeps it for the next run.
  const got = spawnSync('go', ['mod', 'download', '-json', COMPOSE_GO], {
    cwd: os.tmpdir(),
    encoding: 'utf8',
    env: { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' },
  });
  assert.equal(got.status, 0, `go mod download ${COMPOSE_GO} failed: ${got.stderr || got.error}`);
  const dir = (JSON.parse(got.stdout) as { Dir: string }).Dir;
  const schema = JSON.parse(fs.readFileSync(path.join(dir, 'schema', 'compose-spec.json'), 'utf8')) as object;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

const composeFile = () =>
  YAML.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../docker-compose.yml'), 'utf8'), {
    merge: true,
  }) as Record<string, any>;

test('docker-compose.yml is a valid Compose file, and the check refuses a broken one', () => {
  const validate = composeValidator();
  const doc = composeFile();
  assert.ok(validate(doc), JSON.stringify(validate.errors, null, 1));
  for (const role of ['api', 'worker', 'webhook-worker']) {
    assert.ok(doc.services[role], `the ${role} service`);
    assert.ok('SECRETS_KEY' in doc.services[role].environment, `${role} is given SECRETS_KEY`);
  }
  // Two worker deployments that together serve every task queue the modules name, each queue once.
  const served = ['worker', 'webhook-worker'].flatMap((w) => doc.services[w].environment.WORKER_QUEUES.split(','));
  assert.deepEqual(served.sort(), [...TASK_QUEUES].sort());

  const broken = structuredClone(doc);
  broken.services.api.restart = { policy: 'always' };
  broken.servics = {};
  assert.equal(validate(broken), false);
  assert.deepEqual(validate.errors!.map((e) => e.instancePath).sort(), ['', '/services/api/restart']);
});

/** An environment value as Compose reads it with none of the variables set: each `${NAME:-default}` is its default. */
const withDefaults = (value: string): string => {
  let text = value;
  for (let inner = /\$\{\w+:-([^${}]*)\}/; inner.test(text);) text = text.replace(inner, '$1');
  return text;
};

test('the app containers listen on every interface, and the API answers the Host its healthcheck sends', () => {
  const doc = composeFile();
  for (const role of ['api', 'worker', 'webhook-worker'])
    assert.equal(doc.services[role].environment.HOST, '0.0.0.0', `${role}: published ports and network scrapes`);
  const env = Object.fromEntries(
    Object.entries(doc.services.api.environment as Record<string, string>).map(([k, v]) => [k, withDefaults(v)]),
  );
  const config = loadConfig(env);
  const probe = /fetch\('([^']+)'\)/.exec(doc.services.api.healthcheck.test.join(' '))![1]!;
  assert.ok(config.allowedHosts.includes(hostnameOf(probe)!), `${probe} among ${config.allowedHosts.join(', ')}`);
  assert.equal(new URL(probe).port, String(config.port));
  assert.ok(config.allowedHosts.includes('api'), 'containers of the compose network reach it as api');
  assert.ok(config.allowedHosts.includes('localhost'), "PUBLIC_BASE_URL's host, where the port is published");
});

test('the image the worker serving tms-routes runs brings the route solver: Python with the hashed requirements', () => {
  const doc = composeFile();
  const routing = ['worker', 'webhook-worker'].filter((w) =>
    doc.services[w].environment.WORKER_QUEUES.split(',').includes('tms-routes'),
  );
  assert.ok(routing.length > 0, 'some worker serves tms-routes');
  const dockerfile = fs.readFileSync(path.resolve(import.meta.dirname, '../../Dockerfile'), 'utf8');
  // The last stage is the runtime image; the venv is made in an earlier stage and copied in.
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages.at(-1)!;
  const python = /^ENV SOLVER_PYTHON=(\S+)$/m.exec(runtime)?.[1];
  assert.ok(python, 'the runtime image sets SOLVER_PYTHON');
  const venv = python.replace(/\/bin\/python3?$/, '');
  assert.match(runtime, new RegExp(`^COPY --from=(\\S+) ${venv} ${venv}$`, 'm'), 'the venv is copied in');
  assert.match(runtime, /apt-get install[^\n]*\bpython3\b/, "the venv's interpreter is installed in the runtime");
  const from = new RegExp(`^COPY --from=(\\S+) ${venv}`, 'm').exec(runtime)![1];
  const builder = stages.find((s) => new RegExp(`^\\S+ AS ${from}\\b`).test(s));
  assert.ok(builder, `the ${from} stage`);
  assert.match(builder, /apt-get install[^\n]*python3-venv/);
  assert.match(builder, new RegExp(`python3 -m venv ${venv}`));
  assert.match(builder, /pip install [^\n]*--require-hashes/);
  assert.match(builder, /COPY src\/modules\/routes\/solver\/requirements\.txt /);
});
