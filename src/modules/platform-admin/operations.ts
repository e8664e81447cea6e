/**
 * The platform admin's switches (docs/platform-admin.md): the businesses, the contractor-assignment module system-wide
 * and per business, the opt-in families per business, SMS Marketing's migration and revocation, the Operations AI
 * Agent's daily turn cap; and a business admin's price hiding per customer account. Every change runs in one
 * transaction with its row of the platform audit trail (src/platform/db/audit.ts, auditedChange).
 */
import { z } from 'zod';
import { defineOperation, type OperationContext } from '../../platform/catalog/types.ts';
import {
  offsetOf,
  pageExample,
  pageOf,
  pageOutput,
  pageParams,
  pathCode,
  pathId,
} from '../../platform/catalog/schemas.ts';
import { auditedChange } from '../../platform/db/audit.ts';
import type { Em } from '../../platform/db/orm.ts';
import { errors } from '../../platform/errors.ts';
import { OPT_IN_FAMILIES, SETTINGS } from './domain.ts';
import * as repo from './repo.ts';
import { assignmentAvailabilitySet } from './switches.ts';
import {
  businessOutput,
  businessView,
  presentBusiness,
  presentPriceHiding,
  priceFamilies,
  priceHidingView,
  settingsOutput,
  type BusinessView,
} from './views.ts';

const TAG = 'Platform admin';
const PLATFORM_ADMIN = ['platform_admin'] as const;
const ADMIN_ONLY = 'Only the platform admin may call it (FORBIDDEN to every other role).';
const AUDITED = 'Kept in the platform audit trail with the business before and after.';
const clientCode = () => pathCode(191).meta({ examples: ['DEMO'] });
const NOT_FOUND = { NOT_FOUND: 'No business has this code' } as const;

const EXAMPLE: BusinessView = {
  code: 'DEMO',
  name: 'Demo',
  assignment_module_enabled: true,
  families: { order_chat: true, sms_marketing: true, ai_agent: false },
  sms_marketing: { migrated: true, revoked: false, revoked_at: null, revoked_reason: null, usable: true },
  ai_agent: { daily_turn_cap: 200, daily_turn_cap_set: null },
};

/**
 * A change of one business's switches: the business locked, `write` run, and the business before and after kept in
 * the audit trail under `business:<code>`; NOT_FOUND for an unknown code, with nothing written.
 */
function changeBusiness(
  ctx: OperationContext,
  action: string,
  code: string,
  write: (em: Em, business: repo.BusinessRow) => Promise<void>,
) {
  const cap = ctx.config.aiAgentDailyTurnCap;
  return auditedChange(ctx, action, `business:${code}`, async (em) => {
    const was = await repo.businessByCode(em, code, true);
    if (!was) throw errors.notFound();
    await write(em, was);
    const before = presentBusiness(was, cap);
    const after = presentBusiness((await repo.businessByCode(em, code))!, cap);
    return { before, after, answer: { result: true as const, business: after } };
  });
}

export const businessList = defineOperation({
  name: 'platform_business_list',
  summary: 'List the client businesses with their switches.',
  description: `Answers every business by code (50 a page by default, \`per_page\` up to 200), each with the contractor-assignment module's switch, the opt-in families switched on, SMS Marketing's migration and revocation (and whether it answers at all: \`usable\`), and the Operations AI Agent's daily turn cap (its own, or the default). Use it to find a business's code and review what its accounts may use. ${ADMIN_ONLY}`,
  tag: TAG,
  roles: PLATFORM_ADMIN,
  rest: { method: 'GET', path: '/v1/platform/businesses' },
  input: z.object(pageParams).strict(),
  output: pageOutput('businesses', businessView),
  examples: pageExample('businesses', [EXAMPLE]),
  async handler(input, ctx) {
    const [total, rows] = await Promise.all([
      repo.countBusinesses(ctx.em),
      repo.listBusinesses(ctx.em, offsetOf(input), input.per_page),
    ]);
    const cap = ctx.config.aiAgentDailyTurnCap;
    return pageOf(
      input,
      'businesses',
      total,
      rows.map((r) => presentBusiness(r, cap)),
    );
  },
});

export const businessGet = defineOperation({
  name: 'platform_business_get',
  summary: "One business's switches.",
  description: `The business whose code is client_code, as platform_business_list shows each. NOT_FOUND for an unknown code. ${ADMIN_ONLY}`,
  tag: TAG,
  roles: PLATFORM_ADMIN,
  rest: { method: 'GET', path: '/v1/platform/businesses/{client_code}' },
  failures: NOT_FOUND,
  input: z.object({ client_code: clientCode() }).strict(),
  output: businessOutput,
  examples: { input: { client_code: 'DEMO' }, output: { result: true, business: EXAMPLE } },
  async handler({ client_code }, ctx) {
    const row = await repo.businessByCode(ctx.em, client_code);
    if (!row) throw errors.notFound();
    return { result: true as const, business: presentBusiness(row, ctx.config.aiAgentDailyTurnCap) };
  },
});

