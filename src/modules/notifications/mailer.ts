/**
 * Sends one notification by SMTP (nodemailer), recording the attempt on its row. The message text exists only
 * here, in memory: neither the row nor a log line holds it, since it may carry a pickup code.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../platform/config.ts';
import type { Em } from '../../platform/db/orm.ts';
import { SKIPPED, type NotificationStatus } from './domain.ts';
import { findOrCreateNotification, recordAttempt, type NotificationKey } from './repo.ts';

export interface Notice extends NotificationKey {
  subject: string;
  text: string;
  /** Why the message is not to be sent after all (a SKIPPED reason): recorded as skipped instead. */
  skip?: string;
}

const transports = new Map<string, Transporter>();

function transportFor(url: string): Transporter {
  let t = transports.get(url);
  if (!t) {
    const u = new URL(url);
    const secure = u.protocol === 'smtps:';
    t = nodemailer.createTransport({
      host: u.hostname,
      port: u.port ? Number(u.port) : secure ? 465 : 587,
      secure,
      auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
      pool: true,
      maxConnections: 4,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
      logger: false,
    });
    transports.set(url, t);
  }
  return t;
}

/** Closes the pooled SMTP connections (at shutdown). */
export function closeMailTransports(): void {
  for (const t of transports.values()) t.close();
  transports.clear();
}

/**
 * Sends the notice unless its row says it is done; answers the row's status. A refused or unreachable mail server
 * throws after the attempt is recorded, so the caller's retry policy tries again.
 */
export async function sendNotice(
  em: Em,
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>,
  notice: Notice,
): Promise<NotificationStatus> {
  const row = await findOrCreateNotification(em, notice);
  if (row.status !== 'pending') return row.status;
  const skip =
    notice.skip ?? (notice.recipient === null ? SKIPPED.noAddress : config.smtpUrl === null ? SKIPPED.noServer : null);
  if (skip !== null) {
    await recordAttempt(em, row.id, 'skipped', skip, false);
    return 'skipped';
  }
  try {
    await transportFor(config.smtpUrl!).sendMail({
      from: config.mailFrom,
      to: notice.recipient!,
      subject: notice.subject,
      text: notice.text,
    });
  } catch (err) {
    await recordAttempt(em, row.id, 'pending', err instanceof Error ? err.message : String(err));
    throw err;
  }
  await recordAttempt(em, row.id, 'sent', null);
  return 'sent';
}
