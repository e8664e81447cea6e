/** The shapes of driver records in requests and answers. */
import { z } from 'zod';
import { DRIVER_STATUSES, MAX_BREAKS, MAX_SKILLS, SKILL, TIME_OF_DAY } from './domain.ts';
import type { DriverRow } from './repo/drivers.ts';
import type { NewestPosition } from '../driver-location/index.ts';

const timeOfDay = z
  .string()
  .regex(TIME_OF_DAY)
  .describe('A time of day, HH:MM (00:00 to 23:59), in the business’s timezone');

/** Capacity: each measure null for no limit; a measure left out keeps its value on an update. */
export const capacityInput = z
  .object({
    // Kept to the gram and the millilitre (numeric(_, 3)): a smaller figure would be stored as 0.
    weight_kg: z
      .number()
      .min(0.001)
      .max(100_000)
      .nullable()
      .optional()
      .describe('Kilograms (at least 0.001), null for no limit'),
    volume_l: z
      .number()
      .min(0.001)
      .max(1_000_000)
      .nullable()
      .optional()
      .describe('Litres (at least 0.001), null for no limit'),
    parcels: z.number().int().min(1).max(100_000).nullable().optional().describe('Parcels, null for no limit'),
  })
  .strict();

export const skillsInput = z
  .array(z.string().regex(SKILL))
  .max(MAX_SKILLS)
  .transform((s) => [...new Set(s)])
  .describe(`Lowercase words (a-z, 0-9, _ and -, up to 40 characters), at most ${MAX_SKILLS}`);

export const shiftInput = z
  .object({ start: timeOfDay, end: timeOfDay })
  .strict()
  .nullable()
  .describe('Null for the whole day; the shift ends after it starts, on the same day');

export const breaksInput = z
  .array(z.object({ start: timeOfDay, end: timeOfDay, minutes: z.number().int().min(1).max(720) }).strict())
  .max(MAX_BREAKS)
  .describe('Breaks of `minutes` taken somewhere between `start` and `end`, inside the shift');

export const depotInput = z
  .object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })
  .strict()
  .nullable()
  .describe('Where the route starts and ends; null for the business’s depot');

export const maxRouteMinutesInput = z.number().int().min(1).max(1440).nullable();
export const vehicleInput = z.string().trim().min(1).max(100).nullable();
export const phoneInput = z.string().trim().min(1).max(40).describe('International form, such as +420601123456');
export const driverName = z.string().trim().min(1).max(191);

/** What a client admin may set on a driver record (POST /v1/drivers and PUT /v1/drivers/{id}). */
export const profileFields = {
  phone: phoneInput.nullable().optional(),
  vehicle: vehicleInput.optional(),
  capacity: capacityInput.optional(),
  skills: skillsInput.optional(),
  shift: shiftInput.optional(),
  breaks: breaksInput.optional(),
  depot: depotInput.optional(),
  max_route_minutes: maxRouteMinutesInput.optional(),
};

const hhmm = z.string();
export const Driver = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  status: z.enum(DRIVER_STATUSES),
  on_duty: z.boolean(),
  duty_changed_at: z.iso.datetime().nullable(),
  phone: z.string().nullable(),
  vehicle: z.string().nullable(),
  capacity: z.object({
    weight_kg: z.number().nullable(),
    volume_l: z.number().nullable(),
    parcels: z.number().int().nullable(),
  }),
  skills: z.array(z.string()),
  shift: z.object({ start: hhmm, end: hhmm }).nullable(),
  breaks: z.array(z.object({ start: hhmm, end: hhmm, minutes: z.number().int() })),
  depot: z.object({ lat: z.number(), lng: z.number() }).nullable(),
  max_route_minutes: z.number().int().nullable(),
  position: z
    .object({ lat: z.number(), lng: z.number(), recorded_at: z.iso.datetime() })
    .nullable()
    .describe("The newest position the driver's app reported"),
  rejected_reason: z.string().nullable(),
  decided_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});

/** ISO 8601 in UTC, as the orders, routes and the driver's events (driver.on_duty_changed) write times. */
const at = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

export function presentDriver(r: DriverRow, pos: NewestPosition | undefined): z.input<typeof Driver> {
  return {
    id: r.user_id,
    name: r.name,
    email: r.email,
    status: r.status,
    on_duty: r.on_duty,
    duty_changed_at: at(r.duty_changed_at),
    phone: r.phone,
    vehicle: r.vehicle,
    capacity: { weight_kg: r.capacity_weight_kg, volume_l: r.capacity_volume_l, parcels: r.capacity_parcels },
    skills: r.skills,
    shift: r.shift_start && r.shift_end ? { start: r.shift_start, end: r.shift_end } : null,
    breaks: r.breaks,
    depot: r.depot_lat !== null && r.depot_lng !== null ? { lat: r.depot_lat, lng: r.depot_lng } : null,
    max_route_minutes: r.max_route_minutes,
    position: pos ? { lat: pos.lat, lng: pos.lng, recorded_at: pos.recordedAt.toISOString() } : null,
    rejected_reason: r.rejected_reason,
    decided_at: at(r.decided_at),
    created_at: new Date(r.created_at).toISOString(),
  };
}
