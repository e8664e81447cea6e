/**
 * The device order process: imported by the API (to start it and send updates) and by the workflow.
 * Workflow id `device-order-<id>`; the database row is the read model the workflow's activities write.
 */
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { BUSINESS_ID, ORDER_ID } from '../../platform/temporal/searchKeys.ts';
import type { DeviceOrderAction, DeviceOrderStatus, RemovalReason } from './domain.ts';
import type {
  ClosedStatus,
  ExceptionSeverity,
  ExceptionStatus,
  ExceptionType,
  ResolutionAction,
} from './exceptions.ts';

export type { ExceptionType, ResolutionAction } from './exceptions.ts';
import { PROCESS_QUEUE } from '../../platform/temporal/queues.ts';

export const DEVICE_ORDER_WORKFLOW = 'deviceOrderWorkflow';
/** The task queue its workflow and activities run on. */
export const DEVICE_ORDER_QUEUE = PROCESS_QUEUE;
export const deviceOrderWorkflowId = (id: number): string => `device-order-${id}`;

export interface DeviceOrderInput {
  id: number;
  businessId: number;
  /** ISO 8601; the overdue timer fires then. */
  dueAt: string;
  /**
   * Set when the process is resumed from its read model (an exception on an order whose process had ended): the
   * row's status. Absent for a new order, which starts stored.
   */
  status?: DeviceOrderStatus;
  /** After the parcel leaves, how long to wait for its door to open (0: no watch); DOOR_WATCH_SECONDS when absent. */
  doorWatchMs?: number;
  /** How long that door may stay open before door_left_open opens; DOOR_OPEN_LIMIT_SECONDS when absent. */
  doorOpenLimitMs?: number;
  /**
   * Set by the store of a parcel awaited by the recipient of a linked order: the process mails the recipient the
   * pickup code (docs/device-orders.md, Pickup code). Absent for a parcel a distribution brought, which tells the
   * recipient itself, and for a resumed run.
   */
  notifyRecipient?: boolean;
  /** Multiplies the waits between attempts of that notice (config.notifyRetryScale); 1 when absent. */
  notifyRetryScale?: number;
}

/**
 * Failure type of a notice attempt that finds no row: the store commits just after its process starts, so an early
 * attempt may come first. Retried for NOTICE_ROW_WAIT_MS after the notice was scheduled; a row still missing then
 * was rolled back, and there is nothing to send.
 */
export const DEVICE_ORDER_NOT_WRITTEN = 'DeviceOrderNotWritten';
export const NOTICE_ROW_WAIT_MS = 60_000;

/** What an update answers: the process's own view of its order (the API presents the row). */
export interface DeviceOrderSnapshot {
  id: number;
  status: DeviceOrderStatus;
}

export interface RemoveArgs {
  removalReason: RemovalReason;
  actorId: number;
}

export interface CollectArgs {
  actorId: number | null;
}

/** The caller has already checked the pickup code; the code never travels into workflow history. */
export const collectUpdate = defineUpdate<DeviceOrderSnapshot, [CollectArgs]>('collect');
export const removeUpdate = defineUpdate<DeviceOrderSnapshot, [RemoveArgs]>('remove');
export const statusQuery = defineQuery<DeviceOrderStatus>('status');

export interface OpenExceptionArgs {
  type: ExceptionType;
  /** DEFAULT_SEVERITY of the type when absent. */
  severity?: ExceptionSeverity;
  /** Who opened it; null when the process did. */
  actorId: number | null;
}

export interface ResolveExceptionArgs {
  exceptionId: number;
  status: ClosedStatus;
  resolutionAction: ResolutionAction;
  actorId: number | null;
}

/** What an exception update answers: the device order and the exception, by id and state (the API presents the rows). */
export interface ExceptionSnapshot {
  device_order: DeviceOrderSnapshot;
  exception: { id: number; type: ExceptionType; status: ExceptionStatus };
}

