import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parser } from '@prometheus-io/lezer-promql';
import { startApp, type TestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/wait.ts';
import { tenantWithReceiver } from '../helpers/webhookTenant.ts';

const DOCS = path.resolve(import.meta.dirname, '../../docs');
const DASHBOARD_PATH = 'grafana/tms.json';

interface Target {
  expr: string;
  datasource?: { type?: string; uid?: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type?: string; uid?: string };
  targets?: Target[];
}
interface Variable {
  name: string;
  type: string;
  datasource?: { uid?: string };
  query: string | { query: string };
}
interface Dashboard {
  __inputs: { name: string; type: string; pluginId: string }[];
  schemaVersion: number;
  panels: Panel[];
  templating: { list: Variable[] };
}

const dashboard = JSON.parse(readFileSync(path.join(DOCS, DASHBOARD_PATH), 'utf8')) as Dashboard;

/** Every PromQL expression of the dashboard, with where it is: the panels' queries and the variables' label_values selectors. */
function expressions(d: Dashboard): { where: string; expr: string }[] {
  const out = d.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `panel "${p.title}"`, expr: t.expr })));
  for (const v of d.templating.list.filter((x) => x.type === 'query')) {
    const query = typeof v.query === 'string' ? v.query : v.query.query;
    // Grafana's label_values(selector, label): the selector is PromQL, the label is not.
    const m = /^label_values\((.+),\s*\w+\)$/.exec(query.trim());
    assert.ok(m, `variable ${v.name}: a label_values query (${query})`);
    out.push({ where: `variable ${v.name}`, expr: m[1]! });
  }
  return out;
}

/** The metric names an expression selects. Throws on text that is not PromQL or a selector that names no metric. */
function metricNames(expr: string): string[] {
  // Grafana's interval variables, as Prometheus receives them; the others ($job, ...) stand inside label matchers' strings.
  const text = expr.replace(/\$__(rate_interval|interval|range)\b/g, '5m');
  const names: string[] = [];
  const cursor = parser.parse(text).cursor();
  do {
    if (cursor.type.isError) throw new Error(`not PromQL at ${cursor.from}: ${expr}`);
    if (cursor.name === 'VectorSelector') {
      const id = cursor.node.getChild('Identifier');
      if (!id) throw new Error(`a selector without a metric name: ${expr}`);
      names.push(text.slice(id.from, id.to));
    }
  } while (cursor.next());
  return names;
}

/**
 * The names of `names` that the scrape does not serve as a series. A histogram `x` serves `x_bucket`, `x_sum` and
 * `x_count` (not `x`), a summary `x`, `x_sum` and `x_count`, a counter or gauge its own name; and each must have a
 * sample, so that the panel shows data.
 */
