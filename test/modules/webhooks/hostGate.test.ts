import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HostGate } from '../../../src/modules/webhooks/hostGate.ts';

describe('HostGate: retry POSTs under way per receiving origin', () => {
  test('grants up to the limit per origin; other origins are not held back', async () => {
    const gate = new HostGate(2);
    assert.equal(await gate.acquire('https://a.example', 0), true);
    assert.equal(await gate.acquire('https://a.example', 0), true);
    assert.equal(await gate.acquire('https://b.example', 0), true, 'another origin has slots of its own');
    assert.equal(await gate.acquire('https://a.example', 10), false, 'a third for the full origin waits, then gives up');
  });

  test('a released slot goes to the waiter that came first, and a waiter that gave up is skipped', async () => {
    const gate = new HostGate(1);
    await gate.acquire('o', 0);
    const order: string[] = [];
    const gaveUp = gate.acquire('o', 5).then((ok) => order.push(`early:${ok}`));
    await gaveUp;
    const first = gate.acquire('o', 1_000).then((ok) => order.push(`first:${ok}`));
    const second = gate.acquire('o', 1_000).then((ok) => order.push(`second:${ok}`));
    gate.release('o');
    await first;
    assert.deepEqual(order, ['early:false', 'first:true']);
    gate.release('o');
    await second;
    assert.deepEqual(order, ['early:false', 'first:true', 'second:true']);
    gate.release('o');
    assert.equal(await gate.acquire('o', 0), true, 'every slot came back');
  });
});
