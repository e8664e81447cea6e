/** The interception as every operation answers it (docs/orders.md, "Interception"). */
import { z } from 'zod';
import { addressView } from '../../platform/catalog/schemas.ts';
import type { Language } from '../../platform/i18n/languages.ts';
import { allMessages, translate, type MessageKey } from '../../platform/i18n/messages.ts';
import { HELD_SOURCES, INTERCEPT_OUTCOMES, INTERCEPTION_STATES, REQUEST_CHANNELS } from './contract.ts';
import type { InterceptionRow } from './repo.ts';

export const InterceptionView = z.object({
  id: z.number().int(),
  order_id: z.number().int(),
  state: z.enum(INTERCEPTION_STATES).describe('The step it is at (docs/orders.md, Interception)'),
  outcome: z.enum(INTERCEPT_OUTCOMES).describe('What is done with the parcel once it is held'),
  new_address: addressView.nullable().describe('Where the parcel goes for redeliver; null otherwise'),
  requested_via: z
    .enum(REQUEST_CHANNELS)
    .describe("back_office: the business's staff; api: an AI agent over MCP; customer: the order's customer account"),
  reason: z.string().nullable().describe('The reason the requester gave'),
  end_reason: z
    .string()
    .nullable()
    .describe(
      'Why it was rejected (delivered, cancelled, returned_to_sender, refused_by_recipient, not_in_transit, already_intercepted, carrier_held: a delivery provider carries the order, cancel_pending: a cancellation waits for its provider, order_gone) or failed (not_held_in_time)',
    ),
  end_message: z.string().nullable().describe("end_reason in the caller's language; null when it has none"),
  status_before: z.number().int().nullable().describe("The order's status when it was requested"),
  status_after: z
    .number()
    .int()
    .nullable()
    .describe('The status its last step left the order in: 48 while in effect; null when it moved none'),
  hold_deadline: z.string().nullable().describe('The parcel is to be held at a warehouse by then, or it fails'),
  held_at: z
    .object({
      place: z.string().nullable(),
      package_number: z.string(),
      source: z
        .enum(HELD_SOURCES)
        .describe("A warehouse scan, the carrier's event, or the order was at a warehouse when intercepted"),
      occurred_at: z.string(),
    })
    .nullable()
    .describe('Where and when the parcel was seen at a warehouse'),
  workflow_id: z.string().nullable().describe('Its process in the Temporal UI; null for a customer account'),
  created_at: z.string(),
  ended_at: z.string().nullable(),
});
export type InterceptionView = z.infer<typeof InterceptionView>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The end reason in the caller's language (messages.ts, `interception.end.<reason>`). */
function endMessage(reason: string | null, lang: Language): string | null {
  const key = `interception.end.${reason}`;
  return reason !== null && allMessages().has(key) ? translate(key as MessageKey, lang) : null;
}

/** The interception as the caller sees it: a customer account is not shown the workflow id, as in the order snapshot. */
export function presentInterception(r: InterceptionRow, staff: boolean, lang: Language): InterceptionView {
  const a = r.new_address;
  return {
    id: r.id,
    order_id: r.order_id,
    state: r.state,
    outcome: r.outcome,
    new_address: a
      ? {
          line1: a.line1,
          line2: a.line2 ?? null,
          city: a.city,
          postal_code: a.postal_code,
          country: a.country,
          lat: a.lat ?? null,
          lng: a.lng ?? null,
        }
      : null,
    requested_via: r.channel,
    reason: r.request_reason,
    end_reason: r.end_reason,
    end_message: endMessage(r.end_reason, lang),
    status_before: r.status_before,
    status_after: r.status_after,
    hold_deadline: iso(r.hold_deadline),
    held_at:
      r.held_at && r.held_package && r.held_source
        ? { place: r.held_place, package_number: r.held_package, source: r.held_source, occurred_at: iso(r.held_at)! }
        : null,
    workflow_id: staff ? r.workflow_id : null,
    created_at: iso(r.created_at)!,
    ended_at: iso(r.ended_at),
  };
}
