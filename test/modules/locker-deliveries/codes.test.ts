// A new delivery or pickup code never equals a code the locker's screen already takes, and a code tagged under an
// older key is still found while that key is configured.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { codeLockKey, lookupTags, tagLockerCode } from '../../../src/modules/locker-deliveries/codes.ts';
import { drawFreeCodes, findByScreenCode } from '../../../src/modules/locker-deliveries/repo/deliveries.ts';
import { installSecretKeys, secretKeys } from '../../../src/platform/secretBox.ts';
import { lockerSuite } from '../../helpers/lockerWorld.ts';

const suite = lockerSuite();

test('tags are per device and per key; every configured key is looked up', () => {
  const configured = secretKeys();
  try {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    installSecretKeys([oldKey]);
    const underOld = tagLockerCode(7, '11111111');
    assert.notEqual(tagLockerCode(8, '11111111'), underOld, 'another device, another tag');
    const lockKey = codeLockKey(7, '11111111');
    installSecretKeys([newKey, oldKey]);
    assert.notEqual(tagLockerCode(7, '11111111'), underOld, 'new codes are tagged under the new key');
    assert.ok(lookupTags(7, '11111111').includes(underOld), 'and the old tag is still looked up');
    assert.ok(Number.isInteger(lockKey) && !underOld.includes('11111111'));
  } finally {
    installSecretKeys(configured);
  }
});

test('a drawn code that an open delivery of the device holds (delivery or pickup code) is drawn again', async () => {
  const { app, w } = suite;
  const d = await w.deliver('screen_code');
  const pickup = await w.pickupCode(d.id);
  const draws = [d.code!, pickup, '33333333', '44444444'];
  const drawn = await app.em().transactional((tx) => drawFreeCodes(tx, w.b.device.id, 2, () => draws.shift()!));
  assert.deepEqual(drawn.sort(), ['33333333', '44444444']);
  assert.equal((await findByScreenCode(app.em(), w.b.device.id, d.code!))?.id, d.id);
  assert.equal(
    await findByScreenCode(app.em(), w.b.device.id, pickup),
    null,
    'a pickup code opens nothing before the deposit',
  );
});
