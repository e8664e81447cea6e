/** The shapes the platform admin's and the business admin's switches answer, and their presenters. */
import { z } from 'zod';
import { PRICE_FAMILIES } from '../../platform/db/outbox.ts';
import { formatDateTime } from '../../platform/time.ts';
import type { BusinessRow, CustomerRow } from './repo.ts';

export const businessView = z.object({
  code: z.string(),
  name: z.string(),
  /** The contractor-assignment module for this business (403 MODULE_DISABLED while off). */
  assignment_module_enabled: z.boolean(),
  /** The opt-in families switched on for this business. */
  families: z.object({ order_chat: z.boolean(), sms_marketing: z.boolean(), ai_agent: z.boolean() }),
  sms_marketing: z.object({
    migrated: z.boolean(),
    revoked: z.boolean(),
    revoked_at: z.string().nullable(),
    revoked_reason: z.string().nullable(),
    /** Whether SMS Marketing answers at all: switched on, migrated and not revoked. */
    usable: z.boolean(),
  }),
  ai_agent: z.object({
    /** The cap that applies: the business's own, else the configured default. */
    daily_turn_cap: z.number().int(),
    /** The business's own cap; null when the default applies. */
    daily_turn_cap_set: z.number().int().nullable(),
  }),
});
export type BusinessView = z.input<typeof businessView>;

export function presentBusiness(r: BusinessRow, defaultCap: number): BusinessView {
  const revoked = r.sms_marketing_revoked_at !== null;
  return {
    code: r.code,
    name: r.name,
    assignment_module_enabled: r.assignment_module_enabled,
    families: { order_chat: r.order_chat, sms_marketing: r.sms_marketing, ai_agent: r.ai_agent },
    sms_marketing: {
      migrated: r.sms_marketing_migrated,
      revoked,
      revoked_at: revoked ? formatDateTime(new Date(r.sms_marketing_revoked_at!)) : null,
      revoked_reason: r.sms_marketing_revoked_reason,
      usable: r.sms_marketing && r.sms_marketing_migrated && !revoked,
    },
    ai_agent: {
      daily_turn_cap: r.ai_agent_daily_turn_cap ?? defaultCap,
      daily_turn_cap_set: r.ai_agent_daily_turn_cap,
    },
  };
}

export const businessOutput = z.object({ result: z.literal(true), business: businessView });

export const settingsOutput = z.object({
  result: z.literal(true),
  assignment_module: z.object({
    available: z.boolean(),
    /** `platform`: the platform admin's switch; `environment`: ASSIGNMENT_MODULE_AVAILABLE, never switched. */
    source: z.enum(['platform', 'environment']),
  }),
  ai_agent: z.object({ default_daily_turn_cap: z.number().int() }),
});

/** The price families to hide, each once (sent twice, kept once), in the platform's order. */
export const priceFamilies = () =>
  z
    .array(z.enum(PRICE_FAMILIES))
    .max(PRICE_FAMILIES.length * 4)
    .transform((l) => PRICE_FAMILIES.filter((f) => l.includes(f)));

export const priceHidingView = z.object({
  result: z.literal(true),
  customer_id: z.number().int(),
  hidden_price_families: z.array(z.enum(PRICE_FAMILIES)),
});

export const presentPriceHiding = (c: CustomerRow): z.input<typeof priceHidingView> => ({
  result: true,
  customer_id: c.id,
  // Only the families the platform knows, in its order, whatever the column was once given by hand.
  hidden_price_families: PRICE_FAMILIES.filter((f) => c.hidden_price_families.includes(f)),
});
