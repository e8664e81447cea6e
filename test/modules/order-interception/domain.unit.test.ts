// The interception's rules (docs/orders.md, "Interception"): which statuses can be intercepted and why not, the
// status each ending step leaves, and the operation type of each step by channel.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ORDER_STATUSES, ORDER_STATUS } from '../../../src/modules/orders/index.ts';
import {
  appliedOperation,
  endOperation,
  INTERCEPTABLE_STATUSES,
  rejectionOf,
  requestRejection,
  statusAfterOutcome,
  statusAfterRelease,
} from '../../../src/modules/order-interception/domain.ts';

test('every status is either interceptable or rejected with a reason', () => {
  for (const s of ORDER_STATUSES) {
    const reason = rejectionOf(s.id);
    assert.equal(reason === null, INTERCEPTABLE_STATUSES.has(s.id), s.code);
  }
  assert.equal(rejectionOf(ORDER_STATUS.DELIVERED), 'delivered');
  assert.equal(rejectionOf(ORDER_STATUS.INTERCEPTED), 'already_intercepted');
  assert.equal(rejectionOf(ORDER_STATUS.HOLD), 'not_in_transit');
  assert.equal(rejectionOf(ORDER_STATUS.CARRIER_ON_THE_WAY), null);
});

test("a provider-held order is the provider's to stop, and a cancellation waiting for its provider decides first", () => {
  const onTheWay = { statusId: ORDER_STATUS.CARRIER_ON_THE_WAY, carrierProviderId: null, cancelPending: false };
  assert.equal(requestRejection(onTheWay), null);
  assert.equal(requestRejection({ ...onTheWay, carrierProviderId: 9 }), 'carrier_held');
  assert.equal(requestRejection({ ...onTheWay, carrierProviderId: 9, cancelPending: true }), 'cancel_pending');
  // A status that ends the order says so first.
  assert.equal(
    requestRejection({ statusId: ORDER_STATUS.DELIVERED, carrierProviderId: 9, cancelPending: false }),
    'delivered',
  );
});

test('the statuses an ending step leaves', () => {
  assert.deepEqual((['return_to_sender', 'hold_at_warehouse', 'redeliver'] as const).map(statusAfterOutcome), [
    ORDER_STATUS.RETURNED_TO_SENDER,
    ORDER_STATUS.HOLD,
    ORDER_STATUS.AT_WAREHOUSE,
  ]);
  assert.equal(statusAfterRelease(ORDER_STATUS.ON_THE_WAY, false, false), ORDER_STATUS.ON_THE_WAY);
  assert.equal(statusAfterRelease(ORDER_STATUS.ON_THE_WAY, true, false), ORDER_STATUS.AT_WAREHOUSE);
  assert.equal(statusAfterRelease(ORDER_STATUS.CARRIER_ON_THE_WAY, true, true), ORDER_STATUS.CARRIER_AT_WAREHOUSE);
});

test('operation types: back office 3043-3045, API 6012-6014, a failure 3047', () => {
  assert.deepEqual((['back_office', 'api', 'customer'] as const).map(appliedOperation), [3043, 6012, 6012]);
  assert.equal(endOperation('outcome_executed', 'back_office', 'back_office'), 3044);
  // An interception a customer asked for is carried out as an API one, though the staff execute it.
  assert.equal(endOperation('outcome_executed', 'customer', 'back_office'), 6013);
  // A withdrawal takes the channel of who withdraws.
  assert.equal(endOperation('withdrawn', 'customer', 'back_office'), 3045);
  assert.equal(endOperation('withdrawn', 'back_office', 'customer'), 6014);
  assert.equal(endOperation('failed', 'customer', null), 3047);
});
