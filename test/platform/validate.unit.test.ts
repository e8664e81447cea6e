import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { z } from 'zod';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { pageParams, timeParam } from '../../src/platform/catalog/schemas.ts';
import {
  isSafeText,
  NOT_BLANK_PATTERN,
  notBlankRule,
  safeJsonSchema,
  unsafeTextFields,
  withTextRule,
} from '../../src/platform/catalog/text.ts';
import { parseInput } from '../../src/platform/catalog/validate.ts';
import { AppError } from '../../src/platform/errors.ts';

const fieldsOf = (schema: z.ZodType, raw: unknown) => {
  try {
    parseInput(schema, raw);
  } catch (err) {
    if (err instanceof AppError) return err.fields?.map((f) => [f.field, f.key]);
  }
  return [];
};

test('a value of the wrong type is reported as such, not as missing', () => {
  const list = z.object({ ...pageParams }).strict();
  assert.deepEqual(fieldsOf(list, { page: 'abc' }), [['page', 'field.invalid_type']]);
  assert.deepEqual(fieldsOf(list, { page: '1.5' }), [['page', 'field.invalid_type']]);
  assert.deepEqual(fieldsOf(list, { per_page: ['1', '2'] }), [['per_page', 'field.invalid_type']]);
  assert.deepEqual(fieldsOf(z.object({ scheduled_date: z.string() }), { scheduled_date: true }), [
    ['scheduled_date', 'field.invalid_type'],
  ]);
  assert.deepEqual(fieldsOf(z.object({ scheduled_date: z.string() }), {}), [['scheduled_date', 'field.required']]);
});

test('the text rule and its published pattern agree on every Unicode string; a lone surrogate, which is no Unicode text, the runner refuses', () => {
  const schema = z
    .object({
      name: z.string().max(50),
      code: z.string().regex(/^[A-Z\u0000]+$/),
      tags: z.record(z.string(), z.string()),
      when: timeParam(),
    })
    .strict();
  const published = withTextRule(z.toJSONSchema(schema, { io: 'input' }));
  const validate = new Ajv2020({ strict: false }).compile(published);
  const cases: [string, boolean][] = [
    ['plain', true],
    ['tab\there, line\r\nbreaks', true],
    ['📦 parcel', true],
    ['', true],
    ['A\u0000B', false],
    ['bell\u0007', false],
    ['del\u007f', false],
  ];
  for (const text of ['lone \ud800', 'lone \udc00 low', '📦'.slice(0, 1)]) {
    assert.equal(text.isWellFormed(), false);
    assert.equal(isSafeText(text), false, JSON.stringify(text));
    assert.deepEqual(
      unsafeTextFields({ name: text }).map((f) => f.field),
      ['name'],
    );
  }
  for (const [text, ok] of cases) {
    assert.equal(isSafeText(text), ok, JSON.stringify(text));
    assert.equal(
      validate({ name: text, code: 'A', tags: {}, when: '2026-01-01T00:00:00Z' }),
      ok,
      `value ${JSON.stringify(text)}`,
    );
    assert.equal(
      validate({ name: 'x', code: 'A', tags: { [text]: 'x' }, when: '2026-01-01T00:00:00Z' }),
      ok,
      `key ${JSON.stringify(text)}`,
    );
    assert.deepEqual(
      unsafeTextFields({ name: text, tags: { [text]: 'x' } }).map((f) => f.field),
      ok ? [] : ['name', `tags.${text}`],
    );
  }
  // A field's own pattern is kept beside the rule: a NUL its pattern allows is still refused.
  assert.equal(validate({ name: 'x', code: 'A\u0000', tags: {}, when: '2026-01-01T00:00:00Z' }), false);
  assert.equal(
    validate({ name: 'x', code: 'A', tags: {}, when: '0000-01-01T00:00:00Z' }),
    false,
    'year 0 is outside the published bound',
  );
  assert.deepEqual(fieldsOf(schema, { name: 'x', code: 'A', tags: {}, when: '0000-01-01T00:00:00Z' }), [
    ['when', 'field.time_out_of_range'],
  ]);
});