export const assignmentModuleSet = defineOperation({
  name: 'platform_assignment_module_set',
  summary: 'Switch the contractor-assignment module on or off for one business.',
  description: `While it is off, every Broker Order Assignments operation answers MODULE_DISABLED (403) to that business's accounts; its assignments are kept. Other businesses are untouched; the system-wide switch (platform_assignment_availability_set) still comes first. ${AUDITED} NOT_FOUND for an unknown business code. ${ADMIN_ONLY}`,
  tag: TAG,
  roles: PLATFORM_ADMIN,
  rest: { method: 'PUT', path: '/v1/platform/businesses/{client_code}/assignment-module' },
  failures: NOT_FOUND,
  input: z.object({ client_code: clientCode(), enabled: z.boolean() }).strict(),
  output: businessOutput,
  examples: { input: { client_code: 'DEMO', enabled: true }, output: { result: true, business: EXAMPLE } },
  async handler({ client_code, enabled }, ctx) {
    return changeBusiness(ctx, 'platform_assignment_module_set', client_code, (em, b) =>
      repo.setAssignmentModule(em, b.id, enabled),
    );
  },
});

export const familySet = defineOperation({
  name: 'platform_family_set',
  summary: 'Switch an opt-in feature family on or off for one business.',
  description: `The families are order_chat (Order Chat), sms_marketing (SMS Marketing) and ai_agent (Operations AI Agent), each off for a business until switched on. While one is off, every operation of that family answers FEATURE_DISABLED (409, body \`{result: false, feature_enabled: false}\`) to the business's accounts. Switching SMS Marketing on does not lift a revocation, and it answers only once migrated (docs/opt-in-families.md). ${AUDITED} NOT_FOUND for an unknown business code; VALIDATION_FAILED for an unknown family. ${ADMIN_ONLY}`,
  tag: TAG,
  roles: PLATFORM_ADMIN,
  rest: { method: 'PUT', path: '/v1/platform/businesses/{client_code}/families/{family}' },
  failures: NOT_FOUND,
  input: z.object({ client_code: clientCode(), family: z.enum(OPT_IN_FAMILIES), enabled: z.boolean() }).strict(),
  output: businessOutput,
  examples: {
    input: { client_code: 'DEMO', family: 'order_chat', enabled: true },
    output: { result: true, business: EXAMPLE },
  },
  async handler({ client_code, family, enabled }, ctx) {
    return changeBusiness(ctx, 'platform_family_set', client_code, (em, b) =>
      repo.setSwitch(em, b.id, family, enabled),
    );
  },
});

export const smsMarketingRevocationSet = defineOperation({
  name: 'platform_sms_marketing_revocation_set',
  summary: 'Revoke SMS Marketing for one business, or lift the revocation.',
  description: `A revocation is the platform's sanction (abuse, unpaid messages, a sender suspended by the carrier), apart from the family switch: while revoked, SMS Marketing answers FEATURE_DISABLED (409, body \`{result: false, feature_enabled: false}\`) whatever its switch, and switching the family off and on again does not lift it; only \`revoked: false\` does. \`reason\` (up to 500 characters) is kept with the time of the first revocation and shown to the platform admin only. ${AUDITED} NOT_FOUND for an unknown business code. ${ADMIN_ONLY}`,
  tag: TAG,
  roles: PLATFORM_ADMIN,
  rest: { method: 'PUT', path: '/v1/platform/businesses/{client_code}/sms-marketing/revocation' },
  failures: NOT_FOUND,
  input: z
    .object({ client_code: clientCode(), revoked: z.boolean(), reason: z.string().trim().max(500).nullish() })
    .strict(),
  output: businessOutput,
  examples: {
    input: { client_code: 'DEMO', revoked: true, reason: 'Complaints about unsolicited messages' },
    output: {
      result: true,
      business: {
        ...EXAMPLE,
        sms_marketing: {
          migrated: true,
          revoked: true,
          revoked_at: '2026-11-30 09:15:00',
          revoked_reason: 'Complaints about unsolicited messages',
          usable: false,
        },
      },
    },
  },
  async handler({ client_code, revoked, reason }, ctx) {
    return changeBusiness(ctx, 'platform_sms_marketing_revocation_set', client_code, (em, b) =>
      repo.setSmsRevocation(em, b.id, revoked, revoked ? reason || null : null),
    );
  },
});

