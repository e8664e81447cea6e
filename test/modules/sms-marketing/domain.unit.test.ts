// SMS Marketing's pure rules: quiet hours in the business's local time (over midnight, in another zone, at their
// edges), the pace of sending, and the message every recipient gets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  batchPauseMs,
  batchSize,
  DEFAULT_QUIET_HOURS,
  MAX_MESSAGE_LENGTH,
  MAX_TEXT_LENGTH,
  messageOf,
  quietLength,
  quietUntil,
} from '../../../src/modules/sms-marketing/domain.ts';

const at = (iso: string) => Date.parse(iso);

describe('SMS Marketing rules', () => {
  test('quiet hours over midnight hold from their start to their end, in local time', () => {
    const q = DEFAULT_QUIET_HOURS; // 21:00 to 08:00
    assert.equal(quietUntil(at('2026-11-30T20:59:59Z'), 'UTC', q), null);
    assert.equal(quietUntil(at('2026-11-30T21:00:00Z'), 'UTC', q), at('2026-12-01T08:00:00Z'));
    assert.equal(quietUntil(at('2026-12-01T03:17:42Z'), 'UTC', q), at('2026-12-01T08:00:00Z'));
    assert.equal(quietUntil(at('2026-12-01T07:59:59Z'), 'UTC', q), at('2026-12-01T08:00:00Z'));
    assert.equal(quietUntil(at('2026-12-01T08:00:00Z'), 'UTC', q), null);
    // Prague is UTC+1 in winter: 20:30 UTC is 21:30 there, quiet until 08:00 local, 07:00 UTC.
    assert.equal(quietUntil(at('2026-11-30T20:30:00Z'), 'Europe/Prague', q), at('2026-12-01T07:00:00Z'));
    assert.equal(quietUntil(at('2026-11-30T19:30:00Z'), 'Europe/Prague', q), null);
  });

  test('quiet hours within a day, and the same end from anywhere inside them', () => {
    const q = { start: 1 * 60, end: 9 * 60 + 30 };
    assert.equal(quietLength(q), 8 * 60 + 30);
    assert.equal(quietLength(DEFAULT_QUIET_HOURS), 11 * 60);
    const end = at('2026-06-01T09:30:00Z');
    for (const t of ['2026-06-01T01:00:00Z', '2026-06-01T05:45:10Z', '2026-06-01T09:29:59Z'])
      assert.equal(quietUntil(at(t), 'UTC', q), end, t);
    assert.equal(quietUntil(at('2026-06-01T00:59:59Z'), 'UTC', q), null);
  });

  test('batches of about a second at the rate, and the wait each is worth', () => {
    assert.deepEqual([1, 60, 61, 600, 6000].map(batchSize), [1, 1, 2, 10, 20]);
    assert.equal(batchPauseMs(1, 60), 1_000);
    assert.equal(batchPauseMs(10, 600), 1_000);
    assert.equal(batchPauseMs(1, 1), 60_000);
  });

  test('every message ends with the opt-out instruction and fits four segments', () => {
    const text = 'x'.repeat(MAX_TEXT_LENGTH);
    assert.equal(messageOf(text).length, MAX_MESSAGE_LENGTH);
    assert.ok(messageOf('Hello').endsWith('\n\nReply STOP to opt out.'));
  });
});
