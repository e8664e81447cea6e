import type { Em } from '../../../platform/db/orm.ts';
import { newestPositions } from '../../driver-location/index.ts';
import type { DriverStatus } from '../domain.ts';
import { driverRows } from './drivers.ts';

export interface PlanningDriver {
  driverId: number;
  name: string;
  status: DriverStatus;
  onDuty: boolean;
  capacity: { weightKg: number | null; volumeL: number | null; parcels: number | null };
  skills: string[];
  /** 'HH:MM' in the business's timezone; null: the whole day. */
  shift: { start: string; end: string } | null;
  breaks: { start: string; end: string; minutes: number }[];
  depot: { lat: number; lng: number } | null;
  maxRouteMinutes: number | null;
  /** The newest position the driver app reported (driver-location). */
  position: { lat: number; lng: number; recordedAt: string } | null;
}

/** The business's drivers (all, or those ids), with their newest position; never another business's. */
export async function planningDrivers(
  em: Em,
  businessId: number,
  driverIds?: readonly number[],
): Promise<PlanningDriver[]> {
  const { rows } = await driverRows(em, businessId, { ids: driverIds });
  if (rows.length === 0) return [];
  const positions = await newestPositions(
    em,
    businessId,
    rows.map((r) => r.user_id),
  );
  const byDriver = new Map(positions.map((p) => [p.driverId, p]));
  return rows.map((r) => {
    const pos = byDriver.get(r.user_id);
    return {
      driverId: r.user_id,
      name: r.name,
      status: r.status,
      onDuty: r.on_duty,
      capacity: { weightKg: r.capacity_weight_kg, volumeL: r.capacity_volume_l, parcels: r.capacity_parcels },
      skills: r.skills,
      shift: r.shift_start && r.shift_end ? { start: r.shift_start, end: r.shift_end } : null,
      breaks: r.breaks,
      depot: r.depot_lat !== null && r.depot_lng !== null ? { lat: r.depot_lat, lng: r.depot_lng } : null,
      maxRouteMinutes: r.max_route_minutes,
      position: pos ? { lat: pos.lat, lng: pos.lng, recordedAt: pos.recordedAt.toISOString() } : null,
    };
  });
}
