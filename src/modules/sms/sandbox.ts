/**
 * The sandbox provider: sends nothing. The sender (sender.ts) records every message it is given, with its text
 * sealed, so that `npm start`'s demo and the tests read what would have gone out (sms_sandbox_messages).
 */
import { sha256Hex } from '../../platform/secrets.ts';
import type { SmsMessage, SmsProvider, SmsReceipt } from './provider.ts';

export const sandboxProvider: SmsProvider & { recordsText: true } = {
  name: 'sandbox',
  recordsText: true,
  send(message: SmsMessage): Promise<SmsReceipt> {
    // The same key, the same id: a repeated send is recognisably the same message.
    return Promise.resolve({ providerMessageId: `SB${sha256Hex(message.idempotencyKey).slice(0, 32)}` });
  },
};
