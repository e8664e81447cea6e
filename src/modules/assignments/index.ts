/** Contractor (broker) order assignments: hand orders to a contractor, revoke, release. */
import { defineModule } from '../../platform/module.ts';
import { appendOrderTrail, ORDER_OPERATION, type OrderCancelledHook } from '../orders/index.ts';
import { endAssignmentsOfOrder } from './repo.ts';
import { BrokerOrderAssignment } from './entities.ts';
import { ASSIGNMENTS_MESSAGES } from './messages.ts';
import { ASSIGNMENTS_ERRORS } from './errorCodes.ts';
import { assignmentAssign, assignmentList, assignmentRelease, assignmentRevoke } from './operations.ts';
import { contractorAssignmentProcesses } from './orderReads.ts';

/** A cancelled order leaves its contractor: the active assignment ends (revoked), in the cancel transaction. */
const endOnCancel: OrderCancelledHook = async (tx, order, ctx) => {
  const ended = await endAssignmentsOfOrder(tx, order.id, ctx.actor.userId, 'order cancelled');
  await appendOrderTrail(
    tx,
    ended.map((a) => ({
      orderId: order.id,
      businessId: order.businessId,
      operationType: ORDER_OPERATION.CONTRACTOR_ENDED,
      actor: ctx.actor,
      details: { assignment_id: a.id, broker_id: a.broker_id, status: 'revoked', reason: 'order cancelled' },
      occurredAt: ctx.occurredAt,
    })),
  );
};

export const assignments = defineModule({
  name: 'assignments',
  tags: {
    'Broker Order Assignments':
      'Hand orders exclusively to one contractor, revoke them, or, as that contractor, give them back. An order without an assignment follows the ordinary contractor rules.',
  },
  operations: [assignmentList, assignmentAssign, assignmentRevoke, assignmentRelease],
  entities: [BrokerOrderAssignment],
  // The order's active assignment, for the orders module's snapshot; a cancelled order's assignment ends.
  hooks: { orderProcesses: contractorAssignmentProcesses, orderCancelled: endOnCancel },
  messages: ASSIGNMENTS_MESSAGES,
  errorCodes: ASSIGNMENTS_ERRORS,
});
