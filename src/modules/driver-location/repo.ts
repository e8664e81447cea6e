import { randomUUID } from 'node:crypto';
import type { Em } from '../../platform/db/orm.ts';
import { executeBound } from '../../platform/db/orm.ts';
import { insertOutboxEvent } from '../../platform/db/outbox.ts';

export interface Position {
  driverId: number;
  businessId: number;
  lat: number;
  lng: number;
  heading: number | null;
  speed: number | null;
  recordedAt: Date;
}

/**
 * Keeps the driver's newest position and writes driver.location_update when the merchant's interval has passed
 * since the last one; true when it did. Data access is SQL: one statement decides, under the upsert's row lock.
 */
export async function recordPosition(em: Em, p: Position): Promise<boolean> {
  return em.transactional(async (tx) => {
    // One statement keeps the newest fix and takes the throttle slot only when the merchant's interval has
    // passed; the row lock of the upsert orders concurrent reports of one driver.
    const [row] = await tx.execute<{ emit: boolean }[]>(
      `with interval_sec as (
         select coalesce((select driver_location_min_interval_sec from webhook_settings where business_id = ? and customer_id is null), 60) as sec)
       insert into driver_location as l (driver_id, business_id, lat, lng, heading, speed, recorded_at, last_event_at)
       values (?, ?, ?, ?, ?, ?, ?, now())
       on conflict (driver_id) do update set
         lat = excluded.lat, lng = excluded.lng, heading = excluded.heading, speed = excluded.speed, recorded_at = excluded.recorded_at, updated_at = now(),
         last_event_at = case when l.last_event_at <= now() - make_interval(secs => (select sec from interval_sec)) then now() else l.last_event_at end
       where excluded.recorded_at >= l.recorded_at
       returning l.last_event_at = now() as emit`,
      [p.businessId, p.driverId, p.businessId, p.lat, p.lng, p.heading, p.speed, p.recordedAt],
    );
    if (!row?.emit) return false;
    const eventId = `DLU-${randomUUID()}`;
    await insertOutboxEvent(tx, {
      businessId: p.businessId,
      eventId,
      eventType: 'driver.location_update',
      referenceType: 'driver',
      referenceId: String(p.driverId),
      payload: {
        event_id: eventId,
        event: 'driver.location_update',
        business_id: p.businessId,
        occurred_at: new Date().toISOString(),
        data: {
          driver_id: p.driverId,
          lat: p.lat,
          lng: p.lng,
          heading: p.heading,
          speed: p.speed,
          recorded_at: p.recordedAt.toISOString(),
        },
      },
    });
    return true;
  });
}

export interface NewestPosition {
  driverId: number;
  lat: number;
  lng: number;
  recordedAt: Date;
}

/** The newest position of each of the business's drivers named (all its drivers when none are named). */
export async function newestPositions(
  em: Em,
  businessId: number,
  driverIds?: readonly number[],
): Promise<NewestPosition[]> {
  const rows = await executeBound<{ driver_id: number; lat: number; lng: number; recorded_at: Date }>(
    em,
    `select driver_id, lat, lng, recorded_at from driver_location
      where business_id = $1 and ($2::int[] is null or driver_id = any($2::int[]))`,
    [businessId, driverIds ? [...driverIds] : null],
  );
  return rows.map((r) => ({ driverId: r.driver_id, lat: r.lat, lng: r.lng, recordedAt: new Date(r.recorded_at) }));
}
