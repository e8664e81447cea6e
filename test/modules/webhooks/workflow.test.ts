/** The webhook retry and prune workflows with their activities mocked: schedules, dead letters, uncounted tries. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import type { EventSender } from '../../../src/platform/events.ts';
import {
  deliveriesQuery,
  WEBHOOK_LOG_PRUNE_WORKFLOW,
  WEBHOOK_RETRIES_WORKFLOW,
  webhookRetriesWorkflowId,
  type AttemptResult,
  type RetriesSummary,
  type WebhookActivities,
  type WebhookRetriesInput,
} from '../../../src/modules/webhooks/contract.ts';
import { maxAttempts } from '../../../src/modules/webhooks/domain.ts';
import type { webhookLogPruneWorkflow, webhookRetriesWorkflow } from '../../../src/modules/webhooks/workflows.ts';
import { withMockedWorker, type MockedWorker } from '../../helpers/mockedWorker.ts';

/** The schedules' waits shrunk to at most 0.4 s, through the workflow's input. */
const SCALE = 0.00001;

/** Receivers scripted per delivery: the answer of each try, the last one repeating. */
function receivers(script: Record<number, AttemptResult['state'][]>) {
  const tries = new Map<number, number>();
  const counted = new Map<number, number>();
  const dead: number[][] = [];
  const activities: Pick<WebhookActivities, 'attemptWebhookDeliveries' | 'markWebhookDeliveriesDead'> = {
    async attemptWebhookDeliveries(ids) {
      const out: Record<number, AttemptResult> = {};
      for (const id of ids) {
        const n = tries.get(id) ?? 0;
        tries.set(id, n + 1);
        const answers = script[id]!;
        const state = answers[Math.min(n, answers.length - 1)]!;
        const made = state === 'busy' || state === 'leased' ? null : Date.now();
        if (made !== null) counted.set(id, (counted.get(id) ?? 1) + 1);
        out[id] = { state, attempts: counted.get(id) ?? 1, attemptedAt: made };
      }
      return out;
    },
    async markWebhookDeliveriesDead(ids) {
      dead.push(ids);
    },
  };
  return { tries, dead, activities };
}

function startRetries(w: MockedWorker, deliveries: { id: number; sender: EventSender }[], carried?: RetriesSummary) {
  const input: WebhookRetriesInput = {
    deliveries: deliveries.map((d) => ({
      deliveryId: d.id,
      sender: d.sender,
      attemptsMade: 1,
      roundBase: 0,
      dueAt: Date.now(),
    })),
    scale: SCALE,
    ...(carried && { carried }),
  };
  return w.client.workflow.start<typeof webhookRetriesWorkflow>(WEBHOOK_RETRIES_WORKFLOW, {
    workflowId: webhookRetriesWorkflowId(deliveries[0]!.id, randomUUID().slice(0, 12)),
    taskQueue: w.taskQueue,
    args: [input],
  });
}