export const smsMarketingMigrationSet = defineOperation({
  name: 'platform_sms_marketing_migration_set',
  summary: "Mark one business's SMS Marketing as migrated (its SMS sender set up), or not.",
  description: `SMS Marketing answers FEATURE_DISABLED (409, body \`{result: false, feature_enabled: false}\`) to a business not migrated, even with the family switched on: set \`migrated: true\` once the business's SMS sender and its contacts are set up on this platform, \`false\` to hold the family while they are moved again (docs/opt-in-families.md). ${AUDITED} NOT_FOUND for an unknown business code. ${ADMIN_ONLY}`,
  tag: TAG,
  roles: PLATFORM_ADMIN,
  rest: { method: 'PUT', path: '/v1/platform/businesses/{client_code}/sms-marketing/migration' },
  failures: NOT_FOUND,
  input: z.object({ client_code: clientCode(), migrated: z.boolean() }).strict(),
  output: businessOutput,
  examples: { input: { client_code: 'DEMO', migrated: true }, output: { result: true, business: EXAMPLE } },
  async handler({ client_code, migrated }, ctx) {
    return changeBusiness(ctx, 'platform_sms_marketing_migration_set', client_code, (em, b) =>
      repo.setSwitch(em, b.id, 'migrated', migrated),
    );
  },
});

export const aiTurnCapSet = defineOperation({
  name: 'platform_ai_agent_turn_cap_set',
  summary: "Set the Operations AI Agent's daily turn cap for one business, or return it to the default.",
  description: `The most turns the business's accounts may take with the Operations AI Agent in a day, from 1 to 100000; null returns the business to the default (AI_AGENT_DAILY_TURN_CAP, shown by platform_settings_get). Past the cap the agent answers DAILY_CAP_REACHED (429). The cap applies whether or not the family is switched on. ${AUDITED} NOT_FOUND for an unknown business code. ${ADMIN_ONLY}`,
  tag: TAG,
  roles: PLATFORM_ADMIN,
  rest: { method: 'PUT', path: '/v1/platform/businesses/{client_code}/ai-agent/daily-turn-cap' },
  failures: NOT_FOUND,
  input: z
    .object({ client_code: clientCode(), daily_turn_cap: z.number().int().min(1).max(100_000).nullable() })
    .strict(),
  output: businessOutput,
  examples: {
    input: { client_code: 'DEMO', daily_turn_cap: 500 },
    output: { result: true, business: { ...EXAMPLE, ai_agent: { daily_turn_cap: 500, daily_turn_cap_set: 500 } } },
  },
  async handler({ client_code, daily_turn_cap }, ctx) {
    return changeBusiness(ctx, 'platform_ai_agent_turn_cap_set', client_code, (em, b) =>
      repo.setSwitch(em, b.id, 'cap', daily_turn_cap),
    );
  },
});

/** The settings' answer, for the assignment module's stored switch (null: the environment's value applies). */
const settingsAnswer = (set: boolean | null, config: OperationContext['config']) => ({
  result: true as const,
  assignment_module: {
    available: set ?? config.assignmentModuleAvailable,
    source: set === null ? ('environment' as const) : ('platform' as const),
  },
  ai_agent: { default_daily_turn_cap: config.aiAgentDailyTurnCap },
});

export const settingsGet = defineOperation({
  name: 'platform_settings_get',
  summary: 'The platform-wide settings: the assignment module system-wide, the AI agent default cap.',
  description: `Whether the contractor-assignment module is available system-wide, and where that comes from: \`platform\` once the platform admin has switched it (platform_assignment_availability_set), \`environment\` (ASSIGNMENT_MODULE_AVAILABLE) until then; and the Operations AI Agent's default daily turn cap (AI_AGENT_DAILY_TURN_CAP), which applies to every business without a cap of its own. ${ADMIN_ONLY}`,
  tag: TAG,
  roles: PLATFORM_ADMIN,
  rest: { method: 'GET', path: '/v1/platform/settings' },
  input: z.object({}).strict(),
  output: settingsOutput,
  async handler(_input, ctx) {
    return settingsAnswer(await assignmentAvailabilitySet(ctx), ctx.config);
  },
});

