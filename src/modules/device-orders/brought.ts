/**
 * A parcel another process brings to a locker (a package its distribution shelves into a compartment): the device
 * order's row is written in that process's transaction, and that process starts the device order's workflow with
 * the input answered here once the transaction has committed.
 */
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Em } from '../../platform/db/orm.ts';
import { codeHashKey, hashPickupCode, newPickupCode } from '../../platform/secrets.ts';
import { secretKeys } from '../../platform/secretBox.ts';
import type { DeviceOrderInput } from './contract.ts';
import { doorTimings } from './domain.ts';
import { findStoreTarget, insertStoredDeviceOrder } from './repo/orders.ts';

export interface BroughtParcel {
  businessId: number;
  deviceCode: string;
  gridCode: string;
  referenceNumber: string;
  orderId: number;
  dueAt: Date;
  timerScale: number;
}

export type BroughtOutcome =
  | { stored: true; input: DeviceOrderInput; deviceCode: string; compartmentId: number; pickupCode: string }
  | { stored: false; reason: 'unknown_grid' | 'occupied' };

/** Stores the parcel awaited by its recipient, unless the compartment does not exist or holds another parcel. */
export async function storeBroughtParcel(tx: Em, p: BroughtParcel): Promise<BroughtOutcome> {
  const { device, compartmentId, nextId } = await findStoreTarget(
    tx,
    p.businessId,
    p.deviceCode,
    p.gridCode,
    p.orderId,
  );
  if (!device || compartmentId === null) return { stored: false, reason: 'unknown_grid' };
  const pickupCode = newPickupCode();
  try {
    // A savepoint: an occupied compartment refuses the insert without aborting the caller's transaction.
    await tx.transactional((inner) =>
      insertStoredDeviceOrder(inner, {
        id: nextId!,
        businessId: p.businessId,
        kind: 'delivery',
        device,
        gridCode: p.gridCode,
        compartmentId,
        referenceNumber: p.referenceNumber,
        orderId: p.orderId,
        externalOrderId: null,
        dueAt: p.dueAt,
        pickupCodeHash: hashPickupCode(pickupCode, codeHashKey(secretKeys()[0]!)),
        // The distribution tells the recipient itself (docs/distribution.md).
        pickupCode: null,
      }),
    );
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) return { stored: false, reason: 'occupied' };
    throw err;
  }
  const input = { id: nextId!, businessId: p.businessId, dueAt: p.dueAt.toISOString(), ...doorTimings(p.timerScale) };
  return { stored: true, input, deviceCode: device.code, compartmentId, pickupCode };
}
