import { ApplicationFailure } from '@temporalio/activity';
import type { Config } from '../../platform/config.ts';
import type { Orm } from '../../platform/db/orm.ts';
import { abandonNotice, sendNotice } from '../notifications/index.ts';
import {
  LOCKER_DELIVERY_MISSING,
  LOCKER_INVALID_TRANSITION,
  lockerNoticeKey,
  type DoorState,
  type LockerDeliveryActivities,
  type LockerDeliverySnapshot,
  type LockerTransitionInput,
  type NoticeInput,
  type RotateCodeInput,
} from './contract.ts';
import { composeNotice } from './notices.ts';
import { recordDoorReport } from '../lockers/index.ts';
import { deviceOfDelivery, findNoticeFacts, transitionLockerDelivery } from './repo/deliveries.ts';
import { rotateLockerCode } from './repo/rotation.ts';
import type { LockerDeliveryView } from './views.ts';

/** The process keeps only what it decides by; the API presents the row. */
const snapshotOf = (v: LockerDeliveryView): LockerDeliverySnapshot => ({
  id: v.id,
  status: v.status,
  parcels: v.parcels.map((p) => ({ compartment_number: p.compartment_number })),
  pickup_expires_at: v.pickup_expires_at,
});

export function createLockerDeliveryActivities(deps: {
  orm: Orm;
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>;
}): LockerDeliveryActivities {
  return {
    /** Writes one transition, its ledger row and its event in one transaction. */
    async applyLockerTransition(input: LockerTransitionInput): Promise<LockerDeliverySnapshot> {
      const { id, action, ...details } = input;
      const result = await transitionLockerDelivery(deps.orm.em.fork(), id, action, details);
      if (result.ok) return snapshotOf(result.view);
      if (result.reason === 'missing') {
        throw ApplicationFailure.create({
          type: LOCKER_DELIVERY_MISSING,
          message: `locker delivery ${input.id} does not exist`,
          nonRetryable: true,
        });
      }
      throw ApplicationFailure.create({
        type: LOCKER_INVALID_TRANSITION,
        message: `locker delivery ${input.id} is ${result.status}`,
        details: [result.status, input.action],
        nonRetryable: true,
      });
    },

    /** Replaces a code with its event; the new pickup code is drawn and sealed in here, so no workflow history holds it. */
    async rotateCode(input: RotateCodeInput): Promise<{ view: LockerDeliverySnapshot; recipientNotified: boolean }> {
      const { id, ...rotation } = input;
      const rotated = await rotateLockerCode(deps.orm.em.fork(), id, rotation);
      if (!rotated)
        throw ApplicationFailure.create({
          type: LOCKER_DELIVERY_MISSING,
          message: `locker delivery ${id} does not exist`,
          nonRetryable: true,
        });
      return { view: snapshotOf(rotated.view), recipientNotified: rotated.recipientNotified };
    },

    /**
     * Sends the recipient a message with the delivery's current pickup code; the code is read here and goes only
     * into the mail, never into this activity's input or result (both are in the workflow history).
     */
    async notifyRecipient(input: NoticeInput): Promise<string> {
      const em = deps.orm.em.fork();
      const facts = await findNoticeFacts(em, input.id);
      if (!facts)
        throw ApplicationFailure.create({
          type: LOCKER_DELIVERY_MISSING,
          message: `locker delivery ${input.id} does not exist`,
          nonRetryable: true,
        });
      const { subject, text } = composeNotice(
        input.template,
        { view: facts.view, deviceName: facts.deviceName },
        facts.pickupCode(),
      );
      return sendNotice(em, deps.config, {
        key: lockerNoticeKey(input.id, input.template, input.seq),
        businessId: facts.businessId,
        referenceType: 'locker_delivery',
        referenceId: String(input.id),
        template: input.template,
        recipient: facts.view.recipient.email,
        subject,
        text,
      });
    },

    /** The sandbox's simulated locker reports these doors of the delivery as a real one would (docs/lockers.md, Door reports). */
    async simulateDoorReports(input: { id: number; compartmentNumbers: number[]; state: DoorState }): Promise<void> {
      const em = deps.orm.em.fork();
      const deviceId = await deviceOfDelivery(em, input.id);
      if (deviceId === null) return;
      const at = new Date();
      for (const n of input.compartmentNumbers) await recordDoorReport(em, deviceId, n, input.state, at);
    },

    /** Records that a message was given up after its last attempt. */
    async abandonRecipientNotice(input: NoticeInput & { error: string }): Promise<void> {
      await abandonNotice(deps.orm.em.fork(), lockerNoticeKey(input.id, input.template, input.seq), input.error);
    },
  };
}
