import { ApplicationFailure } from '@temporalio/activity';
import type { Orm } from '../../platform/db/orm.ts';
import { transitionDeviceOrder } from './repo.ts';
import type { DeviceOrderAction } from './domain.ts';
import { DEVICE_ORDER_MISSING, INVALID_TRANSITION, type DeviceOrderSnapshot } from './contract.ts';
import type { RemovalReason } from './domain.ts';

export interface TransitionInput {
  id: number;
  action: DeviceOrderAction;
  removalReason?: RemovalReason;
  actorId?: number | null;
}

export function createDeviceOrderActivities(deps: { orm: Orm }) {
  return {
    /** Writes one transition, its ledger row and its outbox event in one transaction. */
    async applyDeviceOrderTransition(input: TransitionInput): Promise<DeviceOrderSnapshot> {
      const result = await transitionDeviceOrder(deps.orm.em.fork(), input.id, input.action, { removalReason: input.removalReason });
      if (result.ok) return result.view;
      if (result.reason === 'missing') {
        throw ApplicationFailure.create({ type: DEVICE_ORDER_MISSING, message: `device order ${input.id} does not exist`, nonRetryable: true });
      }
      throw ApplicationFailure.create({ type: INVALID_TRANSITION, message: `device order ${input.id} is ${result.status}`, details: [result.status, input.action], nonRetryable: true });
    },
  };
}

export type DeviceOrderActivities = ReturnType<typeof createDeviceOrderActivities>;
