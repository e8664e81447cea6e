import type { Config } from '../../platform/config.ts';
import { insertOutboxEvents } from '../../platform/db/outbox.ts';
import type { Orm } from '../../platform/db/orm.ts';
import { storeBroughtParcel } from '../device-orders/index.ts';
import { abandonNotice, sendNotice } from '../notifications/index.ts';
import type { DistributionActivities, RecordedScan, RecordScanInput } from './contract.ts';
import { carrierPackageEvent } from './events.ts';
import { composeShelvedNotice, shelvedNoticeKey, SHELVED_TEMPLATE } from './notices.ts';
import {
  countFlagged,
  findCarrierEventFacts,
  findScanOutcome,
  findShelvedNoticeFacts,
  insertScan,
  writeStep,
} from './repo/distributions.ts';
import { stateAfter, type ScanFlag } from './domain.ts';

/** How long a parcel shelved into a locker waits for its recipient before it is overdue, at timer scale 1. */
export const SHELF_PICKUP_DAYS = 7;

export function createDistributionActivities(deps: { orm: Orm; config: Config }): DistributionActivities {
  return {
    /**
     * Keeps one scan on the package's history and, when it applies, writes the step, the locker's device order
     * and the carrier's event, in one transaction. A scan of a key already kept answers `duplicate` and writes nothing.
     */
    async recordDistributionScan(input: RecordScanInput): Promise<RecordedScan> {
      const { scan, judgement } = input;
      return deps.orm.em.fork().transactional(async (tx) => {
        const seen = await findScanOutcome(tx, input.packageId, scan.key);
        if (seen)
          return {
            outcome: { scan_id: seen.id, outcome: 'duplicate', flag: null, status: seen.status },
            state: input.state,
            deviceOrder: null,
          };

        let flag: ScanFlag | null = judgement.applied ? null : judgement.flag;
        let brought = null;
        if (judgement.applied && scan.action === 'shelved' && scan.deviceCode !== null) {
          const dueAt = new Date(Date.now() + SHELF_PICKUP_DAYS * 86_400_000 * input.timerScale);
          brought = await storeBroughtParcel(tx, {
            businessId: input.businessId,
            deviceCode: scan.deviceCode,
            gridCode: scan.gridCode!,
            referenceNumber: input.packageNumber,
            orderId: input.orderId,
            dueAt,
            timerScale: input.timerScale,
          });
          if (!brought.stored) flag = brought.reason === 'occupied' ? 'compartment_occupied' : 'wrong_place';
        }
        const state =
          flag === null && judgement.applied ? stateAfter(input.state, scan, judgement.status) : input.state;
        const scanId = (await insertScan(tx, {
          businessId: input.businessId,
          packageId: input.packageId,
          key: scan.key,
          source: scan.source,
          action: scan.action,
          placeId: scan.placeId,
          destinationId: scan.destinationId,
          gridCode: scan.gridCode,
          shelfCode: scan.shelfCode,
          scannedAt: scan.scannedAt,
          actorId: scan.actorId,
          flag,
          statusAfter: state.status,
        }))!;
        if (flag !== null) {
          await countFlagged(tx, input.packageId);
          return {
            outcome: { scan_id: scanId, outcome: 'flagged', flag, status: state.status },
            state,
            deviceOrder: null,
          };
        }
        const stored = brought?.stored ? brought : null;
        await writeStep(tx, {
          businessId: input.businessId,
          packageId: input.packageId,
          orderId: input.orderId,
          action: scan.action,
          state,
          at: scan.scannedAt,
          gridId: stored?.compartmentId ?? null,
          gridCode: scan.gridCode,
          shelfCode: scan.shelfCode,
          deviceOrderId: stored?.input.id ?? null,
          pickupCode: stored?.pickupCode ?? null,
          removalReason: scan.reason ?? 'removed',
        });
        const facts = await findCarrierEventFacts(tx, input.packageId);
        if (facts)
          await insertOutboxEvents(tx, [
            carrierPackageEvent(input.businessId, input.orderId, input.packageId, scanId, scan.action, facts),
          ]);
        return {
          outcome: { scan_id: scanId, outcome: 'applied', flag: null, status: state.status },
          state,
          deviceOrder: stored && { input: stored.input, deviceCode: stored.deviceCode },
        };
      });
    },

    /** Sends the recipient's pickup notice of a shelved package, once; retried by the activity's policy until the mail server takes it. */
    async notifyShelvedRecipient(input: { packageId: number }): Promise<string> {
      const em = deps.orm.em.fork();
      const facts = await findShelvedNoticeFacts(em, input.packageId);
      if (!facts) return 'skipped';
      const { subject, text } = composeShelvedNotice(facts, facts.pickupCode());
      return sendNotice(em, deps.config, {
        key: shelvedNoticeKey(input.packageId),
        businessId: facts.businessId,
        referenceType: 'package',
        referenceId: String(input.packageId),
        template: SHELVED_TEMPLATE,
        recipient: facts.recipient.email ?? null,
        subject,
        text,
      });
    },

    /** A notice the mail server kept refusing through every attempt: recorded as failed, for the business to see. */
    async abandonShelvedNotice(input: { packageId: number; error: string }): Promise<void> {
      await abandonNotice(deps.orm.em.fork(), shelvedNoticeKey(input.packageId), input.error);
    },
  };
}