function notServed(names: Iterable<string>, exposition: string): string[] {
  const served = new Set<string>();
  for (const [, family, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const suffixes =
      type === 'histogram' ? ['_bucket', '_sum', '_count'] : type === 'summary' ? ['', '_sum', '_count'] : [''];
    for (const s of suffixes) served.add(`${family}${s}`);
  }
  const sampled = new Set([...exposition.matchAll(/^([a-zA-Z_:][\w:]*)(?:\{.*\})? \S+$/gm)].map((m) => m[1]!));
  return [...new Set(names)].filter((n) => !served.has(n) || !sampled.has(n)).sort();
}

describe(`docs/${DASHBOARD_PATH} (Grafana dashboard)`, () => {
  let app: TestApp;
  let exposition: string;

  before(async () => {
    // One public read a minute: the second read is refused, so the refusals counter has a series.
    app = await startApp({
      METRICS_PORT: '0',
      LOCKER_TIMER_SCALE: '0.0005',
      RATE_LIMIT_PUBLIC_READ: '1/60',
      TRUSTED_PROXY_HOPS: '1',
    });
    const tenant = await tenantWithReceiver(app, () => 200, 'dashboard-secret-0123456789abcdef');
    after(() => tenant.receiver.close());
    const { deviceOrderId } = await tenant.store();
    await waitFor(async () => tenant.receiver.received.length === 1);
    const removed = await app.http.post(
      `/v1/device-orders/${deviceOrderId}/remove`,
      { removal_reason: 'handover' },
      { token: tenant.admin },
    );
    assert.equal(removed.status, 200);
    const from = { headers: { 'x-forwarded-for': `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}` } };
    assert.equal((await app.http.get('/v1/otep/vocabulary', from)).status, 200);
    assert.equal((await app.http.get('/v1/otep/vocabulary', from)).status, 429);
    // The run ends asynchronously: wait until the worker has counted it.
    exposition = await waitFor(async () => {
      const text = await (await fetch(app.running.metrics!.url)).text();
      return /^tms_workflow_results_total\{/m.test(text) ? text : null;
    });
  });
  after(() => app.running.close());

  test('every metric a panel or a variable queries is served by /metrics, with a sample', () => {
    const exprs = expressions(dashboard);
    assert.ok(exprs.length >= 30, `${exprs.length} expressions`);
    const missing = exprs.flatMap(({ where, expr }) =>
      notServed(metricNames(expr), exposition).map((name) => `${where}: ${name}`),
    );
    assert.deepEqual(missing, []);
    // And the dashboard covers every metric of the service, so a new one is not forgotten.
    const queried = new Set(exprs.flatMap(({ expr }) => metricNames(expr)));
    const unused = [...exposition.matchAll(/^# TYPE (tms_(?!process_)\S+) /gm)]
      .map((m) => m[1]!)
      .filter((f) => ![f, `${f}_count`, `${f}_bucket`].some((n) => queried.has(n)));
    assert.deepEqual(unused, []);
  });

  test('the check fails for a metric the service does not serve, and reads histogram suffixes right', () => {
    assert.deepEqual(
      notServed(
        metricNames(
          'sum(rate(tms_no_such_total[$__rate_interval])) + max(tms_outbox_backlog_events_bucket) + tms_http_request_duration_seconds',
        ),
        exposition,
      ),
      ['tms_http_request_duration_seconds', 'tms_no_such_total', 'tms_outbox_backlog_events_bucket'],
    );
    assert.deepEqual(
      metricNames(
        'histogram_quantile(0.99, sum by (le, operation) (rate(tms_http_request_duration_seconds_bucket{operation=~"$operation"}[5m]))) / on() group_left vector(1)',
      ),
      ['tms_http_request_duration_seconds_bucket'],
    );
    assert.throws(() => metricNames('sum(rate(tms_webhook_attempts_total[5m])'), /not PromQL/);
    assert.throws(() => metricNames('{outcome="dead"}'), /without a metric name/);
  });

  test('imports into any Grafana: one Prometheus input, used by every panel, query and variable', () => {
    assert.ok(dashboard.schemaVersion >= 41, `schemaVersion ${dashboard.schemaVersion}`);
    assert.deepEqual(
      dashboard.__inputs.map((i) => [i.name, i.type, i.pluginId]),
      [['DS_PROMETHEUS', 'datasource', 'prometheus']],
    );
    const ds = { type: 'prometheus', uid: '${DS_PROMETHEUS}' };
    for (const p of dashboard.panels.filter((x) => x.type !== 'row')) {
      assert.deepEqual(p.datasource, ds, p.title);
      assert.ok(p.targets?.length, `${p.title} has queries`);
      for (const t of p.targets) assert.deepEqual(t.datasource, ds, p.title);
    }
    for (const v of dashboard.templating.list) assert.equal(v.datasource?.uid, '${DS_PROMETHEUS}', v.name);
    const titles = dashboard.panels.map((p) => p.title);
    assert.equal(new Set(titles).size, titles.length, 'panel titles are unique (the runbook names panels by title)');
    const ids = dashboard.panels.map((p) => p.id);
    assert.equal(new Set(ids).size, ids.length, 'panel ids are unique');
  });

  test("each of the runbook's actions names panels that exist", () => {
    const runbook = readFileSync(path.join(DOCS, 'runbook.md'), 'utf8');
    const titles = new Set(dashboard.panels.map((p) => p.title));
    const actions = runbook.split(/^## /m).slice(1);
    assert.ok(actions.length >= 7);
    for (const action of actions) {
      const name = action.split('\n')[0]!;
      // From the link to the end of its list item, lines joined.
      const at = action.indexOf(`](${DASHBOARD_PATH})`);
      assert.ok(at > 0, `"${name}" links the dashboard`);
      const item = action
        .slice(at)
        .split(/\n(?=\d+\. )|\n\n/)[0]!
        .replace(/\s+/g, ' ');
      const named = [...item.matchAll(/panel[s]? ((?:"[^"]+"(?:, | and )?)+)/g)].flatMap((m) =>
        [...m[1]!.matchAll(/"([^"]+)"/g)].map((t) => t[1]!),
      );
      assert.ok(named.length > 0, `"${name}" names a panel`);
      for (const t of named) assert.ok(titles.has(t), `"${name}" names panel "${t}", which the dashboard lacks`);
    }
  });
});
