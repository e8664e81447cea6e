// A fault inside the MCP SDK answers a bare 500 and keeps its cause to the SDK's error hooks: the HTTP side logs it
// with the cause, once per request; the requests the SDK refuses (4xx) are the client's mistakes and are not logged.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { servedBySdk } from '../../api/mcp/sdkErrors.ts';
import { mcpHandlers } from '../../api/mcp/server.ts';
import { CATALOG } from '../../src/modules/index.ts';

interface LogLine {
  level: number;
  msg: string;
  err?: { message: string; stack: string };
}

const logged: LogLine[] = [];
const log = pino({ level: 'debug' }, { write: (line: string) => logged.push(JSON.parse(line) as LogLine) });
const handlers = mcpHandlers(CATALOG, '0.0.0');
/** The parsed body the next request hands the SDK, as the JSON body middleware would. */
let parsedBody: unknown;
const server = http.createServer(
  (req, res) => void servedBySdk(log, res, () => handlers.user.handle(req, res, parsedBody)),
);
let url = '';

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function post(body: unknown, contentType = 'application/json') {
  parsedBody = body;
  logged.length = 0;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType, accept: 'application/json, text/event-stream' },
    body: '{}',
  });
  return { status: res.status, text: await res.text() };
}

test('a failure inside the SDK answers 500 and is logged once, at error level, with its cause', async () => {
  // No JSON parser makes a BigInt: it stands for any fault of the SDK's own (here, serialising the body again).
  const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { n: 1n } });
  assert.equal(res.status, 500, res.text);
  assert.equal(JSON.parse(res.text).error.code, -32603);
  assert.deepEqual(
    logged.map((l) => [l.level, l.msg]),
    [[50, 'MCP request failed in the SDK']],
  );
  assert.match(logged[0]!.err!.message, /BigInt/);
  assert.ok(logged[0]!.err!.stack.length > 0, 'the stack is there to follow');
});

test('a request the SDK refuses is answered in full and not logged', async () => {
  const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'text/plain');
  assert.equal(res.status, 415, res.text);
  assert.deepEqual(logged, []);
});
