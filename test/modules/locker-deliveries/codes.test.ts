// A new delivery or pickup code never equals a code the locker's screen already takes, under any configured key.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { codeMatches, drawLockerCode, hashLockerCode } from '../../../src/modules/locker-deliveries/codes.ts';
import { installSecretKeys } from '../../../src/platform/secretBox.ts';

test('a drawn code equal to a taken one is drawn again, whichever key hashed the taken one', () => {
  const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
  installSecretKeys([oldKey]);
  const underOld = hashLockerCode('11111111');
  installSecretKeys([newKey, oldKey]);
  const taken = [underOld, hashLockerCode('22222222')];
  const draws = ['11111111', '22222222', '33333333'];
  assert.equal(drawLockerCode(taken, () => draws.shift()!), '33333333');
  assert.equal(draws.length, 0, 'both taken codes were drawn and refused');
  assert.match(drawLockerCode(taken), /^\d{8}$/);
  assert.ok(codeMatches('11111111', underOld) && !codeMatches('11111112', underOld));
});
