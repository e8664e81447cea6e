// JSON nested without end, on MCP and REST alike: one limit (MAX_JSON_DEPTH), checked without recursion before
// anything walks the JSON by recursion. Found by the outside probe: an anonymous MCP request whose params nested
// 5,000 to 10,000 deep answered a bare 500 from the SDK (its stack overflowed serialising the body again), logged
// as a status alone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { MAX_JSON_DEPTH } from '../../src/platform/json.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

/** JSON text of objects nested `depth` levels deep, the outermost being level 1 (JSON.stringify cannot write it). */
const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  [key: string]: unknown;
}

describe('JSON nested deeper than the limit', () => {
  let app: TestApp;
  const logged: LogLine[] = [];
  let requests = 0;

  before(async () => {
    const log = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line) as LogLine) });
    app = await startApp({}, { worker: false, log });
  });
  after(() => app.running.close());

  /** A JSON-RPC message posted as an anonymous MCP client posts it, `params` written as given; answers the request id too. */
  async function mcp(path: string, method: string, params: string) {
    const requestId = `nesting-${++requests}`;
    const res = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-request-id': requestId,
      },
      body: `{"jsonrpc":"2.0","id":7,"method":"${method}","params":${params}}`,
    });
    const text = await res.text();
    const json = res.headers.get('content-type')?.startsWith('text/event-stream')
      ? text
          .split('\n')
          .find((l) => l.startsWith('data: '))!
          .slice(6)
      : text;
    return { status: res.status, body: JSON.parse(json), requestId };
  }

  test('10,000 levels in the params: a JSON-RPC Invalid Request naming the limit on both servers, and one warning with the request id, never the body', async () => {
    for (const path of ['/mcp', '/mcp/developer']) {
      for (const [method, params] of [
        ['tools/list', nested(10_000)],
        ['initialize', nested(10_000)],
        // A plain tools/call takes the direct path, which never reaches the SDK: refused all the same.
        ['tools/call', `{"name":"get_capabilities","arguments":${nested(10_000)}}`],
      ] as const) {
        const res = await mcp(path, method, params);
        const where = `${path} ${method}`;
        assert.equal(res.status, 400, `${where}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(
          { ...res.body, error: { ...res.body.error, message: undefined } },
          { jsonrpc: '2.0', id: 7, error: { code: -32600, message: undefined } },
          where,
        );
        assert.match(res.body.error.message, new RegExp(`more than ${MAX_JSON_DEPTH} levels deep`), where);
        const lines = logged.filter((l) => l.reqId === res.requestId && l.msg !== 'request');
        assert.deepEqual(
          lines.map((l) => [l.level, l.limit]),
          [[40, MAX_JSON_DEPTH]],
          `${where}: ${JSON.stringify(lines)}`,
        );
        assert.ok(!JSON.stringify(lines).includes('"a"'), `${where}: the body is not logged`);
      }
    }
  });

  test('the same limit on both surfaces: a message of exactly the limit passes it, one level more is refused, 422 on REST', async () => {
    // The message is one level above its params.
    const within = await mcp('/mcp', 'tools/list', nested(MAX_JSON_DEPTH - 1));
    assert.equal(within.status, 200, JSON.stringify(within.body));
    assert.ok(Array.isArray(within.body.result.tools));
    const over = await mcp('/mcp/developer', 'tools/list', nested(MAX_JSON_DEPTH));
    assert.deepEqual([over.status, over.body.error.code], [400, -32600]);

    // otep_validate takes any JSON and answers what it finds, anonymously.
    const ok = await app.http.post('/v1/otep/validate', undefined, { raw: nested(MAX_JSON_DEPTH) });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    for (const depth of [MAX_JSON_DEPTH + 1, 10_000]) {
      const refused = await app.http.post('/v1/otep/validate', undefined, { raw: nested(depth) });
      assert.equal(refused.status, 422, `${depth}: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.code, 'VALIDATION_FAILED');
      assert.deepEqual(refused.body.errors, [
        {
          field: '(body)',
          message: `Nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; at most ${MAX_JSON_DEPTH} are allowed.`,
        },
      ]);
    }
  });
});
