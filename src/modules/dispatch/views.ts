/** What dispatch's operations answer. */
import { z } from 'zod';
import { ORDER_STATUSES } from '../orders/index.ts';

const STATUS_CODE = new Map<number, string>(ORDER_STATUSES.map((s) => [s.id, s.code]));

export const OrderStateView = z.object({
  id: z.number().int(),
  status_id: z.number().int(),
  status: z.string().describe('The status code, e.g. DELIVERED'),
});
export const orderStateOf = (id: number, statusId: number) => ({
  id,
  status_id: statusId,
  status: STATUS_CODE.get(statusId) ?? 'UNKNOWN',
});

export const AssignmentView = z.object({
  order: OrderStateView,
  driver_id: z.number().int().nullable().describe('The driver the order is with now; null when none'),
  route_id: z.number().int().nullable().describe("The driver's route of the order's date the order is on"),
  changed: z.boolean().describe('False when nothing changed (the order was with that driver already)'),
});

export const OfferView = z.object({
  offer_id: z.number().int(),
  order_id: z.number().int(),
  driver_id: z.number().int(),
  status: z.enum(['open', 'accepted', 'rejected', 'timed_out', 'withdrawn']),
  deadline: z.string().describe('ISO 8601: the answer must come before'),
});

export const OpenOfferView = z.object({
  offer_id: z.number().int(),
  order: z.object({
    id: z.number().int(),
    order_ref: z.string().nullable(),
    tracking_number: z.string(),
    type: z.string(),
    scheduled_date: z.string(),
    recipient_name: z.string(),
    address: z.record(z.string(), z.unknown()),
  }),
  offered_at: z.string(),
  deadline: z.string(),
});
