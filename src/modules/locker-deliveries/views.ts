import { z } from 'zod';
import { COMPARTMENT_SIZES, pickupLockerCode } from '../lockers/index.ts';
import { LOCKER_DELIVERY_STATUSES, OPEN_MODES, type LockerDeliveryStatus, type OpenMode } from './domain.ts';

const time = (description: string) => z.string().meta({ format: 'date-time', description });

export const ParcelView = z
  .object({
    reference: z.string().describe("The provider's parcel reference"),
    size: z.enum(COMPARTMENT_SIZES).describe('Compartment size the parcel needs'),
    grid_id: z.number().int().describe('Compartment id'),
    compartment_number: z.number().int().describe('Hardware door number'),
    pickup_locker_number: z.number().int().nullable().describe('Number shown on the door'),
    pickup_locker_code: z.string().nullable().describe("'{shelf_code}-{pickup_locker_number}'; null without a number"),
    failure_code: z.string().nullable().describe('Why this parcel failed'),
  })
  .strict();

/** A partner locker delivery as the provider sees it: never a code. */
export const LockerDeliveryView = z
  .object({
    id: z.number().int().describe('Delivery id'),
    status: z.enum(LOCKER_DELIVERY_STATUSES).describe('Delivery status'),
    device_id: z
      .string()
      .describe('Device code')
      .meta({ examples: ['DEMO-LOCKER-1'] }),
    open_mode: z.enum(OPEN_MODES).describe('How the courier opens the doors'),
    livemode: z.boolean().describe('False on a sandbox (simulated) locker'),
    recipient: z
      .object({
        name: z.string().meta({ examples: ['Jana Novakova'] }),
        phone: z.string().nullable(),
        email: z.string().nullable(),
      })
      .strict(),
    parcels: z.array(ParcelView),
    confirmed_by: z.string().nullable().describe('What confirmed the deposit'),
    delivery_code_expires_at: time('When an unused delivery code expires'),
    delivered_at: time('When the deposit was confirmed').nullable(),
    pickup_expires_at: time('When an uncollected deposit expires').nullable(),
    ended_at: time('When it ended').nullable(),
    created_at: time('When it was created'),
  })
  .strict();
export type LockerDeliveryView = z.infer<typeof LockerDeliveryView>;

export interface LockerDeliveryRow {
  id: number;
  status: LockerDeliveryStatus;
  device_code: string;
  open_mode: OpenMode;
  livemode: boolean;
  recipient: { name: string; phone?: string | null; email?: string | null };
  parcels: {
    reference: string;
    size: z.infer<typeof ParcelView>['size'];
    grid_id: number;
    compartment_number: number;
    pickup_locker_number: number | null;
    shelf_code: string;
    failure_code: string | null;
  }[];
  confirmed_by: string | null;
  delivery_code_expires_at: Date | string;
  delivered_at: Date | string | null;
  pickup_ttl_seconds: number;
  ended_at: Date | string | null;
  created_at: Date | string;
}

const iso = (v: Date | string): string => new Date(v).toISOString();
const isoOrNull = (v: Date | string | null): string | null => (v === null ? null : iso(v));

export function presentLockerDelivery(r: LockerDeliveryRow): LockerDeliveryView {
  return {
    id: r.id,
    status: r.status,
    device_id: r.device_code,
    open_mode: r.open_mode,
    livemode: r.livemode,
    recipient: { name: r.recipient.name, phone: r.recipient.phone ?? null, email: r.recipient.email ?? null },
    parcels: r.parcels.map((p) => ({
      reference: p.reference,
      size: p.size,
      grid_id: p.grid_id,
      compartment_number: p.compartment_number,
      pickup_locker_number: p.pickup_locker_number,
      pickup_locker_code: pickupLockerCode({ shelfCode: p.shelf_code, pickupLockerNumber: p.pickup_locker_number }),
      failure_code: p.failure_code,
    })),
    confirmed_by: r.confirmed_by,
    delivery_code_expires_at: iso(r.delivery_code_expires_at),
    delivered_at: isoOrNull(r.delivered_at),
    pickup_expires_at:
      r.delivered_at === null ? null : iso(new Date(new Date(r.delivered_at).getTime() + r.pickup_ttl_seconds * 1000)),
    ended_at: isoOrNull(r.ended_at),
    created_at: iso(r.created_at),
  };
}
