/**
 * The reference's examples cannot lie: for every operation, the request its OpenAPI entry shows (parameters and body
 * together) is read by the operation's own input schema, and the answer it shows by its output schema; every example
 * of both documents also validates against the JSON Schema printed next to it, as Spectral's example rules check.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { CATALOG } from '../../src/modules/index.ts';
import { buildOpenApi } from '../../api/openapi.ts';
import { examplesOf } from '../../api/examples.ts';
import { parseInput } from '../../src/platform/catalog/validate.ts';
import { buildAsyncApiDocument } from '../../src/modules/webhooks/asyncapi.ts';
import { exampleOf, fromSimplePattern } from '../../src/platform/schemaExample.ts';
import { ROUTING } from '../helpers/events.ts';

type Json = Record<string, any>;
const doc = buildOpenApi(CATALOG, 'https://tms.example') as Json;
const entries = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, entry]) => ({ path, method, entry })),
);
const byName = new Map(CATALOG.map((op) => [op.name, op]));

/** A validator of one schema of the document, its `#/components/...` references resolved against the document. */
function openApiValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
  addFormats.default(ajv);
  return (schema: object, value: unknown) => {
    const valid = ajv.validate({ ...schema, components: doc.components }, value);
    return valid ? null : JSON.stringify(ajv.errors);
  };
}

describe('the examples of the OpenAPI document', () => {
  test('every REST operation shows a request (when it reads a body) and an answer, in the document', () => {
    assert.ok(entries.length > 90);
    for (const { entry } of entries) {
      const op = byName.get(entry.operationId)!;
      const success = Object.entries(entry.responses as Json).find(([status]) => status.startsWith('2'))![1];
      const examples = Object.values(success.content as Json).filter((c) => 'example' in c);
      assert.equal(examples.length, 1, `${op.name}: success example`);
      if (entry.requestBody)
        assert.ok(
          Object.values(entry.requestBody.content as Json).some((c) => 'example' in c),
          `${op.name}: request example`,
        );
      for (const p of entry.parameters ?? []) assert.ok('example' in p, `${op.name}: parameter ${p.name} example`);
      for (const [status, response] of Object.entries(entry.responses as Json)) {
        if (Number(status) < 400) continue;
        const { example } = response.content['application/json'];
        const codes = response.content['application/json'].schema.allOf[1].properties.code.enum as string[];
        assert.equal(example.result, false);
        assert.ok(codes.includes(example.code), `${op.name} ${status}: ${example.code}`);
        assert.equal(typeof example.message, 'string');
        assert.doesNotMatch(example.message, /\{\w+\}/, `${op.name} ${status}: unfilled message`);
      }
    }
  });

  test("the request each shows, parameters and body together, is read by the operation's input schema", () => {
    for (const { entry } of entries) {
      const op = byName.get(entry.operationId)!;
      const request = {
        ...Object.fromEntries(((entry.parameters ?? []) as Json[]).map((p) => [p.name, p.example])),
        // A raw body (a file) is no part of the input.
        ...entry.requestBody?.content['application/json']?.example,
      };
      // Parameters arrive as text: the input reads them as the route does.
      const asText = Object.fromEntries(
        Object.entries(request).map(([k, v]) =>
          ((entry.parameters ?? []) as Json[]).some((p) => p.name === k) && typeof v === 'number'
            ? [k, String(v)]
            : [k, v],
        ),
      );
      for (const input of [request, asText])
        assert.doesNotThrow(
          () => parseInput(op.input, input),
          (err: any) =>
            assert.fail(`${op.name}: ${JSON.stringify(input)} ${JSON.stringify(err.fields ?? err.message)}`),
        );
    }
  });

  test("the answer each shows is read by the operation's output schema", () => {
    for (const { entry } of entries) {
      const op = byName.get(entry.operationId)!;
      const success = Object.entries(entry.responses as Json).find(([status]) => status.startsWith('2'))![1];
      const { example } = Object.values(success.content as Json).find((c) => 'example' in c);
      const parsed = op.output.safeParse(example);
      assert.ok(parsed.success, `${op.name}: ${JSON.stringify(parsed.error?.issues)}`);
    }
  });

  test('operations outside REST have examples their schemas read too', () => {
    for (const op of CATALOG) {
      const { input, output } = examplesOf(op);
      assert.doesNotThrow(() => parseInput(op.input, input), op.name);
      assert.ok(op.output.safeParse(output).success, op.name);
    }
  });

  test('every example validates against the JSON Schema printed next to it', () => {
    const invalid = openApiValidator();
    const problems: string[] = [];
    const check = (where: string, schema: object, value: unknown) => {
      const error = invalid(schema, value);
      if (error) problems.push(`${where}: ${error}`);
    };
    for (const { path, method, entry } of entries) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of entry.parameters ?? []) check(`${at} ${p.name}`, p.schema, p.example);
      const body = entry.requestBody?.content['application/json'];
      if (body) check(`${at} body`, body.schema, body.example);
      for (const [status, response] of Object.entries(entry.responses as Json))
        for (const [type, content] of Object.entries((response.content ?? {}) as Json))
          if ('example' in content) check(`${at} ${status} ${type}`, content.schema, content.example);
    }
    assert.deepEqual(problems, []);
  });
});

describe('the examples of the AsyncAPI webhook catalog', () => {
  const asyncapi = buildAsyncApiDocument(ROUTING, 'https://tms.example') as Json;
  const messages = Object.entries(asyncapi.components.messages as Record<string, Json>);

  test('every event has an example payload that its payload schema accepts', () => {
    assert.ok(messages.length > 40);
    const ajv = new Ajv({ strict: false, allErrors: true, allowUnionTypes: true });
    addFormats.default(ajv);
    for (const [name, message] of messages) {
      assert.equal(message.examples?.length, 1, name);
      const validate = ajv.compile(asyncapi.components.schemas[name]);
      assert.ok(validate(message.examples[0].payload), `${name}: ${JSON.stringify(validate.errors)}`);
    }
  });
});

describe('examples written from a JSON Schema', () => {
  test("take a field's own example, then its constant, default, first value, format and bounds", () => {
    assert.deepEqual(
      exampleOf({
        type: 'object',
        required: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'],
        properties: {
          a: { type: 'string', examples: ['mine'], default: 'other' },
          b: { const: 7 },
          c: { type: 'integer', default: 50, minimum: 1 },
          d: { type: 'string', enum: ['x', 'y'] },
          e: { type: 'string', format: 'date' },
          f: { type: 'integer', minimum: 3, maximum: 9 },
          g: { type: 'array', items: { anyOf: [{ type: 'null' }, { type: 'boolean' }] } },
          h: { type: 'string', minLength: 8 },
          i: { $ref: '#/$defs/leaf' },
          optional: { type: 'string' },
          shown: { type: 'string', examples: ['seen'] },
        },
        $defs: { leaf: { type: 'number', exclusiveMinimum: 0, maximum: 0.5 } },
      }),
      { a: 'mine', b: 7, c: 50, d: 'x', e: '2025-03-12', f: 3, g: [true], h: 'stringxx', i: 0.5, shown: 'seen' },
    );
  });

  test('write a string for a simple pattern, and nothing for one they cannot read', () => {
    assert.equal(fromSimplePattern('^[A-Za-z]{2}$'), 'AA');
    assert.equal(fromSimplePattern('^TPA-\\d{8}$'), 'TPA-11111111');
    assert.equal(fromSimplePattern('^(ab|cd)+x?$'), 'ab');
    assert.equal(fromSimplePattern('^(?=a)b$'), undefined);
  });
});
