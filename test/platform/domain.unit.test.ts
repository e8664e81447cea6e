import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assignRefusal } from '../../src/modules/assignments/domain.ts';
import { isTerminal, nextStatus } from '../../src/modules/device-orders/domain.ts';
import { ORDER_STATUS } from '../../src/modules/orders/domain.ts';
import { createHash, randomBytes } from 'node:crypto';
import {
  codeHashKey,
  hashPassword,
  hashPickupCode,
  verifyPassword,
  verifyPickupCode,
} from '../../src/platform/secrets.ts';

const base = { routeId: null, selfDelivery: true, statusId: ORDER_STATUS.NEW_ORDER, carrierProviderId: null };

test('assign refusals follow the specification order', () => {
  assert.equal(assignRefusal(base), null);
  assert.equal(assignRefusal({ ...base, statusId: ORDER_STATUS.AT_WAREHOUSE }), null);
  assert.equal(assignRefusal({ ...base, routeId: 1, selfDelivery: false }), 'assignment.on_route');
  assert.equal(assignRefusal({ ...base, selfDelivery: false }), 'assignment.not_self_delivery');
  assert.equal(assignRefusal({ ...base, statusId: ORDER_STATUS.DELIVERED }), 'assignment.not_assignable_status');
  assert.equal(assignRefusal({ ...base, carrierProviderId: 9 }), 'assignment.carrier_held');
});

test('device order transitions', () => {
  assert.equal(nextStatus('stored', 'overdue'), 'overdue');
  assert.equal(nextStatus('overdue', 'overdue'), null);
  assert.equal(nextStatus('stored', 'collect'), 'collected');
  assert.equal(nextStatus('overdue', 'collect'), 'collected');
  assert.equal(nextStatus('overdue', 'remove'), 'removed');
  assert.equal(nextStatus('collected', 'remove'), null);
  assert.equal(nextStatus('removed', 'collect'), null);
  assert.equal(isTerminal('stored'), false);
  assert.equal(isTerminal('collected'), true);
});

test('passwords and pickup codes are stored as salted hashes and verified', async () => {
  const hash = await hashPassword('s3cret-password');
  assert.match(hash, /^scrypt\$32768\$8\$1\$/);
  assert.ok(!hash.includes('s3cret'));
  assert.equal(await verifyPassword('s3cret-password', hash), true);
  assert.equal(await verifyPassword('s3cret-passwore', hash), false);
  const key = codeHashKey(randomBytes(32));
  const code = hashPickupCode('123456', key);
  assert.notEqual(code, hashPickupCode('123456', key), 'salted');
  assert.equal(verifyPickupCode('123456', code, key), true);
  assert.equal(verifyPickupCode('123457', code, key), false);
});

test('a pickup code hash gives nothing away without the key: a dump cannot be searched through the million codes', () => {
  const key = codeHashKey(randomBytes(32));
  const stored = hashPickupCode('042137', key);
  const [scheme, salt] = stored.split('$');
  assert.equal(scheme, 'hmac');
  const sha = (code: string) => createHash('sha256').update(`${salt}:${code}`).digest();
  const mac = Buffer.from(stored.split('$')[2]!, 'base64url');
  assert.ok(!sha('042137').equals(mac), 'not the salted digest an attacker can recompute');
  assert.equal(
    verifyPickupCode('042137', stored, codeHashKey(randomBytes(32))),
    false,
    'another key does not verify it',
  );
  // Rows written before the key are still honoured until their orders end.
  const legacy = `abc$${createHash('sha256').update('abc:123456').digest('hex')}`;
  assert.equal(verifyPickupCode('123456', legacy, key), true);
  assert.equal(verifyPickupCode('123457', legacy, key), false);
});
