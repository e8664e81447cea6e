/** The opt-in families and who may use them (docs/opt-in-families.md, "Switches"). */
import type { Role } from '../../platform/roles.ts';
import { STAFF } from '../../platform/roles.ts';

/** The opt-in feature families, each switched per business by the platform admin and off until then. */
export const OPT_IN_FAMILIES = ['order_chat', 'sms_marketing', 'ai_agent'] as const;
export type OptInFamily = (typeof OPT_IN_FAMILIES)[number];

/**
 * The accounts a family is for, besides the roles each operation lists: SMS Marketing is the business's own tool and
 * the Operations AI Agent is for client and employee accounts (specification, section 4), so both are for the staff
 * of a business (client admin, employee), and every other account is refused (403) before any switch is read. Order
 * Chat is for any account of a business.
 */
export const FAMILY_ACCOUNTS: Readonly<Record<OptInFamily, readonly Role[] | 'any_business_account'>> = {
  order_chat: 'any_business_account',
  sms_marketing: STAFF,
  ai_agent: STAFF,
};

/** The platform settings' keys (table platform_setting). */
export const SETTINGS = { assignmentModuleAvailable: 'assignment_module_available' } as const;
