/**
 * The partner locker delivery process: imported by the API (to start it and send updates) and by the workflow.
 * Workflow id `locker-delivery-<id>`; the database row is the read model its activities write.
 */
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { BUSINESS_ID } from '../../platform/temporal/searchKeys.ts';
import { DEVICE_ID } from '../device-orders/contract.ts';
import type { DoorState } from '../lockers/index.ts';
import type { ConfirmSource, FailureCode, LockerDeliveryStatus, OpenMode, RotatedCode } from './domain.ts';
import type { LockerDeliveryView } from './views.ts';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';

export const LOCKER_DELIVERY_WORKFLOW = 'lockerDeliveryWorkflow';
/** The task queue its workflow and activities run on. */
export const LOCKER_DELIVERY_QUEUE = PROCESS_QUEUE;
export const lockerDeliveryWorkflowId = (id: number): string => `locker-delivery-${id}`;

export interface LockerDeliveryInput {
  id: number;
  /** ISO 8601: an unused delivery code expires then. */
  deliveryCodeExpiresAt: string;
  openMode: OpenMode;
  /** After the last opening, a deposit whose doors are all closed settles as timeout_door_closed. */
  depositTimeoutMs: number;
  /** After the deposit is confirmed, the courier may reopen compartments this long. */
  correctionWindowMs: number;
  /** Multiplies the waits between attempts to notify the recipient (config.notifyRetryScale). */
  notifyRetryScale: number;
  /** A delivered deposit's pickup code is replaced this often, the recipient told; 0 never. */
  codeRotationMs: number;
  /** On a sandbox locker, the simulator reports each opened door closed this long after it opened; null on a real locker. */
  simulatedDoorsMs: number | null;
}

/** The notification row of the delivery's `seq`-th message to its recipient. */
export const lockerNoticeKey = (id: number, template: string, seq: number): string =>
  `locker_delivery:${id}:${template}:${seq}`;

export interface CancelArgs {
  reason: string | null;
}

export interface OpenArgs {
  via: OpenMode;
}

export interface ConfirmArgs {
  by: ConfirmSource;
}

export interface FailArgs {
  parcels: { reference: string; code: FailureCode }[];
}

export interface RotateArgs {
  code: RotatedCode;
  /** The new delivery code's hash (the API drew the code and shows it once); null for a pickup code, drawn by the process's activity. */
  deliveryCodeHash: string | null;
  notifyRecipient: boolean;
}

export interface CorrectionArgs {
  compartmentNumbers: number[];
}

/** What the locker reported of one of the delivery's doors (already ordered by the locker's own time). */
export interface DoorReport {
  compartmentNumber: number;
  state: DoorState;
}

export const openUpdate = defineUpdate<LockerDeliveryView, [OpenArgs]>('open');
export const confirmUpdate = defineUpdate<LockerDeliveryView, [ConfirmArgs]>('confirm');
export const cancelUpdate = defineUpdate<LockerDeliveryView, [CancelArgs]>('cancel');
export const failUpdate = defineUpdate<LockerDeliveryView, [FailArgs]>('fail');
export const correctionUpdate = defineUpdate<LockerDeliveryView, [CorrectionArgs]>('correction');
/** The recipient's pickup code was typed at the screen: the doors open for the pickup. */
export const pickupOpenUpdate = defineUpdate<LockerDeliveryView, []>('pickupOpen');
export const rotateUpdate = defineUpdate<LockerDeliveryView, [RotateArgs]>('rotateCode');
export const doorSignal = defineSignal<[DoorReport]>('door');
export const lockerStatusQuery = defineQuery<LockerDeliveryStatus>('status');

/** Failure type of an update refused because the delivery is not in a status that allows it. */
export const LOCKER_INVALID_TRANSITION = 'LockerInvalidTransition';
/** Failure type of a correction asked for after its window closed, or once the recipient opened the doors. */
export const LOCKER_CORRECTION_CLOSED = 'LockerCorrectionClosed';
/** Failure type when the row does not exist: its create transaction rolled back after the workflow started. */
export const LOCKER_DELIVERY_MISSING = 'LockerDeliveryMissing';

/** Operators filter deliveries by provider, status and parcel, e.g. `ProviderId = 12 AND LockerDeliveryStatus = "delivered"`. */
export const PROVIDER_ID = defineSearchAttributeKey('ProviderId', SearchAttributeType.INT);
export const LOCKER_DELIVERY_STATUS = defineSearchAttributeKey('LockerDeliveryStatus', SearchAttributeType.KEYWORD);
export const PARCEL_REFERENCES = defineSearchAttributeKey('ParcelReferences', SearchAttributeType.KEYWORD_LIST);

export function lockerDeliverySearchAttributes(
  businessId: number,
  providerId: number,
  deviceCode: string,
  references: string[],
): TypedSearchAttributes {
  return new TypedSearchAttributes([
    { key: BUSINESS_ID, value: businessId },
    { key: PROVIDER_ID, value: providerId },
    { key: DEVICE_ID, value: deviceCode },
    { key: LOCKER_DELIVERY_STATUS, value: 'awaiting_deposit' },
    { key: PARCEL_REFERENCES, value: references },
  ]);
}
