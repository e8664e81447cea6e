import { ApplicationFailure } from '@temporalio/activity';
import type { Orm } from '../../platform/db/orm.ts';
import { LOCKER_DELIVERY_MISSING, LOCKER_INVALID_TRANSITION } from './contract.ts';
import type { LockerAction } from './domain.ts';
import { transitionLockerDelivery, type TransitionDetails } from './repo/deliveries.ts';
import type { LockerDeliveryView } from './views.ts';

export interface LockerTransitionInput extends TransitionDetails {
  id: number;
  action: LockerAction;
}

export function createLockerDeliveryActivities(deps: { orm: Orm }) {
  return {
    /** Writes one transition, its ledger row and its event in one transaction. */
    async applyLockerTransition(input: LockerTransitionInput): Promise<LockerDeliveryView> {
      const { id, action, ...details } = input;
      const result = await transitionLockerDelivery(deps.orm.em.fork(), id, action, details);
      if (result.ok) return result.view;
      if (result.reason === 'missing') {
        throw ApplicationFailure.create({ type: LOCKER_DELIVERY_MISSING, message: `locker delivery ${input.id} does not exist`, nonRetryable: true });
      }
      throw ApplicationFailure.create({ type: LOCKER_INVALID_TRANSITION, message: `locker delivery ${input.id} is ${result.status}`, details: [result.status, input.action], nonRetryable: true });
    },
  };
}

export type LockerDeliveryActivities = ReturnType<typeof createLockerDeliveryActivities>;
