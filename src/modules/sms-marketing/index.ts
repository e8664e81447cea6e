/**
 * SMS Marketing, an opt-in family (docs/opt-in-families.md, "SMS Marketing"): campaigns to the phone numbers of the
 * business's order recipients through the SMS provider (src/modules/sms), each a workflow `sms-campaign-<id>`
 * (contract.ts) that sends at a bounded rate, keeps the business's quiet hours, skips opted-out numbers, and can be
 * paused, resumed and cancelled. The opt-outs are kept for good.
 */
import { defineModule } from '../../platform/module.ts';
import { createSmsCampaignActivities } from './activities.ts';
import { SMS_CAMPAIGN_QUEUE, SMS_CAMPAIGN_WORKFLOW } from './contract.ts';
import { SMS_MARKETING_ERRORS } from './errorCodes.ts';
import { SMS_MARKETING_MESSAGES } from './messages.ts';
import { SMS_MARKETING_OPERATIONS } from './operations.ts';

export const smsMarketing = defineModule({
  name: 'sms-marketing',
  tags: {
    'SMS Marketing':
      "Campaigns by SMS to the phone numbers of the business's order recipients (opt-in: the platform admin switches it on and marks it migrated): write, start, pause, resume and cancel them, and follow their counts; every message carries the opt-out instruction, opted-out numbers are skipped for good, and quiet hours are kept.",
  },
  taskQueue: SMS_CAMPAIGN_QUEUE,
  operations: SMS_MARKETING_OPERATIONS,
  activities: createSmsCampaignActivities,
  workflows: [SMS_CAMPAIGN_WORKFLOW],
  messages: SMS_MARKETING_MESSAGES,
  errorCodes: SMS_MARKETING_ERRORS,
});
