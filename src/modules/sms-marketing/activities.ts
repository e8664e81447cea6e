import { Context } from '@temporalio/activity';
import type { WorkerDeps } from '../../platform/module.ts';
import { smsSender, SmsSendError } from '../sms/index.ts';
import type { BatchResult, SmsCampaignActivities } from './contract.ts';
import { messageOf } from './domain.ts';
import { campaignById, insertOptOut, isOptedOut, nextPending, recordOutcome, setState, type Outcome } from './repo.ts';

/** Attempts of a batch after which a message the provider keeps failing (429, 5xx, no answer) counts as failed. */
const SEND_ATTEMPTS = 5;

/** The ledger's key of a campaign's message to a number: one message per campaign and number, ever. */
export const campaignMessageKey = (campaignId: number, phone: string): string => `sms-campaign:${campaignId}:${phone}`;

export function createSmsCampaignActivities(deps: WorkerDeps): SmsCampaignActivities {
  const sender = smsSender(deps.orm, deps.config);
  return {
    async sendCampaignBatch({ campaignId, after, limit }): Promise<BatchResult> {
      const em = deps.orm.em.fork();
      const campaign = await campaignById(em, campaignId);
      const countsOf = (c: NonNullable<typeof campaign>) => ({
        total: c.total,
        sent: c.sent,
        failed: c.failed,
        skipped_opted_out: c.skipped_opted_out,
      });
      // No row: the start's transaction did not commit, and the process has nothing to send.
      if (!campaign) return { handled: 0, after, counts: { total: 0, sent: 0, failed: 0, skipped_opted_out: 0 } };
      // Retried until a worker with a provider takes it: the start refuses while none is configured.
      if (!sender) throw new Error('no SMS provider is configured (SMS_PROVIDER)');
      const phones = await nextPending(em, campaignId, after, limit);
      let last = after;
      for (const phone of phones) {
        let outcome: Outcome;
        let providerMessageId: string | null = null;
        let stopReported = false;
        // Checked just before the send: a STOP recorded while the campaign runs holds for its later messages.
        if (await isOptedOut(em, campaign.business_id, phone)) outcome = 'skipped_opted_out';
        else {
          try {
            providerMessageId = (
              await sender.send({
                to: phone,
                text: messageOf(campaign.body),
                purpose: `campaign:${campaignId}`,
                idempotencyKey: campaignMessageKey(campaignId, phone),
              })
            ).providerMessageId;
            outcome = 'sent';
          } catch (err) {
            const refused = err instanceof SmsSendError && !err.retryable;
            if (!refused && Context.current().info.attempt < SEND_ATTEMPTS) throw err;
            // The person texted STOP to the sender and the provider says so: kept as this business's opt-out.
            stopReported = err instanceof SmsSendError && err.unsubscribed;
            outcome = stopReported ? 'skipped_opted_out' : 'failed';
            if (!stopReported) deps.log.warn({ err, campaignId }, 'campaign message failed');
          }
        }
        await em.transactional(async (tx) => {
          if (stopReported)
            await insertOptOut(tx, { businessId: campaign.business_id, phone, source: 'reply', recordedBy: null });
          await recordOutcome(tx, campaignId, phone, outcome, providerMessageId);
        });
        last = phone;
        Context.current().heartbeat(phone);
      }
      const now = await campaignById(em, campaignId);
      return { handled: phones.length, after: last, counts: countsOf(now!) };
    },
    async setCampaignState({ campaignId, state }) {
      await setState(deps.orm.em.fork(), campaignId, state);
    },
  };
}
