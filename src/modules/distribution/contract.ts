/**
 * A package's distribution process: imported by the API (to start it and send scans) and by the workflow.
 * Workflow id `distribution-<package number>`; the package_distribution row is the read model its activities write.
 */
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';
import { defineUpdate } from '@temporalio/workflow';
import { BUSINESS_ID, ORDER_ID } from '../../platform/temporal/searchKeys.ts';
import type { DeviceOrderInput } from '../device-orders/contract.ts';
import type { DistributionStatus, Judgement, PackageState, ScanAction, ScanFlag, ScanSource } from './domain.ts';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';

export const DISTRIBUTION_WORKFLOW = 'packageDistributionWorkflow';
/** The task queue its workflow and activities run on. */
export const DISTRIBUTION_QUEUE = PROCESS_QUEUE;
export const distributionWorkflowId = (packageNumber: string): string => `distribution-${packageNumber}`;

export interface DistributionInput {
  packageId: number;
  packageNumber: string;
  businessId: number;
  orderId: number;
  /** The read model's state when the process starts: a package seen before resumes where it stood. */
  state: PackageState;
  /** The codes of the package's warehouse and destination, for the search attributes. */
  places: PlaceCodes;
  /** Compresses the pickup deadline of a parcel shelved into a locker (LOCKER_TIMER_SCALE). */
  timerScale: number;
  /** Compresses the waits between attempts to send the recipient's notice (NOTIFY_RETRY_SCALE); 1 when absent. */
  notifyRetryScale?: number;
}

export interface PlaceCodes {
  warehouse: string | null;
  destination: string | null;
}

/** One scan, its place resolved; `key` makes it idempotent (the sender's scan or event id, or a digest of its content). */
export interface ScanArgs {
  key: string;
  source: ScanSource;
  action: ScanAction;
  placeId: number;
  placeCode: string;
  /** The locker of a locker place. */
  deviceCode: string | null;
  destinationId: number | null;
  destinationCode: string | null;
  gridCode: string | null;
  shelfCode: string | null;
  scannedAt: string;
  actorId: number | null;
  /** A removal because the carrier cancelled the package; a removal without it is a warehouse's. */
  reason?: 'cancelled';
}

/** What a scan answers: its outcome and the package's status after it. */
export interface ScanOutcome {
  scan_id: string;
  outcome: 'applied' | 'duplicate' | 'flagged';
  flag: ScanFlag | null;
  status: DistributionStatus | null;
}

export const scanUpdate = defineUpdate<ScanOutcome, [ScanArgs]>('scan');

/** Operators find a package's process by number, warehouse, destination and status (place codes), or every one with a flagged scan. */
export const PACKAGE_NUMBER = defineSearchAttributeKey('PackageNumber', SearchAttributeType.KEYWORD);
export const DISTRIBUTION_WAREHOUSE = defineSearchAttributeKey('DistributionWarehouse', SearchAttributeType.KEYWORD);
export const DISTRIBUTION_DESTINATION = defineSearchAttributeKey(
  'DistributionDestination',
  SearchAttributeType.KEYWORD,
);
export const DISTRIBUTION_STATUS = defineSearchAttributeKey('DistributionStatus', SearchAttributeType.KEYWORD);
export const DISTRIBUTION_FLAGGED = defineSearchAttributeKey('DistributionFlagged', SearchAttributeType.BOOL);

export const DISTRIBUTION_SEARCH_ATTRIBUTES = [
  PACKAGE_NUMBER,
  DISTRIBUTION_WAREHOUSE,
  DISTRIBUTION_DESTINATION,
  DISTRIBUTION_STATUS,
  DISTRIBUTION_FLAGGED,
];

export function distributionSearchAttributes(
  input: Pick<DistributionInput, 'businessId' | 'orderId' | 'packageNumber'>,
): TypedSearchAttributes {
  return new TypedSearchAttributes([
    { key: BUSINESS_ID, value: input.businessId },
    { key: ORDER_ID, value: input.orderId },
    { key: PACKAGE_NUMBER, value: input.packageNumber },
  ]);
}

export interface RecordScanInput extends Pick<
  DistributionInput,
  'packageId' | 'packageNumber' | 'businessId' | 'orderId' | 'timerScale'
> {
  scan: ScanArgs;
  state: PackageState;
  judgement: Judgement;
}

export interface RecordedScan {
  outcome: ScanOutcome;
  /** The package's state after the scan (unchanged unless it was applied). */
  state: PackageState;
  /** The device order a locker shelving stored, for the process to start. */
  deviceOrder: { input: DeviceOrderInput; deviceCode: string } | null;
}

/** The distribution's activities, as they cross into history (activities.ts implements them). */
export type DistributionActivities = {
  /**
   * Keeps one scan on the package's history and, when it applies, writes the step, the locker's device order and
   * the carrier's event, in one transaction; a scan of a key already kept answers `duplicate`.
   */
  recordDistributionScan(input: RecordScanInput): Promise<RecordedScan>;
  notifyShelvedRecipient(input: { packageId: number }): Promise<string>;
  abandonShelvedNotice(input: { packageId: number; error: string }): Promise<void>;
};
