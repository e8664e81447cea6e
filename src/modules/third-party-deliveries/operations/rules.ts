/** A business's rules that hand new orders to delivery providers, and the hook that applies them. */
import { z } from 'zod';
import { errors } from '../../../platform/errors.ts';
import { intParam, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { findDeliveryProvider } from '../../identity/index.ts';
import type { CreatedOrder } from '../../orders/index.ts';
import { deadlineHours, deadlineOf, providerCode, startAssignment } from './assignments.ts';
import { nextAssignmentId } from '../repo/assignments.ts';
import { endRule, findMatchingRule, insertRule, listRules, type RuleRow } from '../repo/rules.ts';

const TAG = 'Third-party deliveries';

const RuleView = z.object({
  id: z.number().int(),
  provider_code: z.string(),
  postal_code_prefix: z.string().nullable(),
  max_weight_grams: z.number().int().nullable(),
  max_side_mm: z.number().int().nullable(),
  handover_deadline_hours: z.number().int().nullable(),
  created_at: z.string(),
  ended_at: z.string().nullable(),
});

const present = (r: RuleRow): z.input<typeof RuleView> => ({
  ...r,
  created_at: new Date(r.created_at).toISOString(),
  ended_at: r.ended_at && new Date(r.ended_at).toISOString(),
});

export const thirdPartyRuleCreate = defineOperation({
  name: 'third_party_rule_create',
  summary:
    'A rule that hands each new order it matches (postal code prefix, weight, longest side) to a delivery provider; rules are tried oldest first.',
  description:
    "A condition left out matches anything, so a rule without conditions takes every new order. A rule applies only to orders created after it, at their creation: the first live rule an order matches assigns it (`source: rule`) and the order-creation answer carries the assignment number; a package of unknown weight or size never matches a limit on it. Refuses a `provider_code` that is not a delivery provider's (VALIDATION_FAILED).",
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/third-party-rules', status: 201 },
  graphql: { name: 'thirdPartyRuleCreate', kind: 'mutation' },
  input: z
    .object({
      provider_code: providerCode,
      postal_code_prefix: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{0,19}$/, 'postal code prefix')
        .transform((p) => p.replace(/ /g, '').toUpperCase())
        .nullish()
        .describe('Orders whose recipient postal code starts with it (any case, spaces ignored)'),
      max_weight_grams: intParam(1_000_000)
        .nullish()
        .describe('Orders whose every package weighs at most this (a package of unknown weight never matches)'),
      max_side_mm: intParam(10_000)
        .nullish()
        .describe(
          'Orders whose every package measures at most this on its longest side (an unmeasured package never matches)',
        ),
      handover_deadline_hours: deadlineHours,
    })
    .strict(),
  output: z.object({ result: z.literal(true), rule: RuleView }),
  async handler(input, ctx) {
    const providerId = await findDeliveryProvider(ctx.em, input.provider_code);
    if (providerId === null) throw errors.field('provider_code', 'field.not_a_delivery_provider');
    const rule = await insertRule(ctx.em, ctx.caller.businessId, ctx.caller.id, {
      providerId,
      postalCodePrefix: input.postal_code_prefix ?? null,
      maxWeightGrams: input.max_weight_grams ?? null,
      maxSideMm: input.max_side_mm ?? null,
      handoverDeadlineHours: input.handover_deadline_hours ?? null,
    });
    return { result: true as const, rule: present(rule) };
  },
});

export const thirdPartyRuleList = defineOperation({
  name: 'third_party_rule_list',
  summary: "The business's third-party rules: live ones in the order they are tried, then ended ones.",
  description:
    'Each rule with its provider, its conditions (null: any), its handover deadline and when it was created and ended. Live rules come first in the order they are tried, oldest first, so the first one a new order matches is the one that assigns it; ended rules stay listed for the record. Takes no filter and no pagination.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'GET', path: '/v1/third-party-rules' },
  graphql: { name: 'thirdPartyRules', kind: 'query' },
  input: z.object({}).strict(),
  output: z.object({ result: z.literal(true), rules: z.array(RuleView) }),
  async handler(_input, ctx) {
    return { result: true as const, rules: (await listRules(ctx.em, ctx.caller.businessId)).map(present) };
  },
});

export const thirdPartyRuleEnd = defineOperation({
  name: 'third_party_rule_end',
  summary: 'End a rule: new orders no longer match it; assignments it made stay.',
  description:
    'Rules are ended rather than deleted: the rule stays listed with its `ended_at`, and the assignments it made keep running (cancel or reassign them one by one). To change a rule, end it and create another, which is then tried after the older live rules. An unknown id, one of another business, or a rule already ended answers NOT_FOUND.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'DELETE', path: '/v1/third-party-rules/{id}' },
  failures: { NOT_FOUND: 'No live rule of the business has this id' },
  graphql: { name: 'thirdPartyRuleEnd', kind: 'mutation' },
  input: z.object({ id: pathId }).strict(),
  output: z.object({ result: z.literal(true), rule: RuleView }),
  async handler(input, ctx) {
    const rule = await endRule(ctx.em, ctx.caller.businessId, input.id);
    if (!rule) throw errors.notFound();
    return { result: true as const, rule: present(rule) };
  },
});

/** After an order is created: the first rule it matches hands it to that rule's provider. */
export async function assignByRules(
  ctx: BusinessContext,
  order: CreatedOrder,
): Promise<{ thirdPartyAssignment: string } | null> {
  const rule = await findMatchingRule(ctx.em, order.businessId, order.id, order.postalCode);
  if (!rule) return null;
  const process = {
    id: await nextAssignmentId(ctx.em),
    businessId: order.businessId,
    orderId: order.id,
    providerId: rule.providerId,
    handoverDeadline: deadlineOf(ctx, rule.handoverDeadlineHours ?? undefined),
  };
  return { thirdPartyAssignment: (await startAssignment(ctx, process, 'rule')).number };
}
