import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Config } from '../../platform/config.ts';
import type { Orm } from '../../platform/db/orm.ts';
import { abandonNotice, sendNotice, SKIPPED } from '../notifications/index.ts';
import { isTerminal } from './domain.ts';
import { composePickupNotice, pickupNoticeKey, PICKUP_NOTICE_TEMPLATE } from './notices.ts';
import { findPickupNoticeFacts, transitionDeviceOrder } from './repo/orders.ts';
import { closeException, openException, openExceptionTypes, type ExceptionChange } from './repo/exceptions.ts';
import type { ExceptionType, ResolutionAction } from './exceptions.ts';
import {
  DEVICE_ORDER_MISSING,
  DEVICE_ORDER_NOT_WRITTEN,
  NOTICE_ROW_WAIT_MS,
  EXCEPTION_ALREADY_OPEN,
  EXCEPTION_NOT_OPEN,
  INVALID_TRANSITION,
  type DeviceOrderActivities,
  type DeviceOrderSnapshot,
  type ExceptionSnapshot,
  type TransitionInput,
  type OpenExceptionArgs,
  type ResolveExceptionArgs,
} from './contract.ts';

/** The process's snapshot of what an exception change wrote (the repo answers the rows as the events carry them). */
const snapshotOf = ({ device_order: o, exception: e }: ExceptionChange): ExceptionSnapshot => ({
  device_order: { id: o.id, status: o.status },
  exception: { id: e.id, type: e.type, status: e.status },
});

const refuse = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });

export function createDeviceOrderActivities(deps: {
  orm: Orm;
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>;
}): DeviceOrderActivities {
  const em = () => deps.orm.em.fork();
  return {
    /** Writes one transition, its ledger row and its outbox event in one transaction. */
    async applyDeviceOrderTransition(input: TransitionInput): Promise<DeviceOrderSnapshot> {
      const result = await transitionDeviceOrder(em(), input.id, input.action, { removalReason: input.removalReason });
      if (result.ok) return { id: result.view.id, status: result.view.status };
      if (result.reason === 'missing') throw refuse(DEVICE_ORDER_MISSING, `device order ${input.id} does not exist`);
      throw ApplicationFailure.create({
        type: INVALID_TRANSITION,
        message: `device order ${input.id} is ${result.status}`,
        details: [result.status, input.action],
        nonRetryable: true,
      });
    },

    /** Staff's open: refused when one of the type is open already. */
    async openDeviceOrderException(input: OpenExceptionArgs & { id: number }): Promise<ExceptionSnapshot> {
      const opened = await openException(em(), input.id, input);
      if (!opened) throw refuse(EXCEPTION_ALREADY_OPEN, `device order ${input.id} has an open ${input.type} exception`);
      return snapshotOf(opened);
    },

    /** Staff's resolve or dismiss: refused when the exception is not open. */
    async resolveDeviceOrderException(input: ResolveExceptionArgs & { id: number }): Promise<ExceptionSnapshot> {
      const closed = await closeException(em(), input.id, { exceptionId: input.exceptionId }, input);
      if (!closed)
        throw refuse(EXCEPTION_NOT_OPEN, `exception ${input.exceptionId} of device order ${input.id} is not open`);
      return snapshotOf(closed);
    },

    /** The process's own open (overdue, door_left_open): false when one of the type was open already. */
    async raiseDeviceOrderException(input: { id: number; type: ExceptionType }): Promise<boolean> {
      return (await openException(em(), input.id, { type: input.type, actorId: null })) !== null;
    },

    /** The process's own resolve of the open exception of a type, if there is one; false when there was none. */
    async settleDeviceOrderException(input: {
      id: number;
      type: ExceptionType;
      resolutionAction: ResolutionAction;
    }): Promise<boolean> {
      return (
        (await closeException(
          em(),
          input.id,
          { type: input.type },
          { status: 'resolved', resolutionAction: input.resolutionAction, actorId: null },
        )) !== null
      );
    },

    /** The types of the order's open exceptions, opened by anyone (a pickup lock opens one outside the process). */
    async openDeviceOrderExceptionTypes(input: { id: number }): Promise<ExceptionType[]> {
      return openExceptionTypes(em(), input.id);
    },

    /**
     * Mails the recipient the pickup code. The code is read here and goes only into the mail, never into this
     * activity's input or result (both are in the workflow history) nor into the notification row.
     */
    async notifyDeviceOrderRecipient(input: { id: number }): Promise<string> {
      const db = em();
      const facts = await findPickupNoticeFacts(db, input.id);
      if (!facts) {
        if (Date.now() - Context.current().info.scheduledTimestampMs < NOTICE_ROW_WAIT_MS)
          throw ApplicationFailure.create({
            type: DEVICE_ORDER_NOT_WRITTEN,
            message: `device order ${input.id} is not written yet`,
          });
        return 'skipped'; // its store rolled back: there is no parcel to tell of
      }
      const code = facts.pickupCode();
      if (code === null) return 'skipped'; // no code was kept for a notice
      const { subject, text } = composePickupNotice(facts, code);
      return sendNotice(db, deps.config, {
        key: pickupNoticeKey(input.id),
        businessId: facts.businessId,
        referenceType: 'device_order',
        referenceId: String(input.id),
        template: PICKUP_NOTICE_TEMPLATE,
        recipient: facts.recipient.email,
        subject,
        text,
        skip: isTerminal(facts.status) ? SKIPPED.parcelGone : undefined,
      });
    },

    /** A notice the mail server kept refusing through every attempt: recorded as failed, for the business to see. */
    async abandonDeviceOrderNotice(input: { id: number; error: string }): Promise<void> {
      await abandonNotice(em(), pickupNoticeKey(input.id), input.error);
    },
  };
}
