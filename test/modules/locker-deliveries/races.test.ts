// Deliveries created at the same moment into one locker: each gets its own compartment, the ones left over are
// refused naming the parcel, and no two open deliveries of the locker share a code (the screen must know whose
// doors a code opens). Nothing waits on a lock of the whole locker.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lockerSuite } from '../../helpers/lockerWorld.ts';

describe('partner deliveries racing into one locker', () => {
  const suite = lockerSuite();

  test('six at once into four compartments: four made, two refused with 422, every code distinct', async () => {
    const { app, w } = suite;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        app.http.post(
          '/v1/partner-locker/deliveries',
          {
            device_id: w.b.device.code,
            parcels: [{ reference: `RACE-${i}`, size: 'M' }],
            recipient: { name: 'Ada' },
            open_mode: 'screen_code',
          },
          { token: w.provider },
        ),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 201, 201, 201, 422, 422]);
    for (const refused of answers.filter((a) => a.status === 422))
      assert.equal(refused.body.errors[0].field, 'parcels.0.size');
    const made = answers.filter((a) => a.status === 201);
    assert.equal(new Set(made.map((a) => a.body.delivery.parcels[0].grid_id)).size, 4, 'one compartment each');
    const codes = [
      ...made.map((a) => a.body.delivery_code as string),
      ...(await Promise.all(made.map((a) => w.pickupCode(a.body.delivery.id)))),
    ];
    assert.equal(new Set(codes).size, 8, 'no code twice among the open deliveries of the locker');
  });
});
