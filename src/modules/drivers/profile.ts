/** From a request's driver fields to the record's columns, checked against what the record holds already. */
import type { z } from 'zod';
import type { Em } from '../../platform/db/orm.ts';
import { errors } from '../../platform/errors.ts';
import { newestPositions } from '../driver-location/index.ts';
import { toE164 } from '../sms/index.ts';
import { dayProblem, type Break, type Shift } from './domain.ts';
import type { DriverRow, ProfileChange } from './repo/drivers.ts';
import { presentDriver, type profileFields } from './views.ts';

type ProfileInput = { [K in keyof typeof profileFields]?: z.output<(typeof profileFields)[K]> };

/** A phone in E.164, or 422 on `field`. */
export function phoneOf(text: string, field = 'phone'): string {
  const phone = toE164(text, 'ZZ');
  if (!phone) throw errors.field(field, 'drivers.invalid_phone');
  return phone;
}

/**
 * The columns the input changes; 422 when the day it leaves does not hold together (a break outside the shift,
 * the shift's end before its start), judged with what the record keeps of the fields not sent.
 */
export function profileChange(input: ProfileInput, current: DriverRow | null): ProfileChange {
  const change: ProfileChange = {};
  if (input.phone !== undefined) change.phone = input.phone === null ? null : phoneOf(input.phone);
  if (input.vehicle !== undefined) change.vehicle = input.vehicle;
  if (input.capacity) {
    const c = input.capacity;
    if (c.weight_kg !== undefined) change.capacity_weight_kg = c.weight_kg;
    if (c.volume_l !== undefined) change.capacity_volume_l = c.volume_l;
    if (c.parcels !== undefined) change.capacity_parcels = c.parcels;
  }
  if (input.skills !== undefined) change.skills = input.skills;
  if (input.shift !== undefined) {
    change.shift_start = input.shift?.start ?? null;
    change.shift_end = input.shift?.end ?? null;
  }
  if (input.breaks !== undefined) change.breaks = input.breaks;
  if (input.depot !== undefined) {
    change.depot_lat = input.depot?.lat ?? null;
    change.depot_lng = input.depot?.lng ?? null;
  }
  if (input.max_route_minutes !== undefined) change.max_route_minutes = input.max_route_minutes;

  const currentShift: Shift | null =
    current?.shift_start && current.shift_end ? { start: current.shift_start, end: current.shift_end } : null;
  const shift = input.shift !== undefined ? input.shift : currentShift;
  const breaks: readonly Break[] = input.breaks ?? current?.breaks ?? [];
  const problem = dayProblem(shift, breaks);
  if (problem) throw errors.field(problem.field, problem.key);
  return change;
}

/** The rows as the API shows them, each with the driver's newest position. */
export async function presentDrivers(em: Em, businessId: number, rows: readonly DriverRow[]) {
  if (rows.length === 0) return [];
  const positions = await newestPositions(
    em,
    businessId,
    rows.map((r) => r.user_id),
  );
  const byDriver = new Map(positions.map((p) => [p.driverId, p]));
  return rows.map((r) => presentDriver(r, byDriver.get(r.user_id)));
}
