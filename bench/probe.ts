/**
 * `npm run probe`: the outside probe of the security findings, against a running `npm start` with the demo data
 * (PROBE_URL, default http://localhost:3000). It prints what a tester would look at:
 *  1. odd input (NUL, control characters, lone surrogates, year 0, malformed percent-encoding, wrong types,
 *     undeclared methods), anonymous and signed in: the statuses seen, and every 5xx;
 *  2. 2,000 wrong pickup codes on one device order: the statuses, and what the right code gets afterwards;
 *  3. a 2,000-alias GraphQL query and 50 aliased sign-ins, while another business reads its orders and health is
 *     polled: that business's latency against its quiet baseline measured first in this run, and health's answers;
 *  4. 1,000 anonymous MCP requests whose params nest 5,000 and 10,000 deep, on both servers: the answers, and the
 *     API's resident memory and heap before, after, and after 10 s at rest, read from its /metrics
 *     (PROBE_METRICS_URL, default http://localhost:9464/metrics).
 * It exits 1 when any 5xx was seen, health was not green, or the other business's p95 exceeded 2x its baseline.
 * PROBE_SECTIONS (say 1,4) runs only the sections it lists.
 */
import http from 'node:http';

const BASE = `${process.env.PROBE_URL ?? 'http://localhost:3000'}/api`;
const METRICS = process.env.PROBE_METRICS_URL ?? 'http://localhost:9464/metrics';
const PASSWORD = process.env.PROBE_PASSWORD ?? 'demo-password';
const SECTIONS = process.env.PROBE_SECTIONS?.split(',').map(Number);
const section = (n: number) => !SECTIONS || SECTIONS.includes(n);

interface Seen {
  label: string;
  status: number;
}
const seen: Seen[] = [];

async function call(
  label: string,
  method: string,
  path: string,
  opts: { token?: string; body?: string; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const body = opts.body ?? (opts.json === undefined ? undefined : JSON.stringify(opts.json));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = FETCH_FORBIDS.has(method)
    ? await viaHttp(method, `${BASE}${path}`, headers)
    : await fetch(`${BASE}${path}`, { method, headers, body });
  seen.push({ label, status: res.status });
  return res;
}

/** Methods fetch refuses to send; a tester's raw client sends them all the same. */
const FETCH_FORBIDS = new Set(['TRACE', 'TRACK', 'CONNECT']);

function viaHttp(method: string, url: string, headers: Record<string, string>): Promise<Response> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve(
            new Response(Buffer.concat(chunks), {
              status: res.statusCode ?? 0,
              headers: res.headers as Record<string, string>,
            }),
          ),
        );
      })
      .on('error', reject)
      .end();
  });
}