export const assignmentAvailabilitySetOp = defineOperation({
  name: 'platform_assignment_availability_set',
  summary: 'Switch the contractor-assignment module on or off for the whole system.',
  description: `While it is off, every Broker Order Assignments operation answers MODULE_UNAVAILABLE (503) to every caller, before roles and the per-business switch are looked at; assignments are kept. \`available: null\` removes the platform admin's switch, so that ASSIGNMENT_MODULE_AVAILABLE applies again. Every API process follows within milliseconds of the change. Kept in the platform audit trail (subject \`platform:assignment_module_available\`) with the setting before and after. ${ADMIN_ONLY}`,
  tag: TAG,
  roles: PLATFORM_ADMIN,
  rest: { method: 'PUT', path: '/v1/platform/settings/assignment-module' },
  input: z.object({ available: z.boolean().nullable() }).strict(),
  output: settingsOutput,
  examples: {
    input: { available: false },
    output: {
      result: true,
      assignment_module: { available: false, source: 'platform' },
      ai_agent: { default_daily_turn_cap: 200 },
    },
  },
  async handler({ available }, ctx) {
    const key = SETTINGS.assignmentModuleAvailable;
    return auditedChange(ctx, 'platform_assignment_availability_set', `platform:${key}`, async (em) => {
      await repo.lockSetting(em, key);
      const was = await repo.settingOf(em, key);
      await repo.setSetting(em, key, available);
      const before = settingsAnswer(typeof was === 'boolean' ? was : null, ctx.config).assignment_module;
      const answer = settingsAnswer(available, ctx.config);
      return { before, after: answer.assignment_module, answer };
    });
  },
});

const CUSTOMER_ONLY =
  "Only a client admin may call it, for a customer account of its own business: NOT_FOUND for any other account or another business's customer.";

export const priceHidingGet = defineOperation({
  name: 'customer_price_hiding_get',
  summary: 'The price families hidden from one customer account.',
  description: `For each family listed (local_delivery, label_service, shipping_service, ltl_service, storage_services, moving_services, device_orders), what the customer is sent about an order of that family leaves out every price field and carries \`price_hidden: true\` (webhooks included: docs/webhooks.md). ${CUSTOMER_ONLY}`,
  tag: 'Price hiding',
  roles: ['client_admin'],
  business: true,
  rest: { method: 'GET', path: '/v1/client/customers/{id}/hidden-price-families' },
  failures: { NOT_FOUND: "No customer account of the caller's business has this id" },
  input: z.object({ id: pathId }).strict(),
  output: priceHidingView,
  examples: {
    input: { id: 42 },
    output: { result: true, customer_id: 42, hidden_price_families: ['local_delivery', 'device_orders'] },
  },
  async handler({ id }, ctx) {
    const customer = await repo.customerOf(ctx.em, ctx.caller.businessId, id);
    if (!customer) throw errors.notFound();
    return presentPriceHiding(customer);
  },
});

export const priceHidingSet = defineOperation({
  name: 'customer_price_hiding_set',
  summary: 'Set which price families are hidden from one customer account.',
  description: `Replaces the list: the families named are hidden from the customer, every other family shown (an empty list shows every price). Each family once, any order; the answer lists them in the platform's order. Takes effect for everything sent after it, webhook retries of earlier events included. Kept in the platform audit trail (subject \`business:<code>/customer:<id>\`) with the list before and after. VALIDATION_FAILED for an unknown family. ${CUSTOMER_ONLY}`,
  tag: 'Price hiding',
  roles: ['client_admin'],
  business: true,
  rest: { method: 'PUT', path: '/v1/client/customers/{id}/hidden-price-families' },
  failures: { NOT_FOUND: "No customer account of the caller's business has this id" },
  input: z.object({ id: pathId, families: priceFamilies() }).strict(),
  output: priceHidingView,
  examples: {
    input: { id: 42, families: ['local_delivery', 'device_orders'] },
    output: { result: true, customer_id: 42, hidden_price_families: ['local_delivery', 'device_orders'] },
  },
  async handler({ id, families }, ctx) {
    const business = await repo.businessCode(ctx.em, ctx.caller.businessId);
    return auditedChange(ctx, 'customer_price_hiding_set', `business:${business}/customer:${id}`, async (em) => {
      const was = await repo.customerOf(em, ctx.caller.businessId, id, true);
      if (!was) throw errors.notFound();
      await repo.setHiddenPriceFamilies(em, id, families);
      const now = { ...was, hidden_price_families: families };
      return {
        before: { hidden_price_families: was.hidden_price_families },
        after: { hidden_price_families: families },
        answer: presentPriceHiding(now),
      };
    });
  },
});

export const PLATFORM_ADMIN_OPERATIONS = [
  businessList,
  businessGet,
  assignmentModuleSet,
  familySet,
  smsMarketingRevocationSet,
  smsMarketingMigrationSet,
  aiTurnCapSet,
  settingsGet,
  assignmentAvailabilitySetOp,
  priceHidingGet,
  priceHidingSet,
];
