/**
 * The contract lint (.spectral.yaml, scripts/lintContract.ts) refuses each convention it keeps: the documents as
 * built pass, and a copy of them that breaks every convention once draws each rule at the path that breaks it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildOpenApi } from '../../api/openapi.ts';
import { CATALOG } from '../../src/modules/index.ts';
import { contractDocuments, lintContract } from '../../scripts/lintContract.ts';

type Json = Record<string, any>;

test('the documents as the API serves them pass; each convention broken once is found where it is broken', () => {
  const served = contractDocuments();
  const asServed = lintContract(served).filter((f) => f.severity <= 1);
  assert.deepEqual(
    asServed.map((f) => `${f.file} ${f.code} ${f.path.join('.')}`),
    [],
    'the served documents pass',
  );

  // The same documents, broken once per convention. A tag no module declares: build without the modules' tags.
  const openapi = structuredClone(buildOpenApi(CATALOG, 'https://tms.example', { tags: {} })) as Json;
  // Only the operation broken is linted again: the whole document's lint is above, and it is most of the time.
  openapi.paths = { '/v1/user/login': openapi.paths['/v1/user/login'] };
  const login = openapi.paths['/v1/user/login'].post;
  login.description = login.summary; // as api/openapi.ts writes an operation without a catalog description
  delete login.requestBody.content['application/json'].example;
  login.requestBody.content['application/json'].schema.properties.rememberMe = { type: 'boolean' };
  const [failure] = Object.keys(login.responses).filter((s) => s.startsWith('4'));
  login.responses[failure!].content['application/json'].schema = { $ref: '#/components/schemas/Error' };
  const asyncapi = structuredClone(served['asyncapi-webhooks.json']) as Json;
  const created = asyncapi.components.messages['order.created'];
  delete created.description;
  delete created.examples;
  asyncapi.components.schemas['order.created'].properties.orderId = { type: 'string' };

  const found = lintContract({ 'openapi.json': openapi, 'asyncapi-webhooks.json': asyncapi }).map(
    (f) => `${f.file} ${f.code} ${f.path.join('.')}`,
  );
  const op = 'openapi.json';
  const at = 'paths./v1/user/login.post';
  for (const expected of [
    `${op} operation-tag-defined ${at}.tags.0`,
    `${op} openapi-tags tags`,
    `${op} tms-operation-described ${at}.description`,
    `${op} tms-operation-examples ${at}.requestBody.content`,
    `${op} tms-snake-case-properties ${at}.requestBody.content.application/json.schema.properties.rememberMe`,
    `${op} tms-error-codes-listed ${at}.responses.${failure}.content.application/json.schema`,
    'asyncapi-webhooks.json tms-event-description components.messages.order.created',
    'asyncapi-webhooks.json tms-event-example components.messages.order.created',
    'asyncapi-webhooks.json tms-snake-case-payloads components.schemas.order.created.properties.orderId',
  ])
    assert.ok(found.includes(expected), `${expected}\nnot in:\n${found.join('\n')}`);
});
