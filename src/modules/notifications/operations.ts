import { z } from 'zod';
import { offsetOf, pageOf, pageOutput, pageParams } from '../../platform/catalog/schemas.ts';
import { defineOperation } from '../../platform/catalog/types.ts';
import { NOTIFICATION_STATUSES } from './domain.ts';
import { listNotifications } from './repo.ts';
import { NotificationView, presentNotification } from './views.ts';

export const notificationList = defineOperation({
  name: 'notification_list',
  summary:
    "The notifications the service sent, or still owes, the business's recipients (newest first; never their text): filter by status or by the process that sent them.",
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