export const openExceptionUpdate = defineUpdate<ExceptionSnapshot, [OpenExceptionArgs]>('openException');
export const resolveExceptionUpdate = defineUpdate<ExceptionSnapshot, [ResolveExceptionArgs]>('resolveException');
/** A door report of the compartment the order holds or last held, newest first (older ones are not forwarded). */
export const doorReportSignal = defineSignal<[{ state: 'opened' | 'closed' }]>('door');

/** Failure type of an open refused because one of the same type is open already. */
export const EXCEPTION_ALREADY_OPEN = 'ExceptionAlreadyOpen';
/** Failure type of a resolve refused because the exception is closed already (or is not this order's). */
export const EXCEPTION_NOT_OPEN = 'ExceptionNotOpen';

/** Failure type of an update refused because the device order is not in a status that allows it. */
export const INVALID_TRANSITION = 'InvalidTransition';

/** Failure type when the row does not exist: its store transaction rolled back after the workflow started. */
export const DEVICE_ORDER_MISSING = 'DeviceOrderMissing';

/** Operators filter device orders by device and status, e.g. `DeviceId = "DEMO-LOCKER-1" AND DeviceOrderStatus = "overdue"`. */
export const DEVICE_ID = defineSearchAttributeKey('DeviceId', SearchAttributeType.KEYWORD);
export const DEVICE_ORDER_STATUS = defineSearchAttributeKey('DeviceOrderStatus', SearchAttributeType.KEYWORD);
/** The types of its open exceptions, e.g. `DeviceOrderExceptions = "door_left_open"`. */
export const DEVICE_ORDER_EXCEPTIONS = defineSearchAttributeKey(
  'DeviceOrderExceptions',
  SearchAttributeType.KEYWORD_LIST,
);

export function deviceOrderSearchAttributes(
  businessId: number,
  deviceCode: string,
  orderId: number | null,
  status: DeviceOrderStatus = 'stored',
): TypedSearchAttributes {
  return new TypedSearchAttributes([
    { key: BUSINESS_ID, value: businessId },
    { key: DEVICE_ID, value: deviceCode },
    { key: DEVICE_ORDER_STATUS, value: status },
    ...(orderId === null ? [] : [{ key: ORDER_ID, value: orderId }]),
  ]);
}

export interface TransitionInput {
  id: number;
  action: DeviceOrderAction;
  removalReason?: RemovalReason;
  actorId?: number | null;
}

/** The device order's activities, as they cross into history (activities.ts implements them). */
export type DeviceOrderActivities = {
  /** Writes one transition, its ledger row and its outbox event in one transaction. */
  applyDeviceOrderTransition(input: TransitionInput): Promise<DeviceOrderSnapshot>;
  /** Staff's open: refused when one of the type is open already. */
  openDeviceOrderException(input: OpenExceptionArgs & { id: number }): Promise<ExceptionSnapshot>;
  /** Staff's resolve or dismiss: refused when the exception is not open. */
  resolveDeviceOrderException(input: ResolveExceptionArgs & { id: number }): Promise<ExceptionSnapshot>;
  /** The process's own open (overdue, door_left_open): false when one of the type was open already. */
  raiseDeviceOrderException(input: { id: number; type: ExceptionType }): Promise<boolean>;
  /** The process's own resolve of the open exception of a type, if there is one; false when there was none. */
  settleDeviceOrderException(input: {
    id: number;
    type: ExceptionType;
    resolutionAction: ResolutionAction;
  }): Promise<boolean>;
  /** The types of the order's open exceptions, opened by anyone (a pickup lock opens one outside the process). */
  openDeviceOrderExceptionTypes(input: { id: number }): Promise<ExceptionType[]>;
  /**
   * Mails the recipient the pickup code, read from its sealed column here and never passed in or answered; answers
   * the notice's status (sent, skipped, failed).
   */
  notifyDeviceOrderRecipient(input: { id: number }): Promise<string>;
  /** Records a notice given up after its last attempt as failed, for the business to see. */
  abandonDeviceOrderNotice(input: { id: number; error: string }): Promise<void>;
};
