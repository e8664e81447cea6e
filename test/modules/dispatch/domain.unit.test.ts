/** Dispatch's pure rules: how a report is judged against an order's stops, and how drivers are ranked. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judgeReport, rankCandidates, statusAfter, type ReportState } from '../../../src/modules/dispatch/domain.ts';

const p2p: ReportState = {
  orderType: 'P2P',
  stops: [
    { id: 1, kind: 'pickup', status: 'pending' },
    { id: 2, kind: 'delivery', status: 'pending' },
  ],
  applied: [],
  offerOpen: false,
};

describe('judgeReport', () => {
  test("a P2P order's pickup steps belong to its pickup stop, which picked_up finishes", () => {
    assert.deepEqual(judgeReport(p2p, 'pickup_started'), { applied: true, stopId: 1, finish: null });
    assert.deepEqual(judgeReport(p2p, 'picked_up'), { applied: true, stopId: 1, finish: 'done' });
    assert.deepEqual(judgeReport(p2p, 'failed'), { applied: true, stopId: 1, finish: 'failed' });
    const pickedUp: ReportState = {
      ...p2p,
      stops: [{ ...p2p.stops[0]!, status: 'done' }, p2p.stops[1]!],
      applied: [{ stopId: 1, step: 'picked_up' }],
    };
    assert.deepEqual(judgeReport(pickedUp, 'on_the_way'), { applied: true, stopId: 2, finish: null });
    assert.deepEqual(judgeReport(pickedUp, 'completed'), { applied: true, stopId: 2, finish: 'done' });
  });

  test("a P2P order's delivery steps wait for its pickup", () => {
    assert.deepEqual(judgeReport(p2p, 'on_the_way'), { applied: false, reason: 'pickup_pending' });
    assert.deepEqual(judgeReport(p2p, 'completed'), { applied: false, reason: 'pickup_pending' });
  });

  test('repeated, backward and finished-stop reports are not applied', () => {
    const after = { ...p2p, applied: [{ stopId: 1, step: 'picked_up' as const }] };
    assert.deepEqual(judgeReport(after, 'picked_up'), { applied: false, reason: 'repeated' });
    assert.deepEqual(judgeReport(after, 'pickup_started'), { applied: false, reason: 'backwards' });
    assert.deepEqual(judgeReport(after, 'ready'), { applied: false, reason: 'backwards' });
    const done = {
      orderType: 'D' as const,
      stops: [{ id: 5, kind: 'delivery' as const, status: 'done' as const }],
      applied: [{ stopId: 5, step: 'completed' as const }],
      offerOpen: false,
    };
    assert.deepEqual(judgeReport(done, 'failed'), { applied: false, reason: 'stop_finished' });
    assert.deepEqual(judgeReport({ ...p2p, offerOpen: true }, 'pickup_started'), {
      applied: false,
      reason: 'offer_open',
    });
    assert.deepEqual(judgeReport({ ...p2p, stops: [] }, 'completed'), { applied: false, reason: 'not_on_route' });
  });

  test("a P order's steps all belong to its one pickup stop", () => {
    const p: ReportState = { ...p2p, orderType: 'P', stops: [{ id: 9, kind: 'pickup', status: 'pending' }] };
    assert.deepEqual(judgeReport(p, 'on_the_way'), { applied: true, stopId: 9, finish: null });
    assert.deepEqual(judgeReport(p, 'picked_up'), { applied: true, stopId: 9, finish: 'done' });
  });

  test('the status after each step and failure reason', () => {
    assert.deepEqual(
      (['ready', 'pickup_started', 'picked_up', 'on_the_way', 'completed'] as const).map((s) => statusAfter(s, null)),
      [null, 6, 7, 2, 3],
    );
    assert.deepEqual(
      ([null, 'redispatch_later', 'needs_rescheduling', 'refused_by_recipient'] as const).map((r) =>
        statusAfter('failed', r),
      ),
      [4, 13, 12, 14],
    );
  });
});

test('drivers rank nearest first, those without a position last by id', () => {
  const at = { lat: 48.85, lng: 2.35 };
  assert.deepEqual(
    rankCandidates(
      [
        { driverId: 4, position: null },
        { driverId: 3, position: { lat: 49.5, lng: 3 } },
        { driverId: 2, position: null },
        { driverId: 1, position: { lat: 48.86, lng: 2.36 } },
      ],
      at,
    ),
    [1, 3, 2, 4],
  );
  assert.deepEqual(
    rankCandidates(
      [
        { driverId: 7, position: { lat: 1, lng: 1 } },
        { driverId: 5, position: null },
      ],
      null,
    ),
    [5, 7],
  );
});
