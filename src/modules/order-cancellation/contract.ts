/**
 * The cancellation of an order a delivery provider holds (docs/orders.md, "Cancellation and deletion"): imported by
 * the API (to start it and send the provider's answer) and by the workflow. Workflow id
 * `order-cancellation-<order id>`, one at a time per order; the order_cancellation row is the read model its
 * activity writes.
 */
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { BUSINESS_ID, ORDER_ID } from '../../platform/temporal/searchKeys.ts';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';
import { PROVIDER_ID } from '../locker-deliveries/contract.ts';
import type { CancellationStatus } from './domain.ts';

export const ORDER_CANCELLATION_WORKFLOW = 'orderCancellationWorkflow';
/** The task queue its workflow and activities run on. */
export const ORDER_CANCELLATION_QUEUE = PROCESS_QUEUE;
export const orderCancellationWorkflowId = (orderId: number): string => `order-cancellation-${orderId}`;

/**
 * Started inside the transaction that writes the request, before its commit: the process first waits for that
 * transaction to end and ends at once if the request was never written. A request decided at once (the order
 * cancelled, no provider asked) has no provider, assignment or deadline: its process only finishes the
 * `orderCancelled` hooks' work after the commit, retried until done.
 */
export interface CancellationInput {
  cancellationId: number;
  orderId: number;
  businessId: number;
  /** The delivery provider asked; null for a request decided at once. */
  providerId: number | null;
  /** The third-party assignment holding the order; null for a request decided at once. */
  assignmentId: number | null;
  /**
   * ISO 8601: no answer from the provider by then is a refusal (CANCEL_PROVIDER_TIMEOUT, scaled for tests); null for
   * a request decided at once.
   */
  answerDeadline: string | null;
}

export interface ProviderAnswerArgs {
  /** The request answered, and the provider answering: an answer meant for another request of the order is refused. */
  cancellationId: number;
  providerId: number;
  accept: boolean;
  /** The carrier's own refusal code; null on an acceptance, or a refusal without one. */
  refusalCode: string | null;
  message: string | null;
  /** The provider's account that answered. */
  actorId: number;
}

/** The process's view of the request, as updates and the query answer it; the API presents the row. */
export interface CancellationSnapshot {
  cancellationId: number;
  status: CancellationStatus;
}

/** The provider accepts or refuses; answers once the outcome is written. */
export const providerAnswerUpdate = defineUpdate<CancellationSnapshot, [ProviderAnswerArgs]>('providerAnswer');
export const cancellationStatusQuery = defineQuery<CancellationSnapshot>('status');

/** Failure type of an answer to a request answered already or past its deadline. */
export const CANCELLATION_ANSWERED = 'CancellationAnswered';

/**
 * Operators find them by order and state, e.g. `OrderId = 42` or `CancellationStatus = "awaiting_provider"`. A Text
 * attribute: a SQL visibility store (the development server's, Temporal on PostgreSQL) holds at most 10 Keyword
 * attributes, and the other modules use them all; a status is one word, so matching it as text finds the same.
 */
export const CANCELLATION_STATUS = defineSearchAttributeKey('CancellationStatus', SearchAttributeType.TEXT);

export function cancellationSearchAttributes(
  input: CancellationInput,
  status: CancellationStatus = 'awaiting_provider',
): TypedSearchAttributes {
  return new TypedSearchAttributes([
    { key: BUSINESS_ID, value: input.businessId },
    { key: ORDER_ID, value: input.orderId },
    ...(input.providerId === null ? [] : [{ key: PROVIDER_ID, value: input.providerId }]),
    { key: CANCELLATION_STATUS, value: status },
  ]);
}

/** How the wait ended. */
export type SettleInput =
  | { cancellationId: number; outcome: 'accepted'; actorId: number }
  | {
      cancellationId: number;
      outcome: 'refused' | 'timed_out';
      refusalCode: string;
      message: string | null;
      actorId: number | null;
    };

/** The activities, as they cross into history (activities.ts implements them). */
export type OrderCancellationActivities = {
  /**
   * Waits for the transaction that wrote the request to end (it holds the order's row lock until then) and answers
   * the request's status, or null when it was never written (that transaction rolled back).
   */
  confirmCancellation(input: { cancellationId: number; orderId: number }): Promise<CancellationStatus | null>;
  /**
   * Runs the `orderCancelled` hooks' work after the commit of a cancelled request again (idempotent); throws when a
   * part fails, so that it is retried until done.
   */
  finishCancelled(input: { cancellationId: number }): Promise<void>;
  /**
   * Writes the outcome in one transaction: on an acceptance the order is cancelled (unless it moved on meanwhile,
   * then refused), on a refusal or no answer order.cancel_failed is sent. Answers the request's status after.
   * Idempotent: a retry after the commit finds the outcome written and runs the hooks' work after the commit again;
   * that work failing throws, so the activity is retried until it is done.
   */
  settleCancellation(input: SettleInput): Promise<CancellationStatus>;
  /** Ends the provider's assignment of a cancelled order (status cancelled); an assignment ended already is left. */
  endProviderAssignment(input: { assignmentId: number; actorId: number }): Promise<void>;
};
