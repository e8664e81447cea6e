/**
 * Recipient notifications (docs/notifications.md): messages the processes owe people outside the service, such as
 * a locker pickup code, sent by SMTP and recorded with their attempts, never with their text. A process composes
 * its message and sends it through `sendNotice` from an activity, whose retry policy makes the sending durable.
 */
import { defineModule } from '../../platform/module.ts';
import { closeMailTransports } from './mailer.ts';
import { notificationList } from './operations.ts';

export { closeMailTransports, sendNotice, type Notice } from './mailer.ts';
export { SKIPPED } from './domain.ts';
export { abandonNotice, listNotifications } from './repo.ts';
export { NotificationView, presentNotification } from './views.ts';

export const notifications = defineModule({
  name: 'notifications',
  tags: {
    Notifications:
      "What the service sent, or still owes, the business's recipients (such as pickup codes), with each one's status; never its text.",
  },
  operations: [notificationList],
  // The worker sends; its pooled SMTP connections close with it.
  services: () => [{ start: async () => undefined, stop: async () => closeMailTransports() }],
});
