import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toE164 } from '../../../src/modules/sms/index.ts';

test('phone numbers: national ones read in the region, international ones anywhere, anything else refused', () => {
  assert.equal(toE164('601 123 456', 'CZ'), '+420601123456');
  assert.equal(toE164('+420 601-123-456', 'DE'), '+420601123456');
  assert.equal(toE164('00420601123456', 'CZ'), '+420601123456');
  assert.equal(toE164('(201) 555-0123', 'US'), '+12015550123');
  assert.equal(toE164('030 1234567', 'DE'), '+49301234567');
  // No region (ZZ) or an unknown one: international numbers only.
  assert.equal(toE164('+420601123456', 'ZZ'), '+420601123456');
  assert.equal(toE164('601123456', 'ZZ'), null);
  assert.equal(toE164('601123456', 'XX'), null);
  for (const bad of ['123', '601 123 45', 'call me', '+1 555 0100', '', '6'.repeat(41)])
    assert.equal(toE164(bad, 'CZ'), null, bad);
});
