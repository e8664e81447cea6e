/** What became of a message: owed and being tried, handed to the mail server, given up, or not sendable. */
export const NOTIFICATION_STATUSES = ['pending', 'sent', 'failed', 'skipped'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** Why a message was skipped, as recorded in last_error. */
export const SKIPPED = {
  noAddress: 'the recipient has no email address',
  noServer: 'no mail server is configured (SMTP_URL)',
  /** The parcel was collected or removed before the message could go: it would only mislead. */
  parcelGone: 'the parcel has left the locker',
} as const;