async function login(email: string): Promise<string> {
  const res = await call('login', 'POST', '/v1/user/login', { json: { email, password: PASSWORD } });
  if (!res.ok) throw new Error(`login ${email}: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function oddInput(admin: string): Promise<void> {
  const lone = '"A\\ud800B"';
  const cases: [string, string, string, { token?: string; body?: string }][] = [
    ['tracking NUL (anonymous)', 'GET', '/v1/tracking/A%00B', {}],
    ['OTEP timeline NUL (anonymous)', 'GET', '/v1/otep/trackings/%00', {}],
    ['OTEP events NUL (anonymous)', 'GET', '/v1/otep/trackings/%00/events', {}],
    ['OTEP batch NUL (anonymous)', 'POST', '/v1/otep/trackings/batch', { body: '{"tracking_numbers":["A\\u0000B"]}' }],
    [
      'OTEP batch lone surrogate (anonymous)',
      'POST',
      '/v1/otep/trackings/batch',
      { body: `{"tracking_numbers":[${lone}]}` },
    ],
    ['tracking bad percent-encoding (anonymous)', 'GET', '/v1/tracking/%ED%A0%80', {}],
    ['tracking invalid UTF-8 (anonymous)', 'GET', '/v1/tracking/%FF', {}],
    ['orders filter NUL', 'GET', '/v1/orders?order_ref=A%00B', { token: admin }],
    [
      'deliveries filters NUL',
      'GET',
      '/v1/webhook-deliveries?event=A%00B&reference_id=%00&reference_type=%07',
      { token: admin },
    ],
    ['device orders filter NUL', 'GET', '/v1/device-orders?device_id=A%00B', { token: admin }],
    ['deliveries year 0', 'GET', '/v1/webhook-deliveries?from=0000-01-01T00:00:00Z', { token: admin }],
    ['orders page=abc', 'GET', '/v1/orders?page=abc', { token: admin }],
    ['orders huge page', 'GET', '/v1/orders?page=99999999999999999999999', { token: admin }],
    [
      'order create NUL',
      'POST',
      '/v1/client/orderCreate',
      {
        token: admin,
        body: '{"type":"D","scheduled_date":"2026-12-01","order_ref":"A\\u0000B","recipient":{"name":"x","address":{"line1":"x","city":"x","postal_code":"1","country":"US"}}}',
      },
    ],
    [
      'order create lone surrogate',
      'POST',
      '/v1/client/orderCreate',
      {
        token: admin,
        body: `{"type":"D","scheduled_date":"2026-12-01","note":${lone},"recipient":{"name":${lone},"address":{"line1":"x","city":"x","postal_code":"1","country":"US"}}}`,
      },
    ],
    [
      'order create year 0',
      'POST',
      '/v1/client/orderCreate',
      {
        token: admin,
        body: '{"type":"D","scheduled_date":"0000-01-01","recipient":{"name":"x","address":{"line1":"x","city":"x","postal_code":"1","country":"US"}}}',
      },
    ],
    [
      'webhook secret lone surrogate',
      'PUT',
      '/v1/webhook-settings',
      { token: admin, body: `{"webhook_sign_secret":${lone}}` },
    ],
    [
      'OHP subscription NUL',
      'POST',
      '/v1/ohp/subscriptions',
      { token: admin, body: '{"url":"https://example.com/\\u0000"}' },
    ],
    [
      'device order store NUL',
      'POST',
      '/v1/device-orders',
      {
        token: admin,
        body: '{"kind":"delivery","device_id":"A\\u0000","grid_code":"A01","reference_number":"x","due_at":"2030-01-01T00:00:00Z"}',
      },
    ],
    [
      'GraphQL year 0',
      'POST',
      '/graphql',
      { token: admin, body: '{"query":"{ webhookDeliveries(from: \\"0000-01-01T00:00:00Z\\") { total } }"}' },
    ],
    [
      'GraphQL NUL',
      'POST',
      '/graphql',
      { token: admin, body: '{"query":"{ orders(order_ref: \\"A\\\\u0000B\\") { total } }"}' },
    ],
    ['PROPFIND orders', 'PROPFIND', '/v1/orders', { token: admin }],
    ['TRACE orders', 'TRACE', '/v1/orders', { token: admin }],
  ];
  process.stdout.write('\n1. Odd input\n');
  for (const [label, method, path, opts] of cases) {
    const res = await call(label, method, path, opts).catch(
      (err: Error) => ({ status: 0, text: async () => err.message }) as unknown as Response,
    );
    const text = await res.text();
    const code = /"code":"([A-Z_]+)"/.exec(text)?.[1] ?? '';
    process.stdout.write(`   ${String(res.status).padEnd(4)} ${code.padEnd(20)} ${label}\n`);
  }
}

async function wrongCodes(admin: string, customer: string): Promise<void> {
  process.stdout.write('\n2. 2,000 wrong pickup codes on one device order (customer token, 20 in flight)\n');
  type Stored = { device_order: { id: number }; pickup_code: string };
  let stored: Stored | null = null;
  for (const grid of Array.from({ length: 24 }, (_, i) => `A${String(i + 1).padStart(2, '0')}`)) {
    const res = await call('store', 'POST', '/v1/device-orders', {
      token: admin,
      json: {
        kind: 'delivery',
        device_id: 'DEMO-LOCKER-1',
        grid_code: grid,
        reference_number: 'PROBE',
        due_at: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    if (res.status === 201) {
      stored = (await res.json()) as Stored;
      break;
    }
  }
  if (!stored) {
    process.stdout.write('   no free compartment on DEMO-LOCKER-1; skipped\n');
    return;
  }
  const { id } = stored.device_order;
  const right = stored.pickup_code;
  const codes = Array.from({ length: 2000 }, (_, i) => String(i).padStart(6, '0'))
    .filter((c) => c !== right)
    .slice(0, 2000);
  const statuses = new Map<number, number>();
  const started = performance.now();
  for (let i = 0; i < codes.length; i += 20) {
    await Promise.all(
      codes.slice(i, i + 20).map(async (code) => {
        const res = await call('wrong code', 'POST', `/v1/device-orders/${id}/collect`, {
          token: customer,
          json: { pickup_code: code },
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }),
    );
  }
  process.stdout.write(
    `   ${codes.length} codes in ${((performance.now() - started) / 1000).toFixed(1)} s: ${[...statuses].map(([s, n]) => `${n} x ${s}`).join(', ')}\n`,
  );
  const after = await call('right code after', 'POST', `/v1/device-orders/${id}/collect`, {
    token: customer,
    json: { pickup_code: right },
  });
  process.stdout.write(
    `   the right code afterwards: ${after.status}, Retry-After ${after.headers.get('retry-after')}\n`,
  );
  await after.arrayBuffer();
  const removed = await call('remove', 'POST', `/v1/device-orders/${id}/remove`, {
    token: admin,
    json: { removal_reason: 'anomaly' },
  });
  await removed.arrayBuffer();
}

/**
 * Reads the other business's orders every 50 ms until stopped, whether or not the previous read has answered (an
 * open loop: a stall shows in every read it holds up, not in one), and answers each latency in ms.
 */
function reader(token: string) {
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  const timer = setInterval(() => {
    const t = performance.now();
    pending.push(
      call('other business orders', 'GET', '/v1/orders', { token }).then(async (res) => {
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
      }),
    );
  }, 50);
  return {
    latencies,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
    },
  };
}

function healthPoller() {
  const statuses = new Map<number, number>();
  let running = true;
  const done = (async () => {
    while (running) {
      const res = await call('health', 'GET', '/health');
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    statuses,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/** The demo business gets at least 200 orders, so that each aliased page is full, as in the original probe. */
async function fillOrders(admin: string): Promise<void> {
  const res = await call('orders total', 'GET', '/v1/orders?per_page=1', { token: admin });
  const { total } = (await res.json()) as { total: number };
  const address = { line1: '1 Probe Street', city: 'Springfield', postal_code: '12345', country: 'US' };
  for (let i = total; i < 200; i++) {
    const made = await call('order create', 'POST', '/v1/client/orderCreate', {
      token: admin,
      json: {
        type: 'D',
        scheduled_date: '2030-01-01',
        order_ref: `PROBE-${i}`,
        recipient: { name: `Probe ${i}`, address },
      },
    });
    await made.arrayBuffer();
  }
}

async function heavyGraphql(admin: string, other: string): Promise<{ ratio: number; healthBad: number }> {
  process.stdout.write('\n3. Heavy GraphQL while another business reads its orders\n');
  await fillOrders(admin);
  const quiet = reader(other);
  await new Promise((r) => setTimeout(r, 3000));
  await quiet.stop();
  const base = { p50: percentile(quiet.latencies, 0.5), p95: percentile(quiet.latencies, 0.95) };
  process.stdout.write(
    `   baseline, quiet: ${quiet.latencies.length} reads, p50 ${base.p50.toFixed(1)} ms, p95 ${base.p95.toFixed(1)} ms\n`,
  );

  const loaded = reader(other);
  const health = healthPoller();
  const aliases = Array.from(
    { length: 2000 },
    (_, i) => `a${i}: orders(per_page: 200) { total orders { id order_ref } }`,
  ).join(' ');
  const logins = Array.from(
    { length: 50 },
    (_, i) => `l${i}: userLogin(email: "admin@demo.example", password: "wrong-password") { access_token }`,
  ).join(' ');
  // Both requests sent back to back for the whole window, so that the other business's reads all meet them.
  const deadline = performance.now() + 8000;
  await Promise.all(
    (
      [
        ['2,000 aliases of orders(per_page: 200)', `{ ${aliases} }`],
        ['50 aliased userLogin', `mutation { ${logins} }`],
      ] as const
    ).map(async ([label, query]) => {
      const codes = new Map<string, number>();
      let bytes = 0;
      let slowest = 0;
      let n = 0;
      while (performance.now() < deadline) {
        const t = performance.now();
        const res = await call(label, 'POST', '/graphql', { token: admin, json: { query } });
        const text = await res.text();
        const code = `${res.status} ${/"code":"([A-Z_]+)"/.exec(text)?.[1] ?? 'data'}`;
        codes.set(code, (codes.get(code) ?? 0) + 1);
        bytes += text.length;
        slowest = Math.max(slowest, performance.now() - t);
        n++;
      }
      process.stdout.write(
        `   ${label}: ${n} requests (${[...codes].map(([c, k]) => `${k} x ${c}`).join(', ')}), ${(bytes / n / 1024).toFixed(1)} KiB each, slowest ${slowest.toFixed(0)} ms\n`,
      );
    }),
  );
  await new Promise((r) => setTimeout(r, 1000));
  await loaded.stop();
  await health.stop();
  const load = {
    p50: percentile(loaded.latencies, 0.5),
    p95: percentile(loaded.latencies, 0.95),
    max: Math.max(...loaded.latencies),
  };
  const ratio = load.p95 / base.p95;
  process.stdout.write(
    `   other business under load: ${loaded.latencies.length} reads, p50 ${load.p50.toFixed(1)} ms, p95 ${load.p95.toFixed(1)} ms (${ratio.toFixed(2)}x the quiet p95), max ${load.max.toFixed(1)} ms\n`,
  );
  process.stdout.write(`   health meanwhile: ${[...health.statuses].map(([s, n]) => `${n} x ${s}`).join(', ')}\n`);
  return { ratio, healthBad: [...health.statuses].filter(([s]) => s !== 200).reduce((n, [, c]) => n + c, 0) };
}

/** The API's resident memory, heap used and heap size in MB, from its /metrics; null when they cannot be read. */
async function memory(): Promise<{ rss: number; heapUsed: number; heapTotal: number } | null> {
  try {
    const text = await (await fetch(METRICS)).text();
    const mb = (name: string) => Number(new RegExp(`^tms_process_${name} (\\S+)`, 'm').exec(text)?.[1]) / 1024 / 1024;
    const read = {
      rss: mb('process_resident_memory_bytes'),
      heapUsed: mb('nodejs_heap_size_used_bytes'),
      heapTotal: mb('nodejs_heap_size_total_bytes'),
    };
    return Object.values(read).every(Number.isFinite) ? read : null;
  } catch {
    return null;
  }
}

async function deepMcp(): Promise<void> {
  process.stdout.write('\n4. 1,000 anonymous MCP requests whose params nest 5,000 and 10,000 deep (20 in flight)\n');
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const bodies = [5000, 10000].map((d) => `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${nested(d)}}`);
  const headers = { accept: 'application/json, text/event-stream' };
  const answers = new Map<string, number>();
  const send = async (i: number) => {
    const res = await call('deep MCP', 'POST', i % 2 ? '/mcp' : '/mcp/developer', { body: bodies[i % 2], headers });
    const text = await res.text();
    const answer = `${res.status} ${/"code":(-?\d+)/.exec(text)?.[1] ?? ''}`.trim();
    answers.set(answer, (answers.get(answer) ?? 0) + 1);
  };
  for (let i = 0; i < 20; i++) await send(i);
  answers.clear();
  const before = await memory();
  const started = performance.now();
  for (let i = 0; i < 1000; i += 20) await Promise.all(Array.from({ length: 20 }, (_, k) => send(i + k)));
  const seconds = (performance.now() - started) / 1000;
  const after = await memory();
  await new Promise((r) => setTimeout(r, 10_000));
  const rested = await memory();
  process.stdout.write(
    `   1000 requests in ${seconds.toFixed(1)} s: ${[...answers].map(([a, n]) => `${n} x ${a}`).join(', ')} (status, JSON-RPC code)\n`,
  );
  if (!before || !after || !rested) {
    process.stdout.write(`   memory not read: ${METRICS} did not answer the process metrics\n`);
    return;
  }
  const row = (name: 'rss' | 'heapUsed' | 'heapTotal') =>
    `${before[name].toFixed(0)} MB before, ${after[name].toFixed(0)} MB after, ${rested[name].toFixed(0)} MB 10 s later`;
  process.stdout.write(`   API resident memory: ${row('rss')}\n`);
  process.stdout.write(`   API heap used: ${row('heapUsed')}; heap size: ${row('heapTotal')}\n`);
}

const admin = section(1) || section(2) || section(3) ? await login('admin@demo.example') : '';
if (section(1)) await oddInput(admin);
if (section(2)) await wrongCodes(admin, await login('customer@demo.example'));
const { ratio, healthBad } = section(3)
  ? await heavyGraphql(admin, await login('admin@other.example'))
  : { ratio: 0, healthBad: 0 };
if (section(4)) await deepMcp();

const fivexx = seen.filter((s) => s.status >= 500 || s.status === 0);
process.stdout.write(
  `\nSummary: ${seen.length} requests, ${fivexx.length} answered 5xx or failed${fivexx.length ? `: ${[...new Set(fivexx.map((s) => `${s.label} ${s.status}`))].join('; ')}` : ''}${section(3) ? `; health not green ${healthBad} times; other business p95 ${ratio.toFixed(2)}x its quiet p95` : ''}\n`,
);
process.exit(fivexx.length === 0 && healthBad === 0 && ratio <= 2 ? 0 : 1);
