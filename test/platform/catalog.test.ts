import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CATALOG, TAGS } from '../../src/modules/index.ts';
import { koaPath } from '../../api/rest.ts';
import { RATE_LIMIT_SUBJECT } from '../../src/platform/rateLimits.ts';
import { DiagnosticSeverity, Parser } from '@asyncapi/parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { errorCodeDefinition } from '../../src/platform/errorCodes.ts';
import { buildAsyncApiDocument } from '../../src/modules/webhooks/asyncapi.ts';
import { ROUTING } from '../helpers/events.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { NOT_BLANK_PATTERN } from '../../src/platform/catalog/text.ts';

/** Fills path parameters with an id nobody has, so a reachable route answers 4xx from the operation, not 404 from routing. */
const concrete = (path: string) => path.replace(/\{\w+\}/g, '2000000000');

describe('the operation catalog is reachable on every surface it names', () => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startApp({}, { worker: false });
    token = await app.login('admin@demo.example');
  });
  after(() => app.running.close());

  test('names, REST routes and GraphQL fields are unique', () => {
    const names = CATALOG.map((op) => op.name);
    assert.equal(new Set(names).size, names.length);
    const routes = CATALOG.filter((op) => op.rest).map((op) => `${op.rest!.method} ${koaPath(op.rest!.path)}`);
    assert.equal(new Set(routes).size, routes.length);
    const fields = CATALOG.filter((op) => op.graphql).map((op) => op.graphql!.name);
    assert.equal(new Set(fields).size, fields.length);
  });

  test('every public operation counts against a per-address limit; a per-credential limit sits only where a token is needed', () => {
    for (const op of CATALOG) {
      if (op.roles === 'public') assert.equal(op.limit && RATE_LIMIT_SUBJECT[op.limit], 'address', op.name);
      else if (op.limit) assert.equal(RATE_LIMIT_SUBJECT[op.limit], 'credential', op.name);
    }
  });

  test('every REST route answers from its operation (never a routing 404/405)', async () => {
    for (const op of CATALOG) {
      if (!op.rest) continue;
      const res = await fetch(`${app.url}/api${concrete(op.rest.path)}`, {
        method: op.rest.method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(op.rest.method !== 'GET' && { 'content-type': 'application/json' }),
        },
        body: op.rest.method === 'GET' ? undefined : '{"__probe": true}',
      });
      const body = (await res.json()) as { code?: string };
      assert.notEqual(body.code, 'ROUTE_NOT_FOUND', op.name);
      assert.notEqual(body.code, 'METHOD_NOT_ALLOWED', op.name);
    }
  });

  test('every GraphQL field exists in the schema with its kind', async () => {
    const res = await app.http.graphql(
      '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }',
    );
    const queries = new Set(res.body.data.__schema.queryType.fields.map((f: { name: string }) => f.name));
    const mutations = new Set(res.body.data.__schema.mutationType.fields.map((f: { name: string }) => f.name));
    for (const op of CATALOG) {
      if (!op.graphql) continue;
      const kind = op.graphql.kind ?? (op.rest?.method === 'GET' ? 'query' : 'mutation');
      assert.ok((kind === 'query' ? queries : mutations).has(op.graphql.name), `${op.graphql.name} as ${kind}`);
    }
  });

  // Introspection is open to anonymous callers because of this (docs/graphql-limits.md).
  test('anonymous introspection shows no field that the public OpenAPI document does not describe', async () => {
    const res = await app.http.graphql(
      '{ __schema { queryType { fields { name description } } mutationType { fields { name description } } } }',
    );
    const openapi = (await app.http.get('/openapi.json')).body;
    const entries = Object.values(openapi.paths as Record<string, Record<string, any>>).flatMap((methods) =>
      Object.values(methods),
    );
    const described = new Map(entries.filter((e) => e['x-graphql']).map((e) => [e['x-graphql'], e.summary]));
    for (const root of ['queryType', 'mutationType']) {
      for (const field of res.body.data.__schema[root].fields)
        assert.equal(described.get(field.name), field.description, field.name);
    }
  });

  test('every GraphQL query answers through the same runner as REST', async () => {
    const me = await app.http.graphql('{ userMe { email business { code } } }', {}, { token });
    assert.deepEqual(me.body.data.userMe, { email: 'admin@demo.example', business: { code: 'DEMO' } });
    const anonymous = await app.http.graphql('{ userMe { email } }', {}, { lang: 'zh-Hant' });
    assert.equal(anonymous.body.errors[0].extensions.code, 'UNAUTHENTICATED');
    assert.equal(anonymous.body.errors[0].message, '需要身分驗證：請傳送有效的 Bearer 權杖。');
    const invalid = await app.http.graphql('{ orders(per_page: 500) { total } }', {}, { token });
    assert.equal(invalid.body.errors[0].extensions.code, 'VALIDATION_FAILED');
    assert.equal(invalid.body.errors[0].extensions.errors[0].field, 'per_page');
  });

  test('the OpenAPI document describes every REST operation', async () => {
    const res = await app.http.get('/openapi.json');
    assert.equal(res.body.openapi, '3.1.0');
    const { title, version, description, contact, license } = res.body.info;
    assert.deepEqual({ title, version }, { title: 'Transport Management System', version: '1.0' });
    assert.ok(description.includes('Authorization: Bearer'), 'the introduction says how to call');
    assert.equal(contact.email, app.config.apiContactEmail);
    assert.equal(contact.url, `${app.config.publicBaseUrl}/api/docs`);
    assert.ok(license.name);
    // Every family is declared, with the description the module that owns it gives, in the order readers meet them.
    const families = [...new Set(CATALOG.filter((op) => op.rest).map((op) => op.tag))];
    assert.deepEqual(
      res.body.tags,
      families.map((name) => ({ name, description: TAGS[name] })),
    );
    assert.ok(
      families.every((name) => TAGS[name]),
      'every family declares its tag',
    );
    for (const op of CATALOG) {
      if (!op.rest) continue;
      const entry = res.body.paths[op.rest.path]?.[op.rest.method.toLowerCase()];
      assert.ok(entry, `${op.rest.method} ${op.rest.path}`);
      assert.equal(entry.operationId, op.name);
      // An answer that is a file (rest.rawAnswer) is described by its media types.
      const mediaType = op.rest.rawAnswer?.mediaTypes[0] ?? 'application/json';
      assert.ok(entry.responses[String(op.rest.status ?? 200)].content[mediaType].schema);
    }
    // A read with several representations lists each media type it can answer.
    const timeline = res.body.paths['/v1/otep/trackings/{tracking_number}'].get.responses['200'].content;
    assert.deepEqual(Object.keys(timeline).sort(), ['application/json', 'application/ld+json']);
    const number = res.body.paths['/v1/tracking/{number}'].get.parameters[0].schema;
    assert.equal(number.pattern, NOT_BLANK_PATTERN, 'a tracking number of blanks only is none');
    assert.ok(res.body.paths['/v1/otep/credentials'].post.responses['409'], 'the key limit');
  });

  test("each failure status of each operation lists its codes, each of them that status's code", async () => {
    const res = await app.http.get('/openapi.json');
    const codesOf = (response: any): string[] =>
      response.content['application/json'].schema.allOf[1].properties.code.enum;
    for (const op of CATALOG) {
      if (!op.rest) continue;
      const responses = res.body.paths[op.rest.path][op.rest.method.toLowerCase()].responses;
      for (const [status, response] of Object.entries<any>(responses)) {
        if (Number(status) < 400) continue;
        for (const code of codesOf(response))
          assert.equal(errorCodeDefinition(code).status, Number(status), `${op.name} ${status} ${code}`);
      }
      assert.ok(codesOf(responses['422']).includes('VALIDATION_FAILED'), op.name);
    }
    const credentials = res.body.paths['/v1/otep/credentials'].post.responses;
    assert.deepEqual(codesOf(credentials['409']), ['TOO_MANY_KEYS']);
    assert.deepEqual(codesOf(credentials['400']), ['MALFORMED_JSON'], 'the body is the only cause of a 400 there');
    const release = res.body.paths['/v1/broker-order-assignments/release'].post.responses;
    assert.deepEqual(codesOf(release['400']).sort(), ['MALFORMED_JSON', 'NOT_ASSIGNED_TO_YOU', 'ORDER_ON_ROUTE']);
    assert.deepEqual(codesOf(release['503']), ['MODULE_UNAVAILABLE']);
  });

  test('the OpenAPI document passes an independent OpenAPI 3.1 validator', async () => {
    const res = await app.http.get('/openapi.json');
    const result = await new Validator().validate(res.body);
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
    const broken = await new Validator().validate({ ...res.body, paths: { '/x': { get: { responses: 'none' } } } });
    assert.equal(broken.valid, false, 'the validator rejects a broken document');
  });

  test('the AsyncAPI webhook catalog is served publicly and parses without errors', async () => {
    const res = await app.http.get('/asyncapi-webhooks.json');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    assert.deepEqual(res.body, buildAsyncApiDocument(ROUTING, app.config.publicBaseUrl, app.config.apiContactEmail));
    assert.equal((res.body as { info: { contact: { email: string } } }).info.contact.email, app.config.apiContactEmail);
    const { diagnostics } = await new Parser().parse(JSON.stringify(res.body));
    assert.deepEqual(
      diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error),
      [],
    );
  });
});
