import type { Em } from '../../../platform/db/orm.ts';
import { insertOutboxEvent } from '../../../platform/db/outbox.ts';
import { dutyEventId } from '../domain.ts';
import { setDuty } from './drivers.ts';

const EVENT = 'driver.on_duty_changed';

/**
 * Puts a locked driver record on or off duty and writes driver.on_duty_changed in the same transaction; the caller has
 * checked that the duty changes. Answers when it changed.
 */
export async function changeDuty(tx: Em, businessId: number, driverId: number, onDuty: boolean): Promise<Date> {
  const { n, changedAt } = await setDuty(tx, driverId, onDuty);
  const eventId = dutyEventId(driverId, n);
  await insertOutboxEvent(tx, {
    businessId,
    eventId,
    eventType: EVENT,
    referenceType: 'driver',
    referenceId: String(driverId),
    payload: {
      event_id: eventId,
      event: EVENT,
      business_id: businessId,
      occurred_at: changedAt.toISOString(),
      data: { driver_id: driverId, on_duty: onDuty, changed_at: changedAt.toISOString() },
    },
  });
  return changedAt;
}
