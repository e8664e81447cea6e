/**
 * Twilio's Messages API (docs/sms.md): `POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json`, a form with
 * To, Body and From (or MessagingServiceSid), HTTP basic authentication with the account SID and auth token. 201
 * with the message's `sid` is a message queued for delivery. Neither the text, the number nor the token goes into
 * an error or a log: Twilio's own error message may quote the number, so only its numeric code is kept.
 */
import type { SmsConfig } from '../../platform/config.ts';
import { SmsSendError, type SmsMessage, type SmsProvider, type SmsReceipt } from './provider.ts';

export type TwilioConfig = Extract<SmsConfig, { provider: 'twilio' }>;

/**
 * Twilio's error for a recipient who has replied STOP to the sender: Twilio keeps the opt-out (Advanced Opt-Out) and
 * refuses every later message to that number from that sender.
 */
const UNSUBSCRIBED_RECIPIENT = 21610;

/** How long one request may take before it counts as a network failure (retryable). */
const TIMEOUT_MS = 10_000;

export function twilioProvider(c: TwilioConfig): SmsProvider {
  const url = `${c.apiBaseUrl}/2010-04-01/Accounts/${encodeURIComponent(c.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${c.accountSid}:${c.authToken}`).toString('base64')}`;
  return {
    name: 'twilio',
    async send(message: SmsMessage): Promise<SmsReceipt> {
      const form = new URLSearchParams({ To: message.to, Body: message.text });
      if (c.messagingServiceSid) form.set('MessagingServiceSid', c.messagingServiceSid);
      else form.set('From', c.fromNumber!);
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: {
            authorization,
            accept: 'application/json',
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: form,
          redirect: 'error',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (err) {
        throw new SmsSendError(`twilio not reached (${(err as Error).name})`, true);
      }
      const body = (await res.json().catch(() => null)) as { sid?: unknown; code?: unknown } | null;
      if (res.ok && typeof body?.sid === 'string') return { providerMessageId: body.sid };
      const code = typeof body?.code === 'number' ? ` (error ${body.code})` : '';
      if (res.ok) throw new SmsSendError(`twilio answered ${res.status} without a message sid`, true, res.status);
      const refused = res.status >= 400 && res.status < 500 && res.status !== 429;
      throw new SmsSendError(
        `twilio ${refused ? 'refused the message' : 'failed'}: ${res.status}${code}`,
        !refused,
        res.status,
        body?.code === UNSUBSCRIBED_RECIPIENT,
      );
    },
  };
}
