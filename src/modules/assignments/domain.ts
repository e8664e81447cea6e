import { ASSIGNABLE_STATUS_IDS } from '../orders/index.ts';

export const ASSIGNMENT_STATUSES = ['active', 'revoked', 'released'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

/** Why an order cannot be assigned; each is a message key translated for the caller. */
export type AssignRefusal =
  | 'assignment.on_route'
  | 'assignment.not_self_delivery'
  | 'assignment.not_assignable_status'
  | 'assignment.carrier_held'
  | 'assignment.already_assigned';

export interface AssignableOrder {
  routeId?: number | null;
  selfDelivery: boolean;
  statusId: number;
  carrierProviderId?: number | null;
}

/** The refusal for assigning this order, in the order the specification lists them, or null. */
export function assignRefusal(order: AssignableOrder): AssignRefusal | null {
  if (order.routeId != null) return 'assignment.on_route';
  if (!order.selfDelivery) return 'assignment.not_self_delivery';
  if (!ASSIGNABLE_STATUS_IDS.includes(order.statusId)) return 'assignment.not_assignable_status';
  if (order.carrierProviderId != null) return 'assignment.carrier_held';
  return null;
}
