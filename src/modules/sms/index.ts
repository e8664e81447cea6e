/**
 * The SMS provider (docs/sms.md): one interface (provider.ts), the sandbox that records what it would send, Twilio's
 * Messages API, and the sender other modules use, which keeps one message per idempotency key. App registration
 * sends its verification codes through it; SMS Marketing will send its campaigns.
 */
import { defineModule } from '../../platform/module.ts';
import { SMS_TAG, smsSandboxMessages } from './operations.ts';
import { SEALED_SMS_TEXT } from './repo.ts';

export const sms = defineModule({
  name: 'sms',
  tags: {
    [SMS_TAG]:
      "The SMS provider's sandbox: the messages it recorded instead of sending them (verification codes among them), for the platform admin.",
  },
  operations: [smsSandboxMessages],
  sealedColumns: [SEALED_SMS_TEXT],
});

export { SmsSendError, type SmsMessage, type SmsProvider, type SmsReceipt } from './provider.ts';
export { smsSender } from './sender.ts';
export { toE164 } from './phone.ts';
export { twilioProvider } from './twilio.ts';
