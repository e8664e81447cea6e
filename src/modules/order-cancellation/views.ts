import { z } from 'zod';
import type { Role } from '../../platform/roles.ts';
import { orderCancellationWorkflowId } from './contract.ts';
import { CANCELLATION_STATUSES } from './domain.ts';
import { ORDER_STATUSES } from '../orders/index.ts';
import type { CancellationRow } from './repo.ts';

/** The carrier's refusal code as a customer account reads it (the webhook masking's rule, docs/webhooks.md). */
const CANCEL_REFUSED_CODE = 'ORDER_CANCEL_REFUSED';

export const CancellationView = z.object({
  id: z.number().int().describe('Cancellation request id'),
  order_id: z.number().int(),
  status: z
    .enum(CANCELLATION_STATUSES)
    .describe(
      'cancelled; refused or timed_out (order.cancel_failed was sent); awaiting_provider while the delivery provider holding the order decides',
    ),
  reason: z.string().nullable().describe('Why it was asked, as the requester wrote it'),
  refusal_code: z
    .string()
    .nullable()
    .describe(
      "Why it was refused: the service's code, or the delivery provider's (ORDER_CANCEL_REFUSED for a customer account)",
    ),
  message: z.string().nullable(),
  provider_code: z
    .string()
    .nullable()
    .describe('The delivery provider asked; null when none was, and for customer accounts'),
  assignment_number: z.string().nullable(),
  requested_at: z.string(),
  answer_deadline: z
    .string()
    .nullable()
    .describe('The provider answers by then, or the request is refused (timed_out)'),
  ended_at: z.string().nullable(),
  workflow_id: z.string().nullable().describe('The waiting process, for the Temporal UI; null when decided at once'),
});
export type CancellationView = z.input<typeof CancellationView>;

export const OrderStateView = z.object({
  id: z.number().int(),
  status_id: z.number().int(),
  status: z.string(),
});

export const orderStateOf = (id: number, statusId: number) => ({
  id,
  status_id: statusId,
  status: ORDER_STATUSES.find((s) => s.id === statusId)?.code ?? 'UNKNOWN',
});

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * The request as the caller may read it: a customer account sees a delivery provider's refusal as
 * ORDER_CANCEL_REFUSED, in the service's words, and neither the provider nor its assignment.
 */
export function presentCancellation(c: CancellationRow, role: Role): CancellationView {
  const masked = role === 'customer' && c.provider_id !== null;
  const providerRefused = masked && (c.status === 'refused' || c.status === 'timed_out') && c.assignment_id !== null;
  return {
    id: c.id,
    order_id: c.order_id,
    status: c.status,
    reason: c.reason,
    refusal_code: providerRefused && c.refusal_code ? CANCEL_REFUSED_CODE : c.refusal_code,
    message: providerRefused ? null : c.message,
    provider_code: masked ? null : c.provider_code,
    assignment_number: masked ? null : c.assignment_number,
    requested_at: iso(c.requested_at)!,
    answer_deadline: iso(c.answer_deadline),
    ended_at: iso(c.ended_at),
    workflow_id: c.provider_id === null || masked ? null : orderCancellationWorkflowId(c.order_id),
  };
}
