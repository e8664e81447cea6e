/**
 * The third-party delivery process: imported by the API (to start it and send updates) and by the workflow.
 * Workflow id `third-party-delivery-<id>`; the third_party_assignment row is the read model its activities write.
 */
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import { BUSINESS_ID, ORDER_ID } from '../../platform/temporal/searchKeys.ts';
import { PROVIDER_ID } from '../locker-deliveries/contract.ts';
import type { AssignmentStatus, CancelReason } from './domain.ts';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';

export const THIRD_PARTY_WORKFLOW = 'thirdPartyDeliveryWorkflow';
/** The task queue its workflow and activities run on. */
export const THIRD_PARTY_QUEUE = PROCESS_QUEUE;
export const thirdPartyWorkflowId = (id: number): string => `third-party-delivery-${id}`;

export interface ThirdPartyInput {
  id: number;
  businessId: number;
  orderId: number;
  providerId: number;
  /** ISO 8601: an assignment whose packages were not all handed over by then falls back to self delivery. */
  handoverDeadline: string;
}

export interface HandoverArgs {
  packageNumber: string;
  scannedAt: string;
  actorId: number;
  /** Who scanned, as the order's audit trail records it (orders' OrderActor); absent in older histories. */
  actor?: { userId: number | null; role: string | null; source: string; ip: string | null };
}

export interface CancelArgs {
  reason: 'cancelled' | 'reassigned';
  actorId: number;
  /** A reassignment's new provider and deadline; the process writes the new assignment and starts its process. */
  to?: { providerId: number; handoverDeadline: string };
}

/** The process's view of an assignment, as updates answer it; the API presents the row. */
export interface AssignmentSnapshot {
  number: string;
  status: AssignmentStatus;
}

/** What an update answers: the assignment, and on a reassignment the new one. */
export interface StepAnswer {
  assignment: AssignmentSnapshot;
  next: AssignmentSnapshot | null;
}

export const handoverUpdate = defineUpdate<StepAnswer, [HandoverArgs]>('handover');
export const cancelUpdate = defineUpdate<StepAnswer, [CancelArgs]>('cancel');
/** A package of the order has news: its provider pushed a tracking event (docs/third-party-deliveries.md). */
export const progressSignal = defineSignal('progress');

/** Failure type of a step the assignment's status does not allow. */
export const ASSIGNMENT_INVALID_STEP = 'AssignmentInvalidStep';
/** Failure type of a handover of a package that is not the order's. */
export const NOT_THE_ORDERS_PACKAGE = 'NotTheOrdersPackage';

/** Operators find assignments by provider and status, e.g. `ProviderId = 12 AND ThirdPartyStatus = "assigned"`. */
export const THIRD_PARTY_STATUS = defineSearchAttributeKey('ThirdPartyStatus', SearchAttributeType.KEYWORD);

export function thirdPartySearchAttributes(
  input: ThirdPartyInput,
  status: AssignmentStatus = 'assigned',
): TypedSearchAttributes {
  return new TypedSearchAttributes([
    { key: BUSINESS_ID, value: input.businessId },
    { key: ORDER_ID, value: input.orderId },
    { key: PROVIDER_ID, value: input.providerId },
    { key: THIRD_PARTY_STATUS, value: status },
  ]);
}

export type StepInput =
  | ({ id: number; step: 'handover' } & HandoverArgs)
  | { id: number; step: 'cancel'; reason: CancelReason; actorId: number | null; to?: CancelArgs['to'] };

export interface StepResult {
  answer: StepAnswer;
  /** A reassignment's new assignment, for the process to start. */
  nextInput: ThirdPartyInput | null;
}

/** The assignment's activities, as they cross into history (activities.ts implements them). */
export type ThirdPartyActivities = {
  /** One step of an assignment, with the order's hold and the provider's events, in one transaction. */
  applyAssignmentStep(input: StepInput): Promise<StepResult>;
  /** Looks at each package's newest tracking and answers the status after (delivered, partial_delivered or as it was). */
  assessAssignmentProgress(input: { id: number }): Promise<AssignmentStatus>;
};
