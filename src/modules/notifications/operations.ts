import { z } from 'zod';
import { offsetOf, pageOf, pageOutput, pageParams } from '../../platform/catalog/schemas.ts';
import { defineOperation } from '../../platform/catalog/types.ts';
import { NOTIFICATION_STATUSES } from './domain.ts';
import { listNotifications } from './repo.ts';
import { NotificationView, presentNotification } from './views.ts';

export const notificationList = defineOperation({
  name: 'notification_list',
  summary: "List the email notifications the service sent, or still owes, the business's recipients, newest first.",
  description:
    "Each entry names the recipient's address, the message template (such as locker_pickup_code), its status (pending, sent, failed or skipped), its attempts and the last error, never the message's text or a code in it. Filter by `status` or by the process that owed it (`reference_type` such as locker_delivery or device_order, with `reference_id`); 50 a page by default (`page`, `per_page` up to 200). A skipped entry says why nobody was told (no email address, say). Those a partner locker delivery owes belong to the locker's business.",
  tag: 'Notifications',
  roles: ['client_admin'],
  business: true,
  rest: { method: 'GET', path: '/v1/notifications' },
  input: z
    .object({
      status: z.enum(NOTIFICATION_STATUSES).optional(),
      reference_type: z.string().trim().min(1).max(32).optional(),
      reference_id: z.string().trim().min(1).max(64).optional(),
      ...pageParams,
    })
    .strict(),
  output: pageOutput('notifications', NotificationView),
  async handler(input, ctx) {
    const { total, items } = await listNotifications(ctx.em, {
      businessId: ctx.caller.businessId,
      referenceType: input.reference_type,
      referenceId: input.reference_id,
      status: input.status,
      limit: input.per_page,
      offset: offsetOf(input),
    });
    return pageOf(input, 'notifications', total, items.map(presentNotification));
  },
});
