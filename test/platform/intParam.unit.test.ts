// Integer parameters as query and path strings carry them (src/platform/catalog/schemas.ts, intParam).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { intParam } from '../../src/platform/catalog/schemas.ts';

test('an integer parameter reads digits, and a zero fraction, which JSON Schema counts an integer', () => {
  const id = intParam();
  assert.equal(id.parse('3427'), 3427);
  assert.equal(id.parse('3427.0'), 3427);
  assert.equal(id.parse(42), 42);
  for (const bad of ['3427.5', '1e3', ' 7', '0', '-3', 'None', true, [5]])
    assert.equal(id.safeParse(bad).success, false, String(bad));
});
