/**
 * The device order process: imported by the API (to start it and send updates) and by the workflow.
 * Workflow id `device-order-<id>`; the database row is the read model the workflow's activities write.
 */
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { BUSINESS_ID, ORDER_ID } from '../../platform/temporal/searchKeys.ts';
import type { DeviceOrderStatus, RemovalReason } from './domain.ts';
import type { DeviceOrderView } from './views.ts';

export const DEVICE_ORDER_WORKFLOW = 'deviceOrderWorkflow';
export const deviceOrderWorkflowId = (id: number): string => `device-order-${id}`;

export interface DeviceOrderInput {
  id: number;
  businessId: number;
  /** ISO 8601; the overdue timer fires then. */
  dueAt: string;
}

/** What an update answers: the device order as the API presents it. */
export type DeviceOrderSnapshot = DeviceOrderView;

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

/** Failure type of an update refused because the device order is not in a status that allows it. */
export const INVALID_TRANSITION = 'InvalidTransition';

/** Failure type when the row does not exist: its store transaction rolled back after the workflow started. */
export const DEVICE_ORDER_MISSING = 'DeviceOrderMissing';

/** Operators filter device orders by device and status, e.g. `DeviceId = "DEMO-LOCKER-1" AND DeviceOrderStatus = "overdue"`. */
export const DEVICE_ID = defineSearchAttributeKey('DeviceId', SearchAttributeType.KEYWORD);
export const DEVICE_ORDER_STATUS = defineSearchAttributeKey('DeviceOrderStatus', SearchAttributeType.KEYWORD);

export function deviceOrderSearchAttributes(businessId: number, deviceCode: string, orderId: number | null): TypedSearchAttributes {
  return new TypedSearchAttributes([
    { key: BUSINESS_ID, value: businessId },
    { key: DEVICE_ID, value: deviceCode },
    { key: DEVICE_ORDER_STATUS, value: 'stored' },
    ...(orderId === null ? [] : [{ key: ORDER_ID, value: orderId }]),
  ]);
}
