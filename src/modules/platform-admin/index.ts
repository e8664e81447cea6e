/**
 * The platform admin's switches (issue 35 section 3; docs/platform-admin.md): the businesses and their switches, the
 * contractor-assignment module system-wide (503) and per business (403), the opt-in families per business (409 while
 * off: docs/opt-in-families.md), SMS Marketing's migration and revocation, the Operations AI Agent's daily turn cap;
 * and the business admin's price hiding per customer account. Every change writes the platform audit trail.
 *
 * Other modules read the switches through the read cache with what this file exports: the families call
 * `requireFamily` first thing in each handler, the assignment module asks `assignmentModuleAvailable`.
 */
import { defineModule } from '../../platform/module.ts';
import { PLATFORM_ADMIN_ERRORS } from './errorCodes.ts';
import { PLATFORM_ADMIN_MESSAGES } from './messages.ts';
import { PLATFORM_ADMIN_OPERATIONS } from './operations.ts';

export const platformAdmin = defineModule({
  name: 'platform-admin',
  tags: {
    'Platform admin':
      "The platform admin's switches: the client businesses, the contractor-assignment module system-wide and per business, the opt-in feature families (Order Chat, SMS Marketing, Operations AI Agent) per business, SMS Marketing's migration and revocation, and the Operations AI Agent's daily turn cap. Every change is kept in the platform audit trail.",
    'Price hiding':
      "A business admin's choice of the price families hidden from each of its customer accounts: what the customer is sent about an order of a hidden family carries no price.",
  },
  operations: PLATFORM_ADMIN_OPERATIONS,
  messages: PLATFORM_ADMIN_MESSAGES,
  errorCodes: PLATFORM_ADMIN_ERRORS,
});

export { OPT_IN_FAMILIES, type OptInFamily } from './domain.ts';
export {
  aiAgentDailyTurnCap,
  assignmentModuleAvailable,
  FAMILY_FAILURES,
  requireFamily,
  switchesFor,
  type BusinessSwitches,
} from './switches.ts';
