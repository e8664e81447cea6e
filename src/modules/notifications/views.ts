import { z } from 'zod';
import { NOTIFICATION_STATUSES } from './domain.ts';
import type { NotificationRow } from './repo.ts';

const time = (description: string) => z.string().meta({ format: 'date-time', description });

/** A notification as the business sees it: to whom, which message, what became of it; never its text. */
export const NotificationView = z
  .object({
    id: z.string().describe('Notification id'),
    reference_type: z.string().describe('The kind of process that sent it, such as locker_delivery'),
    reference_id: z.string().describe("That process's id"),
    channel: z.literal('email'),
    recipient: z.string().nullable().describe('Email address; null when the recipient gave none'),
    template: z.string().describe('Which message, such as locker_pickup_code'),
    status: z
      .enum(NOTIFICATION_STATUSES)
      .describe(
        'pending while being tried, sent once the mail server took it, failed after the last attempt, skipped when it could not be sent',
      ),
    attempts: z.number().int(),
    last_error: z.string().nullable().describe('Why the last attempt failed or why it was skipped'),
    created_at: time('When it was owed'),
    sent_at: time('When the mail server took it').nullable(),
  })
  .strict();
export type NotificationView = z.infer<typeof NotificationView>;

export const presentNotification = (r: NotificationRow): NotificationView => ({
  id: r.id,
  reference_type: r.reference_type,
  reference_id: r.reference_id,
  channel: 'email',
  recipient: r.recipient,
  template: r.template,
  status: r.status,
  attempts: r.attempts,
  last_error: r.last_error,
  created_at: new Date(r.created_at).toISOString(),
  sent_at: r.sent_at === null ? null : new Date(r.sent_at).toISOString(),
});
