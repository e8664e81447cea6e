import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assignRefusal } from '../../src/modules/assignments/domain.ts';
import { isTerminal, nextStatus } from '../../src/modules/device-orders/domain.ts';
import { ORDER_STATUS } from '../../src/modules/orders/domain.ts';
import { hashPassword, hashPickupCode, verifyPassword, verifyPickupCode } from '../../src/platform/secrets.ts';

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
  const code = hashPickupCode('123456');
  assert.notEqual(code, hashPickupCode('123456'), 'salted');
  assert.equal(verifyPickupCode('123456', code), true);
  assert.equal(verifyPickupCode('123457', code), false);
});
