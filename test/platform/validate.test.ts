import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { pageParams } from '../../src/platform/catalog/schemas.ts';
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
  assert.deepEqual(fieldsOf(z.object({ scheduled_date: z.string() }), { scheduled_date: true }), [['scheduled_date', 'field.invalid_type']]);
  assert.deepEqual(fieldsOf(z.object({ scheduled_date: z.string() }), {}), [['scheduled_date', 'field.required']]);
});
