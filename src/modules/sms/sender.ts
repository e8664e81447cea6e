/**
 * The SMS sender other modules use: the configured provider behind a ledger of idempotency keys. A key already sent
 * answers its receipt and sends nothing, so an activity retried after its message went out (a worker killed before
 * it reported) sends it once. A crash between the provider's answer and the ledger's record leaves the key claimed
 * but not sent: the retry sends again, the one window no provider without idempotency keys of its own can close.
 */
import type { Config } from '../../platform/config.ts';
import type { Orm } from '../../platform/db/orm.ts';
import { purposeOf, sealSecret } from '../../platform/secretBox.ts';
import type { SmsMessage, SmsProvider, SmsReceipt } from './provider.ts';
import { claimMessage, markSent, SEALED_SMS_TEXT } from './repo.ts';
import { sandboxProvider } from './sandbox.ts';
import { twilioProvider } from './twilio.ts';

/** The provider SMS_PROVIDER names, without the ledger; null when none is configured. */
export function providerOf(config: Config): (SmsProvider & { recordsText?: boolean }) | null {
  if (!config.sms) return null;
  return config.sms.provider === 'sandbox' ? sandboxProvider : twilioProvider(config.sms);
}

/** The configured provider behind the ledger; null when SMS_PROVIDER is unset. */
export function smsSender(orm: Orm, config: Config): SmsProvider | null {
  const provider = providerOf(config);
  if (!provider) return null;
  return {
    name: provider.name,
    async send(message: SmsMessage): Promise<SmsReceipt> {
      const em = orm.em.fork();
      const prior = await claimMessage(em, { ...message, provider: provider.name });
      if (prior.status === 'sent') return { providerMessageId: prior.provider_message_id! };
      const receipt = await provider.send(message);
      const text = provider.recordsText ? sealSecret(purposeOf(SEALED_SMS_TEXT), message.text) : null;
      await markSent(em, message.idempotencyKey, receipt.providerMessageId, text);
      return receipt;
    },
  };
}
