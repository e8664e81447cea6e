import type { WorkerDeps } from '../../platform/module.ts';
import { translate } from '../../platform/i18n/messages.ts';
import { refusalOf } from '../../platform/temporal/refusals.ts';
import {
  runAfterCommit,
  runOrderCancelledHooks,
  SYSTEM_ACTOR,
  type AfterCommit,
  type OrderActor,
  type OrderChangeSource,
} from '../orders/index.ts';
import { cancelUpdate, thirdPartyWorkflowId } from '../third-party-deliveries/contract.ts';
import type { OrderCancellationActivities, SettleInput } from './contract.ts';
import { cancelRefusal, type CancellationStatus } from './domain.ts';
import { REFUSAL_MESSAGE } from './messages.ts';
import { writeCancelled, writeRefusal } from './outcomes.ts';
import {
  awaitRequestWritten,
  endCancellation,
  findCancellation,
  lockOrderFacts,
  type CancellationRow,
} from './repo.ts';

/** Who asked for the cancellation, as the audit trail records the change it caused. */
export const requesterOf = (c: CancellationRow): OrderActor => ({
  userId: c.requested_by,
  role: c.requested_role,
  source: (c.requested_source ?? 'system') as OrderChangeSource,
  ip: c.requested_ip,
});

const providerActor = (actorId: number | null): OrderActor =>
  actorId === null ? SYSTEM_ACTOR : { userId: actorId, role: 'delivery_provider', source: 'api', ip: null };

export function createOrderCancellationActivities(deps: WorkerDeps): OrderCancellationActivities {
  return {
    confirmCancellation: ({ cancellationId, orderId }) =>
      awaitRequestWritten(deps.orm.em.fork(), orderId, cancellationId),

    async finishCancelled({ cancellationId }): Promise<void> {
      const em = deps.orm.em.fork();
      let after: AfterCommit[] = [];
      let orderId = 0;
      await em.transactional(async (tx) => {
        const c = await findCancellation(tx, cancellationId);
        if (!c || c.status !== 'cancelled') return;
        const order = await lockOrderFacts(tx, c.order_id);
        if (!order) return; // deleted meanwhile: nothing holds it any more
        orderId = order.id;
        after = await runOrderCancelledHooks(
          tx,
          { ...order, beforeStatus: order.statusId, cancellationId: c.id },
          {
            em,
            temporal: deps.temporal,
            config: deps.config,
            log: deps.log,
            actor: requesterOf(c),
            occurredAt: new Date(c.ended_at ?? c.requested_at),
          },
        );
      });
      await runAfterCommit(after, deps.log, orderId);
    },

    async settleCancellation(input: SettleInput): Promise<CancellationStatus> {
      const em = deps.orm.em.fork();
      let after: AfterCommit[] = [];
      let orderId = 0;
      const status = await em.transactional(async (tx): Promise<CancellationStatus> => {
        const c = await findCancellation(tx, input.cancellationId, true);
        // The request's transaction never committed: nothing to settle.
        if (!c) return 'refused';
        const order = (await lockOrderFacts(tx, c.order_id))!;
        orderId = order.id;
        const hookCtx = { em, temporal: deps.temporal, config: deps.config, log: deps.log };
        if (c.status !== 'awaiting_provider') {
          // A retry after the commit: the hooks' work after it may not have run, and it is idempotent.
          if (c.status === 'cancelled')
            after = await runOrderCancelledHooks(
              tx,
              { ...order, beforeStatus: order.statusId, cancellationId: c.id },
              { ...hookCtx, actor: requesterOf(c), occurredAt: new Date() },
            );
          return c.status;
        }
        if (input.outcome === 'accepted') {
          // The order may have moved on while the provider was asked (delivered, intercepted): then it is refused.
          const refused = cancelRefusal(order.statusId);
          if (!refused) {
            await endCancellation(tx, c.id, { status: 'cancelled', answeredBy: input.actorId });
            after = await writeCancelled(
              tx,
              order,
              c.id,
              { ...hookCtx, actor: requesterOf(c) },
              { accepted_by: c.provider_code },
            );
            return 'cancelled';
          }
          const message = translate(REFUSAL_MESSAGE[refused], 'en');
          await endCancellation(tx, c.id, {
            status: 'refused',
            refusalCode: refused,
            message,
            answeredBy: input.actorId,
          });
          await writeRefusal(tx, order, c.id, { code: refused, message }, SYSTEM_ACTOR);
          return 'refused';
        }
        const status = input.outcome === 'refused' ? 'refused' : 'timed_out';
        const message = translate(
          status === 'refused' ? 'order_cancellation.provider_refused' : 'order_cancellation.provider_no_answer',
          'en',
        );
        await endCancellation(tx, c.id, {
          status,
          refusalCode: input.refusalCode,
          message: input.message ?? message,
          answeredBy: input.actorId,
        });
        // The webhook says it in the service's words: the provider's own message (on the request and in the trail)
        // may name the carrier, which a customer's webhook never does.
        await writeRefusal(tx, order, c.id, { code: input.refusalCode, message }, providerActor(input.actorId), {
          provider: c.provider_code,
          provider_message: input.message,
        });
        return status;
      });
      await runAfterCommit(after, deps.log, orderId);
      return status;
    },

    async endProviderAssignment({ assignmentId, actorId }): Promise<void> {
      const handle = deps.temporal.workflow.getHandle(thirdPartyWorkflowId(assignmentId));
      try {
        await handle.executeUpdate(cancelUpdate, { args: [{ reason: 'cancelled', actorId }] });
      } catch (err) {
        // Ended already (delivered, cancelled by its provider, reassigned, or the process is gone): nothing to end.
        if (refusalOf(err) === null) throw err;
      }
    },
  };
}