describe('webhook retry workflow (mocked activities)', () => {
  test("each delivery follows its own sender's schedule: a tenant delivery dies after 5 attempts, a partner one stops when delivered", async () => {
    const rx = receivers({ 1: ['retrying'], 2: ['retrying', 'delivered'] });
    await withMockedWorker(rx.activities, async (w) => {
      const handle = await startRetries(w, [
        { id: 1, sender: 'tenant' },
        { id: 2, sender: 'partner_locker' },
      ]);
      assert.deepEqual(await handle.result(), { delivered: 1, dead: 1 });
      const progress = await handle.query(deliveriesQuery);
      assert.deepEqual(progress.map((p) => [p.deliveryId, p.state, p.attemptsMade, p.nextAttemptAt]).sort(), [
        [1, 'dead', 5, null],
        [2, 'delivered', 3, null],
      ]);
    });
    // The relay made attempt 1; the workflow made the rest.
    assert.equal(rx.tries.get(1), maxAttempts('tenant') - 1);
    assert.equal(rx.tries.get(2), 2);
    assert.deepEqual(rx.dead, [[1]]);
  });

  test('deliveries due within a second of each other go in one round, each sent no earlier than its own due time', async () => {
    const calls: { ids: number[]; notBefore: Record<number, number> }[] = [];
    const activities: Pick<WebhookActivities, 'attemptWebhookDeliveries' | 'markWebhookDeliveriesDead'> = {
      async attemptWebhookDeliveries(ids, notBefore = {}) {
        calls.push({ ids, notBefore });
        return Object.fromEntries(ids.map((id) => [id, { state: 'delivered', attempts: 2, attemptedAt: Date.now() }]));
      },
      async markWebhookDeliveriesDead() {},
    };
    let dueAt: Record<11 | 12 | 13 | 14, number> = { 11: 0, 12: 0, 13: 0, 14: 0 };
    await withMockedWorker(activities, async (w) => {
      // Dated once the worker runs, and 14 well clear of the first round: files run side by side, and a first round
      // that a busy machine wakes late must not find 14 due already.
      const now = Date.now();
      dueAt = { 11: now + 1_000, 12: now + 1_400, 13: now + 1_900, 14: now + 5_000 };
      const input: WebhookRetriesInput = {
        deliveries: Object.entries(dueAt).map(([id, due]) => ({
          deliveryId: Number(id),
          sender: 'tenant',
          attemptsMade: 1,
          roundBase: 0,
          dueAt: due,
        })),
        scale: SCALE,
      };
      const handle = await w.client.workflow.start<typeof webhookRetriesWorkflow>(WEBHOOK_RETRIES_WORKFLOW, {
        workflowId: webhookRetriesWorkflowId(11, randomUUID().slice(0, 12)),
        taskQueue: w.taskQueue,
        args: [input],
      });
      assert.deepEqual(await handle.result(), { delivered: 4, dead: 0 });
    });
    // Woken by 11: 12 and 13 fall due within the second and come along, in due order; 14 waits for a round of its own.
    assert.deepEqual(
      calls.map((c) => c.ids),
      [[11, 12, 13], [14]],
    );
    assert.deepEqual(calls[0]!.notBefore, { 11: dueAt[11], 12: dueAt[12], 13: dueAt[13] });
  });

  test('a partner-locker delivery that never succeeds gets 1 + 7 attempts before the dead letter', async () => {
    const rx = receivers({ 5: ['retrying'] });
    await withMockedWorker(rx.activities, async (w) => {
      assert.deepEqual(await (await startRetries(w, [{ id: 5, sender: 'partner_locker' }])).result(), {
        delivered: 0,
        dead: 1,
      });
    });
    assert.equal(maxAttempts('partner_locker'), 8);
    assert.equal(rx.tries.get(5), 7);
    assert.deepEqual(rx.dead, [[5]]);
  });

  test("a try that found the receiver's origin busy is not counted as an attempt", async () => {
    const rx = receivers({ 3: ['busy', 'retrying'] });
    await withMockedWorker(rx.activities, async (w) => {
      assert.deepEqual(await (await startRetries(w, [{ id: 3, sender: 'tenant' }])).result(), {
        delivered: 0,
        dead: 1,
      });
    });
    assert.equal(rx.tries.get(3), maxAttempts('tenant'), 'one uncounted try plus the four counted retries');
  });

  test('counts carried over a continue-as-new are part of the result', async () => {
    const rx = receivers({ 4: ['delivered'] });
    await withMockedWorker(rx.activities, async (w) => {
      assert.deepEqual(await (await startRetries(w, [{ id: 4, sender: 'ohp' }], { delivered: 2, dead: 1 })).result(), {
        delivered: 3,
        dead: 1,
      });
    });
  });
});

describe('webhook log prune workflow (mocked activity)', () => {
  test('passes the retention to the activity and returns what it deleted', async () => {
    const asked: number[] = [];
    const activities: Pick<WebhookActivities, 'pruneWebhookLog'> = {
      async pruneWebhookLog(days) {
        asked.push(days);
        return { deliveries: 4, attempts: 9, events: 2 };
      },
    };
    await withMockedWorker(activities, async (w) => {
      const result = await w.client.workflow.execute<typeof webhookLogPruneWorkflow>(WEBHOOK_LOG_PRUNE_WORKFLOW, {
        workflowId: `prune-test-${randomUUID()}`,
        taskQueue: w.taskQueue,
        args: [30],
      });
      assert.deepEqual(result, { deliveries: 4, attempts: 9, events: 2 });
    });
    assert.deepEqual(asked, [30]);
  });
});