test('where a schema takes any JSON, the published schema states the text rule at every depth, as the runner applies it', () => {
  const schema = z.object({ events: z.array(z.unknown()).max(10), extra: z.record(z.string(), z.unknown()) });
  const ref = '#/components/schemas/SafeJson';
  const published = {
    ...withTextRule(z.toJSONSchema(schema, { io: 'input' }), ref),
    components: { schemas: { SafeJson: safeJsonSchema(ref) } },
  };
  const validate = new Ajv2020({ strict: false }).compile(published);
  const bodies: unknown[] = [
    { events: [{ a: [1, 'two', { deep: ['x'] }] }], extra: { k: null }, unknown: { nested: true } },
    { events: [['x\u0016']], extra: {} },
    { events: [{ 'key\u0001': 1 }], extra: {} },
    { events: [], extra: { k: { l: 'del\u007f' } } },
    { events: [], extra: {}, 'undeclared\u0000': 1 },
    { events: [], extra: {}, undeclared: { deeper: [['bell\u0007']] } },
  ];
  for (const body of bodies) {
    assert.equal(validate(body), unsafeTextFields(body).length === 0, JSON.stringify(body));
  }
  assert.equal(validate(bodies[0]), true);
});

test('a trimmed text that must not be empty publishes NOT_BLANK_PATTERN, which agrees with the trim on every character in JavaScript and in Python', () => {
  const schema = z
    .object({
      reason: z.string().trim().min(1).max(50),
      code: z.string().trim().length(3).optional(),
      ref: z
        .string()
        .trim()
        .min(1)
        .regex(/^[A-Z]+$/)
        .nullish(),
      note: z.string().trim().max(50),
      loose: z.string().min(1).trim(),
      name: z.string().min(1),
    })
    .strict();
  const published = z.toJSONSchema(schema, { io: 'input', override: notBlankRule }) as {
    properties: Record<string, unknown>;
  };
  /** Every pattern in a property's schema, at any depth (anyOf of a nullish field, allOf beside another pattern). */
  const patterns = (node: unknown): unknown[] =>
    node !== null && typeof node === 'object'
      ? Object.entries(node).flatMap(([k, v]) => (k === 'pattern' ? [v] : patterns(v)))
      : [];
  const ruled = Object.keys(published.properties).filter((k) =>
    patterns(published.properties[k]).includes(NOT_BLANK_PATTERN),
  );
  // Untrimmed, or no minimum, or a minimum checked before the trim: the service takes blanks there.
  assert.deepEqual(ruled, ['reason', 'code', 'ref']);
  assert.deepEqual(patterns(published.properties.ref), ['^[A-Z]+$', NOT_BLANK_PATTERN]);

  // Every code point of the Basic Multilingual Plane and the first astral one, alone and between blanks.
  const notBlank = new RegExp(NOT_BLANK_PATTERN, 'u');
  const chars: string[] = [];
  for (let cp = 0; cp <= 0x10000; cp++) if (cp < 0xd800 || cp > 0xdfff) chars.push(String.fromCodePoint(cp));
  const trimsAway = chars.filter((c) => c.trim() === '');
  assert.deepEqual(
    chars.filter((c) => notBlank.test(` ${c}\n`) === (c.trim() === '')),
    [],
    'the pattern matches exactly what the trim keeps',
  );
  const python = spawnSync(
    'python3',
    [
      '-c',
      'import re,sys,json; p=re.compile(sys.argv[1]); print(json.dumps([c for c in map(chr, range(0x10001)) if 0xD800 > ord(c) or ord(c) > 0xDFFF if not p.search(" "+c+"\\n")]))',
      NOT_BLANK_PATTERN,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(python.status, 0, python.stderr);
  assert.deepEqual(JSON.parse(python.stdout), trimsAway, "Python's re reads the pattern as JavaScript does");
  assert.deepEqual(fieldsOf(schema, { reason: '\u3000\ufeff', note: '', loose: 'x', name: 'y' }), [
    ['reason', 'field.required'],
  ]);
});
