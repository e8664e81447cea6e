/** Contractor (broker) order assignments: hand orders to a contractor, revoke, release. */
import { defineModule } from '../../platform/module.ts';
import { BrokerOrderAssignment } from './entities.ts';
import { ASSIGNMENTS_MESSAGES } from './messages.ts';
import { ASSIGNMENTS_ERRORS } from './errorCodes.ts';
import { assignmentAssign, assignmentList, assignmentRelease, assignmentRevoke } from './operations.ts';

export const assignments = defineModule({
  name: 'assignments',
  tags: {
    'Broker Order Assignments':
      'Hand orders exclusively to one contractor, revoke them, or, as that contractor, give them back. An order without an assignment follows the ordinary contractor rules.',
  },
  operations: [assignmentList, assignmentAssign, assignmentRevoke, assignmentRelease],
  entities: [BrokerOrderAssignment],
  messages: ASSIGNMENTS_MESSAGES,
  errorCodes: ASSIGNMENTS_ERRORS,
});
