// The two MCP servers as the official MCP TypeScript SDK client sees them, over Streamable HTTP against the real
// service: versions, tools from the catalog, public and scoped calls, refusals, and confirmation of high-risk tools.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startApp, type TestApp } from '../helpers/app.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../helpers/factories.ts';

/**
 * The scenarios of the published MCP conformance suite that apply to a tools-only, stateless server; docs/mcp.md
 * says why each of the others does not apply.
 */
const CONFORMANCE_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];
const conformanceCli = path.resolve(
  import.meta.dirname,
  '../../node_modules/@modelcontextprotocol/conformance/dist/index.js',
);

describe('MCP servers', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  const clients: Client[] = [];

  /** A connected SDK client; `mode: 'auto'` lets it take the newest protocol revision the server offers. */
  async function connect(path: string, headers: Record<string, string> = {}, mode?: 'auto'): Promise<Client> {
    const client = new Client(
      { name: 'tms-test', version: '1.0.0' },
      mode ? { versionNegotiation: { mode } } : undefined,
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}${path}`), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }
  const bearer = (token: string, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${token}`,
    ...extra,
  });
  const parsed = (result: { content?: unknown }) => JSON.parse((result.content as { text: string }[])[0]!.text);

  let now = new Date('2026-11-25T12:00:00Z');

  before(async () => {
    app = await startApp({}, { clock: () => now });
    b = await makeBusiness(app.em());
    admin = await app.login(b.users.admin.email, PASSWORD);
  });
  after(async () => {
    for (const c of clients) await c.close();
    await app.running.close();
  });

  test('both servers answer on both path forms, named as the specification names them, each with its own tools', async () => {
    for (const [path, name] of [
      ['/mcp', 'service'],
      ['/api/mcp', 'service'],
      ['/mcp/developer', 'service-developer'],
      ['/api/mcp/developer', 'service-developer'],
    ]) {
      const client = await connect(path!);
      assert.equal(client.getServerVersion()?.name, name, path);
    }
    const user = (await (await connect('/mcp')).listTools()).tools;
    const developer = (await (await connect('/mcp/developer')).listTools()).tools;
    const names = (tools: { name: string }[]) => tools.map((t) => t.name);
    for (const t of ['track_package', 'otep_tracking', 'get_orders', 'get_order_detail', 'create_order'])
      assert.ok(names(user).includes(t), t);
    for (const t of [
      'track_package',
      'get_otep_tracking',
      'validate_otep_payload',
      'create_order',
      'get_webhook_settings',
      'update_webhook_settings',
      'test_webhook_delivery',
      'get_webhook_delivery_logs',
      'replay_webhook_delivery',
      'verify_webhook_signature',
    ]) {
      assert.ok(names(developer).includes(t), t);
    }
    assert.ok(!names(user).includes('get_webhook_settings'), "webhook tools are the developer server's");
    const orders = user.find((t) => t.name === 'get_orders')!;
    assert.deepEqual(orders.annotations, {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    assert.equal(orders.inputSchema.type, 'object');
    assert.ok(orders.outputSchema, 'an object answer has an output schema');
    const update = developer.find((t) => t.name === 'update_webhook_settings')!;
    assert.equal(update.annotations?.destructiveHint, true);
    assert.ok(Object.hasOwn(update.inputSchema.properties ?? {}, 'confirm'), 'a high-risk tool takes confirm');
  });

  test('initialize agrees each protocol revision of 2024-11-05 to 2025-11-25; a client of 2026-07-28 gets that one', async () => {
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      const res = await fetch(`${app.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
        }),
      });
      const text = await res.text();
      assert.equal(res.status, 200, text);
      assert.match(text, new RegExp(`"protocolVersion":"${version}"`), version);
    }
    const modern = await connect('/mcp', {}, 'auto');
    assert.equal(modern.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.ok((await modern.listTools()).tools.length > 0);
  });

  test("a public tool answers without a token; a scoped read answers as the token's caller, within its business only", async () => {
    const order = await makeOrder(app.em(), b.business.id);
    const anonymous = await connect('/mcp');
    const tracked = await anonymous.callTool({ name: 'track_package', arguments: { number: order.trackingNumber } });
    assert.notEqual(tracked.isError, true, JSON.stringify(tracked));
    const refused = await anonymous.callTool({ name: 'get_orders', arguments: {} });
    assert.equal(refused.isError, true);
    assert.equal(parsed(refused).code, 'UNAUTHENTICATED');

    const agent = await connect('/mcp', bearer(admin, { 'x-mcp-profile': 'ops-readonly' }));
    const detail = await agent.callTool({ name: 'get_order_detail', arguments: { id: order.id } });
    assert.notEqual(detail.isError, true, JSON.stringify(detail));
    assert.equal((detail.structuredContent as { order: { id: number } }).order.id, order.id);
    const other = await makeBusiness(app.em());
    const foreign = await makeOrder(app.em(), other.business.id);
    const hidden = await agent.callTool({ name: 'get_order_detail', arguments: { id: foreign.id } });
    assert.equal(parsed(hidden).code, 'NOT_FOUND', "another business's order is not found");
  });

  test("a tool outside the connection's scopes is refused naming the scope, in the caller's language; a bad profile and bad arguments are refused", async () => {
    const readonly = await connect('/mcp', bearer(admin, { 'x-mcp-profile': 'ops-readonly', 'accept-language': 'fr' }));
    const listed = (await readonly.listTools()).tools.map((t) => t.name);
    assert.ok(listed.includes('get_orders') && listed.includes('track_package'), listed.join());
    assert.deepEqual(
      listed.filter((name) => ['create_order', 'device_order_remove', 'approve_pending_write'].includes(name)),
      [],
      'the list names only the tools the scopes allow',
    );
    const legacy = (await (await connect('/mcp', bearer(admin))).listTools()).tools.map((t) => t.name);
    assert.ok(legacy.includes('create_order') && legacy.includes('device_order_remove'), 'legacy access lists all');
    const res = await readonly.callTool({ name: 'create_order', arguments: {} });
    assert.equal(res.isError, true);
    assert.deepEqual(
      [parsed(res).code, parsed(res).message],
      [
        'MISSING_SCOPE',
        "Cet outil demande la portée orders:write, que cette connexion n'a pas reçue (X-MCP-Profile ou X-MCP-Scopes).",
      ],
    );
    const explicit = await connect('/mcp', bearer(admin, { 'x-mcp-profile': 'full', 'x-mcp-scopes': 'orders:read' }));
    assert.equal(
      parsed(await explicit.callTool({ name: 'create_order', arguments: {} })).code,
      'MISSING_SCOPE',
      'X-MCP-Scopes overrides the profile',
    );
    const bad = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-mcp-profile': 'root',
      },
      body: '{}',
    });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: { message: string } }).error.message, /ops-readonly/);
    const full = await connect('/mcp', bearer(admin, { 'accept-language': 'fr' }));
    const invalid = parsed(await full.callTool({ name: 'create_order', arguments: { type: 'X' } }));
    assert.equal(
      invalid.code,
      'VALIDATION_FAILED',
      'arguments are checked by the runner, translated and naming fields',
    );
    assert.deepEqual(invalid.errors.map((e: { field: string }) => e.field).sort(), [
      'recipient',
      'scheduled_date',
      'type',
    ]);
  });

  test('a high-risk tool does nothing without confirm: true, and runs with it', async () => {
    const dev = await connect('/mcp/developer', bearer(admin));
    const url = 'https://example.com/hooks/mcp';
    const unconfirmed = await dev.callTool({
      name: 'update_webhook_settings',
      arguments: { device_order_webhook_url: url },
    });
    assert.equal(parsed(unconfirmed).code, 'CONFIRMATION_REQUIRED');
    const read = async () =>
      (await dev.callTool({ name: 'get_webhook_settings', arguments: {} })).structuredContent as {
        settings: { device_order_webhook_url: string | null };
      };
    assert.equal((await read()).settings.device_order_webhook_url, null, 'nothing was written');
    const confirmed = await dev.callTool({
      name: 'update_webhook_settings',
      arguments: { device_order_webhook_url: url, confirm: true },
    });
    assert.notEqual(confirmed.isError, true, JSON.stringify(confirmed));
    assert.equal((await read()).settings.device_order_webhook_url, url);
  });

  test('the developer server takes the deprecated api_token argument with a notice until 2026-12-31, and refuses it after', async () => {
    const dev = await connect('/mcp/developer');
    const tool = (await dev.listTools()).tools.find((t) => t.name === 'get_webhook_settings')!;
    assert.equal((tool.inputSchema.properties as Record<string, { deprecated?: boolean }>).api_token?.deprecated, true);
    const accepted = await dev.callTool({ name: 'get_webhook_settings', arguments: { api_token: admin } });
    assert.notEqual(accepted.isError, true, JSON.stringify(accepted));
    assert.match(
      (accepted.content as { text: string }[])[1]!.text,
      /^Deprecated: the api_token argument is accepted until 2026-12-31/,
    );
    const user = await connect('/mcp', bearer(admin));
    assert.deepEqual(
      parsed(await user.callTool({ name: 'get_orders', arguments: { api_token: admin } })).errors.map(
        (e: { field: string }) => e.field,
      ),
      ['api_token'],
      'the user server never took a token argument',
    );
    now = new Date('2027-01-01T00:00:00Z');
    try {
      assert.equal(
        parsed(await dev.callTool({ name: 'get_webhook_settings', arguments: { api_token: admin } })).code,
        'API_TOKEN_ARGUMENT_REMOVED',
      );
    } finally {
      now = new Date('2026-11-25T12:00:00Z');
    }
  });

  test("the developer server describes the service itself: endpoints, GraphQL operations, the skill's freshness, the guides", async () => {
    const dev = await connect('/mcp/developer');
    const endpoints = (await dev.callTool({ name: 'get_api_endpoints', arguments: { query: 'orders list' } }))
      .structuredContent as { endpoints: { method: string; path: string; tools: object }[] };
    assert.deepEqual(
      endpoints.endpoints.find((e) => e.path === '/api/v1/orders'),
      { ...endpoints.endpoints.find((e) => e.path === '/api/v1/orders'), method: 'GET', tools: { user: 'get_orders' } },
    );
    const graphql = (await dev.callTool({ name: 'get_graphql_operations', arguments: {} })).structuredContent as {
      operations: { name: string }[];
    };
    assert.ok(graphql.operations.some((o) => o.name === 'clientOrderCreate'));
    const served = (await (await fetch(`${app.url}/api/ai-skill/version`)).json()) as { hash: string };
    const check = async (hash: string) =>
      (await dev.callTool({ name: 'check_skill_update', arguments: { current_hash: hash } })).structuredContent as {
        update_available: boolean;
      };
    const [fresh, stale] = [await check(served.hash), await check('sha256:old')];
    assert.deepEqual([fresh.update_available, stale.update_available], [false, true]);
    const guide = (await dev.callTool({ name: 'get_webhook_guide', arguments: {} })).structuredContent as {
      text: string;
    };
    assert.match(guide.text, /^# /);
    const capabilities = (await (await connect('/mcp')).callTool({ name: 'get_capabilities', arguments: {} }))
      .structuredContent as { servers: { name: string; categories: { scope: string; tools: string[] }[] }[] };
    assert.deepEqual(
      capabilities,
      await (await fetch(`${app.url}/api/ai/capabilities`)).json(),
      "the user server's public get_capabilities answers the discovery document",
    );
    assert.ok(
      capabilities.servers[0]!.categories.find((c) => c.scope === 'public')!.tools.includes('get_capabilities'),
    );
  });

  test("run_graphql_query runs GraphQL as the endpoint does, limits included, and each operation it reaches checks the agent's grant", async () => {
    const order = await makeOrder(app.em(), b.business.id);
    const dev = await connect('/mcp/developer', bearer(admin, { 'x-mcp-scopes': 'orders:read' }));
    const run = async (query: string, client = dev) =>
      await client.callTool({ name: 'run_graphql_query', arguments: { query } });
    const listed = (await run('{ orders(per_page: 50) { total orders { id } } }')).structuredContent as {
      data: { orders: { orders: { id: number }[] } };
    };
    assert.ok(
      listed.data.orders.orders.some((o) => o.id === order.id),
      JSON.stringify(listed),
    );
    const scoped = (
      await run('mutation { webhookSettingsUpdate(device_order_webhook_url: "https://example.com/x") { result } }')
    ).structuredContent as { errors: { extensions: { code: string } }[] };
    assert.equal(scoped.errors[0]!.extensions.code, 'MISSING_SCOPE', 'GraphQL is no way around the scopes');
    const full = await connect('/mcp/developer', bearer(admin));
    const unconfirmed = (
      await run(
        'mutation { webhookSettingsUpdate(device_order_webhook_url: "https://example.com/x") { result } }',
        full,
      )
    ).structuredContent as { errors: { extensions: { code: string } }[] };
    assert.equal(unconfirmed.errors[0]!.extensions.code, 'CONFIRMATION_REQUIRED', 'nor around confirmation');
    const aliases = `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: orders { total }`).join(' ')} }`;
    assert.equal(parsed(await run(aliases)).code, 'TOO_MANY_ALIASES', "the endpoint's limits apply");
    assert.match(
      ((await run('{ orders { nope } }')).structuredContent as { errors: { message: string }[] }).errors[0]!.message,
      /nope/,
    );
    assert.equal(parsed(await run('{ orders { total } }', await connect('/mcp/developer'))).code, 'UNAUTHENTICATED');
  });

  test('a foreign Origin or Host is refused (DNS rebinding); GET answers 405', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    };
    const res = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: 'http://evil.example',
      },
      body: JSON.stringify(init),
    });
    assert.equal(res.status, 403);
    const host = await fetch(`${app.url}/mcp`.replace('127.0.0.1', 'localhost'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(init),
    });
    assert.equal(host.status, 200, 'localhost is this machine');
    assert.equal((await fetch(`${app.url}/mcp`)).status, 405, 'stateless: no GET stream');
    // A page of another site that resolves its name to this machine sends its own Host.
    const foreignHost = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify(init);
      http
        .request(
          `${app.url}/mcp`,
          {
            method: 'POST',
            headers: {
              host: 'evil.example',
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'content-length': Buffer.byteLength(body),
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
        .on('error', reject)
        .end(body);
    });
    assert.equal(foreignHost, 403);
  });

  test('a plain 2025-era tools/call is answered directly as JSON, exactly as the SDK answers it', async () => {
    const order = await makeOrder(app.em(), b.business.id);
    const post = async (params: Record<string, unknown>) => {
      const res = await fetch(`${app.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${admin}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }),
      });
      const text = await res.text();
      // The SDK answers a single request as one SSE event.
      const json = res.headers.get('content-type')!.startsWith('text/event-stream')
        ? text
            .split('\n')
            .find((l) => l.startsWith('data: '))!
            .slice(6)
        : text;
      return { type: res.headers.get('content-type')!.split(';')[0], body: JSON.parse(json) };
    };
    for (const args of [{ id: order.id }, { id: 'x' }, {}]) {
      const direct = await post({ name: 'get_order_detail', arguments: args });
      const viaSdk = await post({ name: 'get_order_detail', arguments: args, _meta: {} });
      assert.deepEqual([direct.type, viaSdk.type], ['application/json', 'text/event-stream']);
      assert.deepEqual(direct.body, viaSdk.body, JSON.stringify(args));
    }
    const unknown = await post({ name: 'no_such_tool', arguments: {} });
    assert.equal(unknown.body.error.code, -32602, "an unknown tool is the SDK's to answer");
  });

  test('the conformance suite on npm passes every scenario that applies, on both servers', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tms-conformance-'));
    try {
      for (const server of ['/mcp', '/mcp/developer']) {
        for (const scenario of CONFORMANCE_SCENARIOS) {
          const out = path.join(dir, `${server.replaceAll('/', '_')}-${scenario}`);
          // Asynchronously: the servers answer from this process. The CLI's report goes to files, never to this output.
          const exit = await new Promise<number | null>((resolve) => {
            execFile(
              process.execPath,
              [conformanceCli, 'server', '--url', `${app.url}${server}`, '--scenario', scenario, '-o', out],
              (err) => resolve(err ? ((err.code as number | null) ?? 1) : 0),
            );
          });
          const checks = fs.readdirSync(out).flatMap(
            (run) =>
              JSON.parse(fs.readFileSync(path.join(out, run, 'checks.json'), 'utf8')) as {
                id: string;
                status: string;
                errorMessage?: string;
              }[],
          );
          assert.ok(checks.length > 0, `${server} ${scenario}: no checks ran`);
          assert.deepEqual(
            checks.filter((c) => c.status !== 'SUCCESS').map((c) => `${c.id}: ${c.status} ${c.errorMessage ?? ''}`),
            [],
            `${server} ${scenario}`,
          );
          assert.equal(exit, 0, `${server} ${scenario}`);
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
