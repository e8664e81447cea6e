import { ApplicationFailure } from '@temporalio/activity';
import type { Em, Orm } from '../../platform/db/orm.ts';
import { insertOutboxEvents } from '../../platform/db/outbox.ts';
import { appendOrderTrail, holdForCarrier, ORDER_OPERATION, type OrderActor } from '../orders/index.ts';
import {
  ASSIGNMENT_INVALID_STEP,
  NOT_THE_ORDERS_PACKAGE,
  type ThirdPartyInput,
  type AssignmentSnapshot,
  type StepInput,
  type StepResult,
  type ThirdPartyActivities,
} from './contract.ts';
import { allows, outcomeOfPhase, type AssignmentStatus } from './domain.ts';
import { assignmentOutboxEvent } from './events.ts';
import {
  findAssignmentById,
  findPackageProgress,
  insertAssignment,
  lockAssignment,
  nextAssignmentId,
  recordHandover,
  setAssignmentStatus,
  setDeliveredPackages,
  type StoredAssignment,
} from './repo/assignments.ts';

const snapshotOf = (a: StoredAssignment): AssignmentSnapshot => ({ number: a.number, status: a.status });

const refuse = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });

/** Writes a new assignment of the order to a provider: its row, the order held for the provider, its created event. */
export async function writeAssignment(
  tx: Em,
  input: ThirdPartyInput & { source: 'manual' | 'rule'; createdBy: number | null },
): Promise<StoredAssignment | null> {
  if (!(await insertAssignment(tx, { ...input }))) return null;
  await holdForCarrier(tx, input.orderId, input.providerId);
  const stored = (await findAssignmentById(tx, input.id))!;
  await insertOutboxEvents(tx, [assignmentOutboxEvent(stored, 'created')]);
  return stored;
}

export function createThirdPartyActivities(deps: { orm: Orm }): ThirdPartyActivities {
  return {
    /** One step of an assignment, with the order's hold and the provider's events, in one transaction. */
    async applyAssignmentStep(input: StepInput): Promise<StepResult> {
      return deps.orm.em.fork().transactional(async (tx) => {
        await lockAssignment(tx, input.id);
        const current = await findAssignmentById(tx, input.id);
        if (!current) throw refuse(ASSIGNMENT_INVALID_STEP, `assignment ${input.id} does not exist`);
        const reason = input.step === 'cancel' ? input.reason : undefined;
        if (!allows(current.status, input.step, reason))
          throw refuse(ASSIGNMENT_INVALID_STEP, `assignment ${current.number} is ${current.status}`);
        let nextInput: ThirdPartyInput | null = null;
        let next: StoredAssignment | null = null;
        if (input.step === 'handover') {
          const left = await recordHandover(tx, input.id, input.packageNumber, input.scannedAt, input.actorId);
          if (left === null)
            throw refuse(
              NOT_THE_ORDERS_PACKAGE,
              `${input.packageNumber} is not a package of order ${current.order_id}`,
            );
          if (left === 0) await setAssignmentStatus(tx, input.id, 'handed_over');
          // The order's audit trail: the handover to the provider, once, when its last package is scanned over.
          if (left === 0 && current.status === 'assigned')
            await appendOrderTrail(tx, [
              {
                orderId: current.order_id,
                businessId: current.business_id,
                operationType: ORDER_OPERATION.PROVIDER_HANDOVER,
                actor: (input.actor as OrderActor | undefined) ?? {
                  userId: input.actorId,
                  role: null,
                  source: 'api',
                  ip: null,
                },
                details: {
                  assignment: current.number,
                  provider_id: current.provider_id,
                  last_package: input.packageNumber,
                  scanned_at: input.scannedAt,
                },
              },
            ]);
        } else {
          await setAssignmentStatus(tx, input.id, 'cancelled', input.reason);
          if (input.to) {
            nextInput = {
              id: await nextAssignmentId(tx),
              businessId: current.business_id,
              orderId: current.order_id,
              ...input.to,
            };
            next = await writeAssignment(tx, { ...nextInput, source: 'manual', createdBy: input.actorId });
          } else {
            await holdForCarrier(tx, current.order_id, null);
          }
        }
        const after = (await findAssignmentById(tx, input.id))!;
        if (after.status !== current.status)
          await insertOutboxEvents(tx, [
            assignmentOutboxEvent(after, after.status === 'handed_over' ? 'handed_over' : 'cancelled'),
          ]);
        return { answer: { assignment: snapshotOf(after), next: next && snapshotOf(next) }, nextInput };
      });
    },

    /**
     * Looks at each package's newest tracking: all delivered ends the assignment delivered; more delivered than
     * last time, with others still moving, makes it partial_delivered and reports each package's outcome and the
     * legs. Anything else changes nothing. Answers the status after.
     */
    async assessAssignmentProgress(input: { id: number }): Promise<AssignmentStatus> {
      return deps.orm.em.fork().transactional(async (tx) => {
        await lockAssignment(tx, input.id);
        const current = (await findAssignmentById(tx, input.id))!;
        if (current.status !== 'handed_over' && current.status !== 'partial_delivered') return current.status;
        const outcomes = (await findPackageProgress(tx, input.id)).map((p) => ({
          package_number: p.package_number,
          outcome: outcomeOfPhase(p.phase),
        }));
        const delivered = outcomes.filter((o) => o.outcome === 'delivered').length;
        if (delivered === current.delivered_packages) return current.status;
        await setDeliveredPackages(tx, input.id, delivered);
        if (delivered === outcomes.length) {
          await setAssignmentStatus(tx, input.id, 'delivered');
          return 'delivered';
        }
        await setAssignmentStatus(tx, input.id, 'partial_delivered');
        await insertOutboxEvents(tx, [
          assignmentOutboxEvent((await findAssignmentById(tx, input.id))!, 'partial_delivered', outcomes),
        ]);
        return 'partial_delivered';
      });
    },
  };
}
