/**
 * The partner locker delivery process: imported by the API (to start it and send updates) and by the workflow.
 * Workflow id `locker-delivery-<id>`; the database row is the read model its activities write.
 */
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { BUSINESS_ID } from '../../platform/temporal/searchKeys.ts';
import { DEVICE_ID } from '../device-orders/contract.ts';
import type { DoorState } from '../lockers/index.ts';
import type {
  ConfirmSource,
  FailureCode,
  LockerAction,
  LockerDeliveryStatus,
  OpenMode,
  RotatedCode,
} from './domain.ts';

export type { DoorState } from '../lockers/index.ts';
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

/**
 * The process's own view of its delivery: what each transition and rotation answers, what updates answer (the API
 * presents the row), and what the process keeps. Its fields carry the names of the first recorded histories, whose
 * activity results held the whole API view, so those histories still replay.
 */
export interface LockerDeliverySnapshot {
  id: number;
  status: LockerDeliveryStatus;
  /** The doors of the delivery's parcels. */
  parcels: { compartment_number: number }[];
  /** ISO 8601: an uncollected deposit expires then; null until the deposit is confirmed. */
  pickup_expires_at: string | null;
}

export const openUpdate = defineUpdate<LockerDeliverySnapshot, [OpenArgs]>('open');
export const confirmUpdate = defineUpdate<LockerDeliverySnapshot, [ConfirmArgs]>('confirm');
export const cancelUpdate = defineUpdate<LockerDeliverySnapshot, [CancelArgs]>('cancel');
export const failUpdate = defineUpdate<LockerDeliverySnapshot, [FailArgs]>('fail');
export const correctionUpdate = defineUpdate<LockerDeliverySnapshot, [CorrectionArgs]>('correction');
/** The recipient's pickup code was typed at the screen: the doors open for the pickup. */
export const pickupOpenUpdate = defineUpdate<LockerDeliverySnapshot, []>('pickupOpen');
export const rotateUpdate = defineUpdate<LockerDeliverySnapshot, [RotateArgs]>('rotateCode');
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

/** What a transition writes besides its action (the repo takes the same details). */
export interface LockerTransitionDetails {
  reason?: string | null;
  via?: OpenMode;
  confirmedBy?: ConfirmSource;
  /** `fail`: why each named parcel failed. */
  failures?: readonly { reference: string; code: FailureCode }[];
  /** `correct`: the doors reopened. */
  compartmentNumbers?: readonly number[];
  /** `pickup`: when the recipient's code opened the doors. */
  pickupOpenedAt?: string | null;
}

export interface LockerTransitionInput extends LockerTransitionDetails {
  id: number;
  action: LockerAction;
}

/** The messages a delivery owes its recipient. */
export type LockerNoticeTemplate = 'locker_pickup_code' | 'locker_pickup_code_rotated';

/** The delivery's `seq`-th message to its recipient. */
export interface NoticeInput {
  id: number;
  template: LockerNoticeTemplate;
  seq: number;
}

export interface RotateCodeInput {
  id: number;
  code: RotatedCode;
  /** A delivery code is drawn by the API, which shows it to the provider once; only its hash comes here. */
  deliveryCodeHash: string | null;
  /** Tell the recipient (pickup code only, once the deposit is confirmed and an email address is known). */
  notify: boolean;
}

/** The delivery's activities, as they cross into history (activities.ts implements them). */
export type LockerDeliveryActivities = {
  /** Writes one transition, its ledger row and its event in one transaction. */
  applyLockerTransition(input: LockerTransitionInput): Promise<LockerDeliverySnapshot>;
  /** Replaces a code with its event; a new pickup code is drawn and sealed in the activity, never in history. */
  rotateCode(input: RotateCodeInput): Promise<{ view: LockerDeliverySnapshot; recipientNotified: boolean }>;
  /** Sends the recipient a message with the current pickup code, read in the activity; answers the notice's status. */
  notifyRecipient(input: NoticeInput): Promise<string>;
  /** The sandbox's simulated locker reports these doors of the delivery as a real one would. */
  simulateDoorReports(input: { id: number; compartmentNumbers: number[]; state: DoorState }): Promise<void>;
  /** Records that a message was given up after its last attempt. */
  abandonRecipientNotice(input: NoticeInput & { error: string }): Promise<void>;
};
