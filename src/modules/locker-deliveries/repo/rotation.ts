import type { Em } from '../../../platform/db/orm.ts';
import { purposeOf, sealSecret } from '../../../platform/secretBox.ts';
import { tagLockerCode } from '../codes.ts';
import type { RotatedCode } from '../domain.ts';
import type { LockerDeliveryView } from '../views.ts';
import { drawFreeCodes, findLockerDelivery, PICKUP_CODE, writeLockerEvent } from './deliveries.ts';

export interface Rotation {
  code: RotatedCode;
  /** A delivery code is drawn by the API, which shows it to the provider once; only its hash comes here. */
  deliveryCodeHash: string | null;
  /** Tell the recipient (pickup code only, once the deposit is confirmed and an email address is known). */
  notify: boolean;
}

/**
 * Replaces a code in one transaction with its event `code_rotated`: the old code stops working as it commits. A new
 * pickup code is drawn here, unlike every code the device takes, and sealed; from now on the delivery's events
 * carry no pickup code. Answers whether the recipient is to be told, or null when the delivery is gone.
 */
export async function rotateLockerCode(
  em: Em,
  id: number,
  r: Rotation,
): Promise<{ view: LockerDeliveryView; recipientNotified: boolean } | null> {
  return em.transactional(async (tx) => {
    const [row] = await tx.execute<
      {
        business_id: number;
        provider_id: number;
        device_id: number;
        livemode: boolean;
        status: string;
        email: string | null;
      }[]
    >(
      "select business_id, provider_id, device_id, livemode, status, recipient->>'email' as email from locker_delivery where id = ? for update",
      [id],
    );
    if (!row) return null;
    const recipientNotified = r.code === 'pickup_code' && r.notify && row.status === 'delivered' && row.email !== null;
    if (r.code === 'delivery_code') {
      await tx.execute('update locker_delivery set delivery_code_hash = ?, updated_at = now() where id = ?', [
        r.deliveryCodeHash,
        id,
      ]);
    } else {
      const [pickupCode] = (await drawFreeCodes(tx, row.device_id, 1)) as [string];
      await tx.execute(
        'update locker_delivery set pickup_code_hash = ?, pickup_code_sealed = ?, pickup_code_rotated = true, updated_at = now() where id = ?',
        [tagLockerCode(row.device_id, pickupCode), sealSecret(purposeOf(PICKUP_CODE), pickupCode), id],
      );
    }
    await writeLockerEvent(
      tx,
      { id, businessId: row.business_id, providerId: row.provider_id, livemode: row.livemode },
      'partner_locker.delivery.code_rotated',
      (at) => ({ rotation: { code: r.code, rotated_at: at, recipient_notified: recipientNotified } }),
    );
    return { view: (await findLockerDelivery(tx, { providerId: row.provider_id }, id))!, recipientNotified };
  });
}
