// The public AI discovery documents, generated from the catalog, checked against the shapes the clients publish,
// and the MCP servers' protected-resource metadata.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { isSpecType } from '@modelcontextprotocol/client';
import { fromJsonSchema } from '@modelcontextprotocol/server';
import { Ajv } from 'ajv';
import { CATALOG } from '../../src/modules/index.ts';
import { toolsOf } from '../../api/mcp/tools.ts';
import { agentCatalog } from '../../api/mcp/developerOperations.ts';
import { buildSchema } from '../../api/graphql/schema.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

/** Tool names as OpenAI's and Anthropic's APIs accept them. */
const NAME = { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' };
const OBJECT_SCHEMA = { type: 'object', required: ['type'], properties: { type: { const: 'object' } } };
/** Each client's tool declaration, as its API reference gives it. */
const SHAPES = {
  openai: {
    type: 'object',
    required: ['type', 'function'],
    additionalProperties: false,
    properties: {
      type: { const: 'function' },
      function: {
        type: 'object',
        required: ['name', 'parameters'],
        additionalProperties: false,
        properties: { name: NAME, description: { type: 'string' }, parameters: OBJECT_SCHEMA },
      },
    },
  },
  anthropic: {
    type: 'object',
    required: ['name', 'input_schema'],
    additionalProperties: false,
    properties: { name: NAME, description: { type: 'string' }, input_schema: OBJECT_SCHEMA },
  },
  langchain: {
    type: 'object',
    required: ['name', 'description', 'schema'],
    additionalProperties: false,
    properties: { name: NAME, description: { type: 'string' }, schema: OBJECT_SCHEMA },
  },
};

describe('AI discovery', () => {
  let app: TestApp;
  const get = async (path: string) => {
    const res = await fetch(`${app.url}${path}`);
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      text: await res.text(),
      headers: res.headers,
    };
  };
  const json = async (path: string) => JSON.parse((await get(path)).text);

  before(async () => {
    app = await startApp({}, { worker: false });
  });
  after(() => app.running.close());

  test("every tool's input and output schema is accepted by the JSON Schema validator the MCP SDK uses", () => {
    for (const server of ['user', 'developer'] as const) {
      for (const tool of toolsOf(CATALOG, server)) {
        assert.doesNotThrow(() => fromJsonSchema(tool.inputSchema as never), `${server} ${tool.name} input`);
        if (tool.outputSchema)
          assert.doesNotThrow(() => fromJsonSchema(tool.outputSchema as never), `${server} ${tool.name} output`);
      }
    }
  });

  test("each format is that client's own tool shape; the MCP one passes the SDK's Tool type; a bad format is refused naming it", async () => {
    const ajv = new Ajv({ strict: false });
    for (const [format, shape] of Object.entries(SHAPES)) {
      const validate = ajv.compile(shape);
      for (const server of ['user', 'developer']) {
        const doc = await json(`/api/ai/tools?format=${format}&server=${server}`);
        assert.ok(doc.tools.length > 0);
        for (const tool of doc.tools) assert.ok(validate(tool), `${format} ${JSON.stringify(validate.errors)}`);
      }
    }
    const mcp = await json('/api/ai/tools?format=mcp');
    for (const tool of mcp.tools) assert.ok(isSpecType.Tool(tool), tool.name);
    assert.deepEqual(
      mcp.tools.map((t: { name: string }) => t.name),
      toolsOf(agentCatalog(CATALOG, app.url, 'test', () => buildSchema(CATALOG)).operations, 'user').map((t) => t.name),
    );
    const bad = await fetch(`${app.url}/api/ai/tools?format=gemini`, { headers: { 'accept-language': 'de' } });
    assert.equal(bad.status, 422);
    assert.deepEqual(((await bad.json()) as { errors: unknown }).errors, [
      { field: 'format', message: 'Muss einer dieser Werte sein: openai, anthropic, mcp, langchain.' },
    ]);
  });

  test('the manifest, llms.txt, OpenAPI, GraphQL hints and capabilities name the same tools', async () => {
    const manifest = await json('/api/.well-known/ai-tools.json');
    assert.deepEqual(
      manifest.servers.map((s: { name: string }) => s.name),
      ['service', 'service-developer'],
    );
    const names = manifest.servers[0].tools.map((t: { name: string }) => t.name);
    assert.ok(names.includes('track_package') && names.includes('get_orders'));
    const llms = await get('/llms.txt');
    assert.match(llms.type, /^text\/plain/);
    assert.ok(
      llms.text.startsWith('# Transport Management Service') &&
        names.every((n: string) => llms.text.includes(`- ${n}: `)),
    );
    const openapi = await json('/api/ai/tools/openapi');
    assert.deepEqual(openapi.paths['/v1/orders'].get['x-ai-tools'], { user: 'get_orders' });
    assert.equal(openapi.paths['/v1/webhook-settings'].put['x-ai-confirm'], true);
    const graphql = await json('/api/ai/tools/graphql');
    assert.deepEqual(graphql.operations.find((o: { name: string }) => o.name === 'orders').aiHints, {
      tool: 'get_orders',
      scope: 'orders:read',
      risk: 'low',
      confirm: false,
      read_only: true,
    });
    const capabilities = await json('/api/ai/capabilities');
    assert.ok(
      capabilities.servers[0].categories
        .find((c: { scope: string }) => c.scope === 'public')
        .tools.includes('track_package'),
    );
  });

  test('the skill file is versioned by the hash of what is served', async () => {
    const skill = await get('/api/ai-skill');
    assert.match(skill.type, /^text\/markdown/);
    assert.match(skill.text, /X-MCP-Profile/);
    const version = await json('/api/ai-skill/version');
    assert.equal(version.hash, `sha256:${createHash('sha256').update(skill.text).digest('hex')}`);
    assert.equal(version.download_url, `${app.config.publicBaseUrl}/api/ai-skill`);
  });

  test('RFC 9728 metadata for each server; a dead token on an MCP endpoint answers 401 pointing to it', async () => {
    const meta = await json('/.well-known/oauth-protected-resource');
    assert.equal(meta.resource, `${app.config.publicBaseUrl}/mcp`);
    assert.ok(meta.authorization_servers.length > 0 && meta.scopes_supported.includes('orders:read'));
    assert.equal(
      (await json('/.well-known/oauth-protected-resource/mcp/developer')).resource,
      `${app.config.publicBaseUrl}/mcp/developer`,
    );
    const res = await fetch(`${app.url}/mcp/developer`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer not-a-live-token-at-all',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    assert.equal(res.status, 401);
    assert.equal(
      res.headers.get('www-authenticate'),
      `Bearer error="invalid_token", resource_metadata="${app.config.publicBaseUrl}/.well-known/oauth-protected-resource/mcp/developer"`,
    );
  });
});
