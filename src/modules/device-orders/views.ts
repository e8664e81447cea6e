import { z } from 'zod';
import {
  DEVICE_ORDER_KINDS,
  DEVICE_ORDER_STATUSES,
  NEXT_ACTORS,
  REMOVAL_REASONS,
  type DeviceOrderKind,
  type DeviceOrderStatus,
  type NextActor,
  type RemovalReason,
} from './domain.ts';

/** A device_order row joined with its device, as the database returns it. */
export interface DeviceOrderRow {
  id: number;
  kind: DeviceOrderKind;
  status: DeviceOrderStatus;
  next_actor: NextActor;
  device_id: number;
  device_code: string;
  device_name: string;
  device_type: string;
  grid_code: string;
  reference_number: string;
  order_id: number | null;
  external_order_id: string | null;
  due_at: Date | string;
  overdue_at: Date | string | null;
  stored_at: Date | string;
  ended_at: Date | string | null;
  removal_reason: RemovalReason | null;
}

/** A date-time string of a view. */
export const time = (description: string) => z.string().meta({ format: 'date-time', description });

/**
 * The specification's data.device_order, defined once: the API answers it, its TypeScript type is inferred from
 * it, and the device order events' payload schema is derived from it. The pickup code is not part of it, and the
 * schema is closed, so a code can never slip into an answer or an event unnoticed.
 */
export const DeviceOrderView = z
  .object({
    id: z.number().int().describe('Device order id'),
    kind: z.enum(DEVICE_ORDER_KINDS).describe('What the compartment is used for'),
    status: z.enum(DEVICE_ORDER_STATUSES).describe('Device order status'),
    next_actor: z.enum(NEXT_ACTORS).describe('Who has to act next'),
    device_type: z
      .string()
      .describe('Device type, for example locker')
      .meta({ examples: ['locker'] }),
    device_id: z
      .string()
      .describe('Device code')
      .meta({ examples: ['DEMO-LOCKER-1'] }),
    device_name: z
      .string()
      .describe('Device name')
      .meta({ examples: ['Demo Locker 1'] }),
    grid_code: z
      .string()
      .describe('Compartment code')
      .meta({ examples: ['A07'] }),
    reference_number: z
      .string()
      .describe('Parcel reference')
      .meta({ examples: ['PKG-20250312-0042'] }),
    order_id: z.number().int().nullable().describe('Linked order id'),
    external_order_id: z
      .string()
      .nullable()
      .describe("Caller's order id")
      .meta({ examples: ['SHOP-10042'] }),
    due_at: time('Pickup deadline'),
    overdue_at: time('When it became overdue').nullable(),
    stored_at: time('When the parcel was placed'),
    ended_at: time('When it was collected or removed').nullable(),
    removal_reason: z.enum(REMOVAL_REASONS).nullable().describe('Why staff removed it'),
  })
  .strict();
export type DeviceOrderView = z.infer<typeof DeviceOrderView>;

export const iso = (v: Date | string): string => new Date(v).toISOString();
export const isoOrNull = (v: Date | string | null): string | null => (v === null ? null : iso(v));

export function presentDeviceOrder(r: DeviceOrderRow): DeviceOrderView {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    next_actor: r.next_actor,
    device_type: r.device_type,
    device_id: r.device_code,
    device_name: r.device_name,
    grid_code: r.grid_code,
    reference_number: r.reference_number,
    order_id: r.order_id,
    external_order_id: r.external_order_id,
    due_at: iso(r.due_at),
    overdue_at: isoOrNull(r.overdue_at),
    stored_at: iso(r.stored_at),
    ended_at: isoOrNull(r.ended_at),
    removal_reason: r.removal_reason,
  };
}
