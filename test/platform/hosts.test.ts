// What the network reaches of a running service (docs/decisions.md, Network exposure): its listeners bind to
// loopback unless HOST opens them, and a request whose Host or Origin names a host the service does not answer to
// (DNS rebinding: a page of another site whose name resolves to this machine) is refused on every surface.
import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/platform/config.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../helpers/factories.ts';

interface Sent {
  status: number;
  body: any;
}

describe('Listening address and allowed host names', () => {
  let app: TestApp;
  let email: string;
  let token: string;
  let port: number;

  /** A request as a browser on another site would send it: Host (and Origin) are whatever its URL says. */
  function send(
    method: string,
    path: string,
    opts: { host?: string; origin?: string; body?: unknown; token?: string } = {},
  ): Promise<Sent> {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const headers: Record<string, string | number> = {
      accept: 'application/json, text/event-stream',
      ...(opts.host && { host: opts.host }),
      ...(opts.origin && { origin: opts.origin }),
      ...(opts.token && { authorization: `Bearer ${opts.token}` }),
      ...(body !== undefined && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
    };
    return new Promise((resolve, reject) => {
      http
        .request(`${app.url}${path}`, { method, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              /* a page or an SSE stream */
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
        })
        .on('error', reject)
        .end(body);
    });
  }

  before(async () => {
    // HOST as `npm start` leaves it (unset), whatever the environment of the test run says.
    app = await startApp(
      {
        HOST: '',
        METRICS_PORT: '0',
        PUBLIC_BASE_URL: 'https://tms.example.com',
        ALLOWED_HOSTS: 'tms.internal, api:3000',
      },
      { worker: false },
    );
    port = (app.running.server!.address() as AddressInfo).port;
    const b = await makeBusiness(app.em());
    email = b.users.admin.email;
    token = await app.login(email, PASSWORD);
  });
  after(() => app.running.close());

  test('the API and the metrics listener bind to 127.0.0.1 unless HOST says otherwise', () => {
    assert.equal((app.running.server!.address() as AddressInfo).address, '127.0.0.1');
    assert.equal(app.running.metrics!.address.address, '127.0.0.1');
    assert.equal(loadConfig({}).host, '127.0.0.1');
    assert.equal(loadConfig({ HOST: '0.0.0.0' }).host, '0.0.0.0');
  });

  const signIn = () => ({ email, password: PASSWORD });
  const graphql = { query: '{ userMe { email } }' };
  const surfaces = (): [string, string, unknown?][] => [
    ['GET', '/api/v1/user/me'],
    ['POST', '/api/graphql', graphql],
    ['POST', '/api/v1/user/login', signIn()],
    ['GET', '/mcp-approvals'],
    ['GET', '/api/docs'],
    ['GET', '/api/ai/tools'],
    ['GET', '/api/openapi.json'],
    ['GET', '/api/health'],
  ];

  test('a foreign Host is refused on REST, GraphQL, sign-in, the pages, /api/ai and health, before anything runs', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, 'localhost.evil.example', '127.0.0.1.nip.io']) {
      for (const [method, path, body] of surfaces()) {
        const res = await send(method, path, { host, body, token });
        assert.equal(res.status, 403, `${method} ${path} with Host ${host}`);
        assert.equal(res.body.code, 'HOST_NOT_ALLOWED', `${method} ${path}`);
        assert.match(res.body.message, /Host header/);
        assert.equal(res.body.access_token, undefined);
      }
    }
  });

  test('a foreign Origin is refused too, and MCP answers both refusals as JSON-RPC', async () => {
    const res = await send('POST', '/api/v1/user/login', { origin: 'http://evil.example', body: signIn() });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'HOST_NOT_ALLOWED');
    assert.match(res.body.message, /Origin header/);
    assert.equal((await send('GET', '/api/health', { origin: 'null' })).status, 403, 'a sandboxed page');
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    };
    for (const [path, opts] of [
      ['/mcp', { host: 'evil.example' }],
      ['/api/mcp/developer/', { host: 'evil.example' }],
      ['/mcp', { origin: 'http://evil.example' }],
    ] as const) {
      const mcp = await send('POST', path, { ...opts, body: init });
      assert.equal(mcp.status, 403, path);
      assert.deepEqual(mcp.body.jsonrpc, '2.0');
      assert.match(mcp.body.error.message, /^(Host|Origin) not allowed$/);
    }
  });

  test("loopback names, PUBLIC_BASE_URL's host and ALLOWED_HOSTS pass, as does a request without Host", async () => {
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      'LOCALHOST',
      'tms.example.com',
      'tms.internal',
      'api:3000',
    ]) {
      const login = await send('POST', '/api/v1/user/login', { host, body: signIn(), origin: `https://${host}` });
      assert.equal(login.status, 200, `sign-in with Host ${host}: ${JSON.stringify(login.body)}`);
      assert.ok(login.body.access_token);
      const me = await send('GET', '/api/v1/user/me', { host, token });
      assert.equal(me.body.email, email, `Host ${host}`);
      const gql = await send('POST', '/api/graphql', { host, token, body: graphql });
      assert.equal(gql.status, 200, `GraphQL with Host ${host}: ${JSON.stringify(gql.body)}`);
      assert.equal((await send('GET', '/mcp-approvals', { host })).status, 200);
    }
    // HTTP/1.1 needs a Host (Node answers 400 without one); an HTTP/1.0 health check may send none, as no browser does.
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      net
        .connect(port, '127.0.0.1')
        .on('data', (chunk) => (text += chunk.toString()))
        .on('end', () => resolve(text))
        .on('error', reject)
        .write(`GET /api/v1/user/me HTTP/1.0\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    });
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.ok(answer.includes(`"email":"${email}"`));
  });

  test('ALLOWED_HOSTS takes host names only', () => {
    assert.deepEqual(loadConfig({ ALLOWED_HOSTS: 'a.example,B.example:8443,::1' }).allowedHosts, [
      'localhost',
      '127.0.0.1',
      '[::1]',
      'a.example',
      'b.example',
    ]);
    for (const bad of ['*', '*.example', 'http://a.example/path', 'user@a.example', 'a b'])
      assert.throws(() => loadConfig({ ALLOWED_HOSTS: bad }), /ALLOWED_HOSTS: must be host names/, bad);
  });
});
