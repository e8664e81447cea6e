/**
 * What the interception module does at the orders module's hook points: a parcel seen at a warehouse tells its
 * order's interception in effect (a signal, after the scan or event has committed); the order snapshot lists an open
 * interception among the order's processes; list_exceptions lists a failed interception until the order has a newer
 * one, and one held at a warehouse for HELD_EXCEPTION_HOURS with no outcome and no withdrawal.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import type { OrderAtWarehouseHook, OrderExceptionsHook, OrderProcessesHook } from '../orders/index.ts';
import { heldSignal } from './contract.ts';
import { HELD_EXCEPTION_HOURS } from './domain.ts';
import * as repo from './repo.ts';

export const tellInterceptionOfWarehouse: OrderAtWarehouseHook = async (ctx, parcels) => {
  // Each reporter reaches only its own: a scan the scanning business's orders, a carrier the orders it holds.
  const reporters = new Map<string, { kind: 'business' | 'carrier'; businessId: number }>();
  for (const p of parcels) {
    const kind = p.source === 'scan' ? 'business' : 'carrier';
    reporters.set(`${kind}:${p.reportedBy}`, { kind, businessId: p.reportedBy });
  }
  for (const reporter of reporters.values()) {
    const own = parcels.filter(
      (p) => (p.source === 'scan' ? 'business' : 'carrier') === reporter.kind && p.reportedBy === reporter.businessId,
    );
    const waiting = await repo.inEffectByPackages(
      ctx.em,
      reporter,
      own.map((p) => p.packageNumber),
    );
    if (waiting.length === 0) continue;
    const packagesOf = await repo.packagesOfOrders(
      ctx.em,
      waiting.map((w) => w.order_id),
    );
    await Promise.all(
      waiting.map(async (w) => {
        const numbers = new Set(packagesOf.filter((p) => p.order_id === w.order_id).map((p) => p.package_number));
        const parcel = own.find((p) => numbers.has(p.packageNumber));
        if (!parcel) return;
        await ctx.temporal.workflow
          .getHandle(w.workflow_id)
          .signal(heldSignal, {
            packageNumber: parcel.packageNumber,
            place: parcel.place,
            source: parcel.source,
            occurredAt: parcel.occurredAt,
          })
          .catch((err: unknown) => {
            // Ended between the read and the signal: nothing is waiting any more.
            if (!(err instanceof WorkflowNotFoundError)) throw err;
          });
      }),
    );
  }
};

export const openInterceptions: OrderProcessesHook = async (ctx, order) =>
  (await repo.openOf(ctx.em, order.businessId, order.id)).map((r) => ({
    type: 'order-interception',
    workflowId: r.workflow_id,
    state: r.state,
    since: new Date(r.held_at ?? r.created_at),
    reference: String(r.id),
  }));

/**
 * A failed interception (kind `intercept-failed`, since it failed), and one held at a warehouse longer than
 * HELD_EXCEPTION_HOURS (times INTERCEPTION_TIMER_SCALE) with no outcome and no withdrawal (kind `intercept-held`,
 * reason `held_without_outcome`, since the hours ran out): both need a person.
 */
export const failedInterceptions: OrderExceptionsHook = async (ctx, query) => {
  const heldMs = Math.max(1, Math.round(HELD_EXCEPTION_HOURS * 3_600_000 * ctx.config.interceptionTimerScale));
  const failed = await repo.failedOf(ctx.em, query);
  const held = await repo.heldTooLongOf(ctx.em, query, heldMs);
  const all = [
    ...failed.map((r) => ({
      orderId: r.order_id,
      kind: 'intercept-failed',
      reason: r.end_reason ?? 'failed',
      since: new Date(r.ended_at ?? r.updated_at),
      reference: r.workflow_id,
    })),
    ...held.map((r) => ({
      orderId: r.order_id,
      kind: 'intercept-held',
      reason: 'held_without_outcome',
      since: new Date(r.overdue_since),
      reference: r.workflow_id,
    })),
  ];
  return all.sort((a, b) => b.since.getTime() - a.since.getTime() || b.orderId - a.orderId).slice(0, query.limit);
};
