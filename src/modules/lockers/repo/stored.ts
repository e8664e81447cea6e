/** The parcels the business's lockers hold, one per occupied compartment, for the OTEP storage read. */
import type { Em } from '../../../platform/db/orm.ts';

export interface StoredParcel {
  compartment_id: number;
  device_code: string;
  device_name: string;
  grid_code: string;
  compartment_number: number;
  placed_at: Date;
  held_by: 'device-order' | 'locker-delivery';
  /** The parcel's tracking number when it is one of an order's (a device order's order), else its own reference. */
  reference: string;
}

/**
 * The occupied compartments of the business's lockers (of one locker when `deviceCode` is given), by compartment id
 * after `after`, at most `limit`: whichever process holds each, and the parcel's reference.
 */
export function storedParcels(
  em: Em,
  businessId: number,
  opts: { deviceCode?: string; after: number; limit: number },
): Promise<StoredParcel[]> {
  return em.execute<StoredParcel[]>(
    `select c.id as compartment_id, dv.code as device_code, dv.name as device_name, c.grid_code, c.compartment_number,
       cp.placed_at, case when cp.device_order_id is not null then 'device-order' else 'locker-delivery' end as held_by,
       coalesce(o.tracking_number, d.reference_number, lp.reference) as reference
     from compartment_parcel cp
     join compartment c on c.id = cp.compartment_id
     join device dv on dv.id = c.device_id
     left join device_order d on d.id = cp.device_order_id
     left join delivery_order o on o.id = d.order_id
     left join locker_delivery_parcel lp on lp.id = cp.locker_parcel_id
     where dv.business_id = ? and (?::text is null or dv.code = ?) and c.id > ?
     order by c.id limit ?`,
    [businessId, opts.deviceCode ?? null, opts.deviceCode ?? null, opts.after, opts.limit],
  );
}
