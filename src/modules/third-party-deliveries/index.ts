/**
 * Third-party delivery assignments (docs/third-party-deliveries.md): an order handed to a delivery provider, each a
 * workflow `third-party-delivery-<id>` (contract.ts) whose read model is the third_party_assignment row.
 */
import { defineModule } from '../../platform/module.ts';
import { thirdPartyProcesses } from './orderReads.ts';
import { THIRD_PARTY_EVENTS } from './events.ts';
import { createThirdPartyActivities } from './activities.ts';
import { THIRD_PARTY_STATUS, THIRD_PARTY_WORKFLOW, THIRD_PARTY_QUEUE } from './contract.ts';
import { THIRD_PARTY_ERRORS } from './errorCodes.ts';
import { THIRD_PARTY_MESSAGES } from './messages.ts';
import {
  thirdPartyAssign,
  thirdPartyAssignmentGet,
  thirdPartyHandover,
  thirdPartyReassign,
} from './operations/assignments.ts';
import { assignByRules, thirdPartyRuleCreate, thirdPartyRuleEnd, thirdPartyRuleList } from './operations/rules.ts';
import {
  providerAssignmentCancel,
  providerAssignmentGet,
  providerAssignmentLegCreate,
  providerAssignmentList,
} from './operations/provider.ts';

export { tellAssignmentsOfProgress } from './progress.ts';

export const thirdPartyDeliveries = defineModule({
  name: 'third-party-deliveries',
  tags: {
    'Third-party deliveries':
      "Hand orders to third-party delivery providers, one by one or by rules (postal code, weight, longest side), follow each package's handover at the warehouse, and reassign an order before its handover.",
    'Third-party deliveries (provider)':
      'For delivery providers: the orders handed to you, and what you report back about them: an order placed with your carrier for some of the packages (a leg), or a cancellation.',
  },
  taskQueue: THIRD_PARTY_QUEUE,
  events: THIRD_PARTY_EVENTS,
  operations: [
    thirdPartyAssign,
    thirdPartyAssignmentGet,
    thirdPartyHandover,
    thirdPartyReassign,
    thirdPartyRuleCreate,
    thirdPartyRuleList,
    thirdPartyRuleEnd,
    providerAssignmentList,
    providerAssignmentGet,
    providerAssignmentCancel,
    providerAssignmentLegCreate,
  ],
  // A new order the business's rules match is handed to a provider as soon as it is created.
  hooks: { orderCreated: assignByRules, orderProcesses: thirdPartyProcesses },
  activities: ({ orm }) => createThirdPartyActivities({ orm }),
  workflows: [THIRD_PARTY_WORKFLOW],
  messages: THIRD_PARTY_MESSAGES,
  errorCodes: THIRD_PARTY_ERRORS,
  searchAttributes: [THIRD_PARTY_STATUS],
});
