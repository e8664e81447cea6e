import { TypedSearchAttributes } from '@temporalio/common';
import { SA } from '../../modules/searchAttributes.ts';

/** Business keys are workflow ids: a second start of the same id fails instead of creating a twin. */
export const NO_DUPLICATES = { workflowIdConflictPolicy: 'FAIL', workflowIdReusePolicy: 'REJECT_DUPLICATE' } as const;

export function deviceOrderSearchAttributes(businessId: number, deviceCode: string, orderId: number | null): TypedSearchAttributes {
  return new TypedSearchAttributes([
    { key: SA.businessId, value: businessId },
    { key: SA.deviceId, value: deviceCode },
    { key: SA.deviceOrderStatus, value: 'stored' },
    ...(orderId === null ? [] : [{ key: SA.orderId, value: orderId }]),
  ]);
}
