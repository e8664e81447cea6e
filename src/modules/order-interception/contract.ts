/**
 * The interception process of an order (docs/orders.md, "Interception"), imported by the API (to start it with the
 * request, withdraw it, execute its outcome, read its state), by the hook that hears of the parcel at a warehouse,
 * and by the workflow. Workflow id `order-interception-<order id>`: one open interception per order; a later
 * interception of the same order is a new run of the same id. The order_interception row is its read model, which
 * each step writes in the transaction of the step's status change and events.
 */
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';
import { BUSINESS_ID, ORDER_ID } from '../../platform/temporal/searchKeys.ts';

export const INTERCEPTION_WORKFLOW = 'orderInterceptionWorkflow';
export const INTERCEPTION_QUEUE = PROCESS_QUEUE;
export const interceptionWorkflowId = (orderId: number): string => `order-interception-${orderId}`;

/** What the requester wants done with the parcel once it is held. */
export const INTERCEPT_OUTCOMES = ['return_to_sender', 'hold_at_warehouse', 'redeliver'] as const;
export type InterceptOutcome = (typeof INTERCEPT_OUTCOMES)[number];

/** The steps of an interception, as its state, its search attribute and its events (order.intercept.<state>) name them. */
export const INTERCEPTION_STATES = [
  'requested',
  'in_effect',
  'held_at_warehouse',
  'outcome_executed',
  'withdrawn',
  'rejected',
  'failed',
] as const;
export type InterceptionState = (typeof INTERCEPTION_STATES)[number];
export const OPEN_STATES: readonly InterceptionState[] = ['requested', 'in_effect', 'held_at_warehouse'];
export const isOpen = (s: InterceptionState): boolean => OPEN_STATES.includes(s);

/**
 * Where a request came from: the business's staff signed in (`back_office`: operation types 3043-3045), an AI
 * agent over MCP (`api`), or the order's customer account (`customer`); the last two are the API's (6012-6014).
 */
export const REQUEST_CHANNELS = ['back_office', 'api', 'customer'] as const;
export type RequestChannel = (typeof REQUEST_CHANNELS)[number];

/** Who took a step, as the audit trail records it (the orders module's actor, in the contract's own words). */
export interface StepActor {
  userId: number | null;
  role: string | null;
  source: 'api' | 'mcp' | 'carrier' | 'device' | 'scanner' | 'system';
  ip: string | null;
  channel: RequestChannel;
}

/** A new address for `redeliver`, in the order's address shape. */
export interface NewAddress {
  line1: string;
  line2?: string | null;
  city: string;
  postal_code: string;
  country: string;
  lat?: number | null;
  lng?: number | null;
}

export interface InterceptionRequest {
  outcome: InterceptOutcome;
  newAddress: NewAddress | null;
  reason: string | null;
  actor: StepActor;
}

/**
 * The parcel seen at a warehouse: by a distribution scan, by its carrier's tracking event, or (`status`) the order
 * was at a warehouse (29, 33) when the interception took effect.
 */
export interface HeldReport {
  packageNumber: string;
  /** The place's code, when a place of the business reported it. */
  place: string | null;
  source: HeldSource;
  occurredAt: string;
}
export const HELD_SOURCES = ['scan', 'carrier', 'status'] as const;
export type HeldSource = (typeof HELD_SOURCES)[number];

export interface InterceptionInput {
  orderId: number;
  businessId: number;
  /** How long the parcel has to be held at a warehouse once the interception is in effect (72 h times the scale). */
  holdDeadlineMs: number;
}

/** The process's view of its interception, as updates and the query answer it; the API presents the row. */
export interface InterceptionSnapshot {
  interceptionId: number | null;
  state: InterceptionState;
  /** Why it was rejected or failed (a code, docs/orders.md), or null. */
  reason: string | null;
}

/** Asks for an interception. The process's first request is its interception; one while it is open is rejected. */
export const requestUpdate = defineUpdate<InterceptionSnapshot, [InterceptionRequest]>('request');
/** Withdraws the open interception: the order leaves 48 and goes on. */
export const withdrawUpdate = defineUpdate<InterceptionSnapshot, [StepActor]>('withdraw');
/** Carries out the requested outcome of an interception whose parcel is held. */
export const executeUpdate = defineUpdate<InterceptionSnapshot, [StepActor]>('execute');
/** The parcel was seen at a warehouse. */
export const heldSignal = defineSignal<[HeldReport]>('heldAtWarehouse');
export const stateQuery = defineQuery<InterceptionSnapshot>('state');

/** Failure type of a withdrawal or an execution of an interception that has ended. */
export const INTERCEPTION_NOT_OPEN = 'InterceptionNotOpen';
/** Failure type of an execution before the parcel is held at a warehouse. */
export const INTERCEPTION_NOT_HELD = 'InterceptionNotHeld';
/** Failure type of a request reaching a run whose interception has ended: the caller starts the next run. */
export const INTERCEPTION_ENDING = 'InterceptionEnding';

/**
 * Operators find interceptions by state: `InterceptionStatus = "failed"`, with `BusinessId` and `OrderId`. A Text
 * attribute, as CancellationStatus is: a SQL visibility store (the development server's, Temporal on PostgreSQL)
 * holds at most 10 Keyword attributes and the other modules use them all; a state is one token, so matching it as
 * text finds the same.
 */
export const INTERCEPTION_STATUS = defineSearchAttributeKey('InterceptionStatus', SearchAttributeType.TEXT);

export function interceptionSearchAttributes(input: InterceptionInput): TypedSearchAttributes {
  return new TypedSearchAttributes([
    { key: BUSINESS_ID, value: input.businessId },
    { key: ORDER_ID, value: input.orderId },
    { key: INTERCEPTION_STATUS, value: 'requested' },
  ]);
}

/** The steps that end an interception. */
export type EndStep = 'outcome_executed' | 'withdrawn' | 'failed';

/** The interception's activities, as they cross into history (activities.ts implements them). */
export type InterceptionActivities = {
  /**
   * Records a request, in one transaction with the order locked. The process's first (`primary`) is judged: an order
   * in transit moves to 48 (in effect), any other is rejected with its reason; a later one is rejected as
   * already_intercepted. `requestKey` makes a retry after a killed worker answer the row it wrote.
   */
  beginInterception(input: {
    orderId: number;
    businessId: number;
    requestKey: string;
    primary: boolean;
    holdDeadlineMs: number;
    workflowId: string;
    request: InterceptionRequest;
  }): Promise<InterceptionSnapshot>;
  /** Records the parcel held at a warehouse, when the interception is still in effect (else answers it as it is). */
  recordHeld(input: { interceptionId: number; report: HeldReport }): Promise<InterceptionSnapshot>;
  /** Ends the interception with its step and the order's move out of 48; a step already taken answers as it is. */
  endInterception(input: {
    interceptionId: number;
    step: EndStep;
    actor: StepActor | null;
  }): Promise<InterceptionSnapshot>;
};
