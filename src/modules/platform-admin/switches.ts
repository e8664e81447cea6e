/**
 * The switches as every other module reads them, through the read cache (src/platform/db/readCache.ts): the
 * opt-in families' guard, the AI agent's daily turn cap, and the assignment module's system-wide availability. Each
 * runs on every call of a family, so it reads the database only after a change of platform_setting or
 * business_switch (NOTIFY read_cache) or once a minute.
 */
import type { OperationContext } from '../../platform/catalog/types.ts';
import { errors } from '../../platform/errors.ts';
import { FAMILY_ACCOUNTS, SETTINGS, type OptInFamily } from './domain.ts';
import { fail } from './errorCodes.ts';
import * as repo from './repo.ts';

/** A business's switches as the families read them. */
export interface BusinessSwitches {
  families: Readonly<Record<OptInFamily, boolean>>;
  smsMarketing: { migrated: boolean; revoked: boolean };
  /** The cap the platform admin set, or null for the configured default. */
  aiAgentDailyTurnCap: number | null;
}

/** The business's switches, kept by the read cache. */
export async function switchesFor(ctx: Pick<OperationContext, 'em' | 'reads'>, businessId: number) {
  const load = async (): Promise<BusinessSwitches> => {
    const r = await repo.switchesOf(ctx.em, businessId);
    return {
      families: { order_chat: r.order_chat, sms_marketing: r.sms_marketing, ai_agent: r.ai_agent },
      smsMarketing: { migrated: r.sms_marketing_migrated, revoked: r.sms_marketing_revoked_at !== null },
      aiAgentDailyTurnCap: r.ai_agent_daily_turn_cap,
    };
  };
  return (await ctx.reads.get(`business-switches:${businessId}`, load))!;
}

/**
 * The first thing every operation of an opt-in family calls: refuses (403 FORBIDDEN) an account the family is not
 * for, then (409 FEATURE_DISABLED, body `{result: false, feature_enabled: false}`) a family switched off for the
 * caller's business, and for SMS Marketing a revoked or not yet migrated one. Answers the business's switches. An
 * operation that calls it declares `failures: FAMILY_FAILURES`.
 */
export async function requireFamily(ctx: OperationContext, family: OptInFamily): Promise<BusinessSwitches> {
  const caller = ctx.caller;
  const accounts = FAMILY_ACCOUNTS[family];
  if (caller?.businessId == null) throw errors.forbidden('platform_admin.family_business_only');
  if (accounts !== 'any_business_account' && !accounts.includes(caller.role))
    throw errors.forbidden('platform_admin.family_staff_only');
  const switches = await switchesFor(ctx, caller.businessId);
  if (!switches.families[family]) throw fail('FEATURE_DISABLED', 'platform_admin.feature_disabled');
  if (family === 'sms_marketing') {
    if (switches.smsMarketing.revoked) throw fail('FEATURE_DISABLED', 'platform_admin.sms_marketing_revoked');
    if (!switches.smsMarketing.migrated) throw fail('FEATURE_DISABLED', 'platform_admin.sms_marketing_not_migrated');
  }
  return switches;
}

/** What an operation of an opt-in family declares among its failures, for requireFamily's refusals. */
export const FAMILY_FAILURES = {
  FORBIDDEN: 'The account is not one the family is for (docs/opt-in-families.md)',
  FEATURE_DISABLED: true,
} as const;

/** The Operations AI Agent's daily turn cap for the business: the one the platform admin set, else the default. */
export async function aiAgentDailyTurnCap(ctx: Pick<OperationContext, 'em' | 'reads' | 'config'>, businessId: number) {
  return (await switchesFor(ctx, businessId)).aiAgentDailyTurnCap ?? ctx.config.aiAgentDailyTurnCap;
}

/** The stored value of the assignment module's system-wide switch, or null: ASSIGNMENT_MODULE_AVAILABLE applies. */
export async function assignmentAvailabilitySet(ctx: Pick<OperationContext, 'em' | 'reads'>): Promise<boolean | null> {
  const load = async () => ({ value: await repo.settingOf(ctx.em, SETTINGS.assignmentModuleAvailable) });
  const { value } = (await ctx.reads.get(`platform-setting:${SETTINGS.assignmentModuleAvailable}`, load))!;
  return typeof value === 'boolean' ? value : null;
}

/**
 * Whether the contractor-assignment module is available system-wide (503 MODULE_UNAVAILABLE otherwise): the
 * platform admin's switch, or ASSIGNMENT_MODULE_AVAILABLE until the platform admin has set it.
 */
export async function assignmentModuleAvailable(ctx: Pick<OperationContext, 'em' | 'reads' | 'config'>) {
  return (await assignmentAvailabilitySet(ctx)) ?? ctx.config.assignmentModuleAvailable;
}
