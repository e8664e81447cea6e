/**
 * The SMS provider interface (docs/sms.md): app registration sends its verification codes through it, SMS Marketing
 * its campaigns. `SMS_PROVIDER` picks the implementation: `sandbox` records what it would send and sends nothing;
 * `twilio` sends through Twilio's Messages API. With none configured, nothing can be sent and the callers say so.
 */

/** One text to one phone number. */
export interface SmsMessage {
  /** E.164, such as +420601123456. */
  to: string;
  text: string;
  /** What sends it, for the provider's records and the sandbox: `registration`, `campaign:42`. */
  purpose: string;
  /**
   * The same key for the same message: a provider that records messages keeps one per key, so that an activity
   * retried after a crash between sending and recording does not send the message twice where the provider allows it.
   */
  idempotencyKey: string;
}

/** What the provider answered: its id of the message. */
export interface SmsReceipt {
  providerMessageId: string;
}

export interface SmsProvider {
  /** `sandbox` or `twilio`. */
  readonly name: string;
  /**
   * Sends the message or throws. An error whose `retryable` is false (a number the provider refuses) is not worth
   * trying again; any other is.
   */
  send(message: SmsMessage): Promise<SmsReceipt>;
}

/**
 * A send that failed. `retryable` is false when trying again cannot help (the provider refused the number, the
 * sender or the text: a 4xx other than 429); a network failure, a timeout, 429 and 5xx are worth another try. The
 * message names neither the text nor the number nor any credential, so it may be logged.
 */
export class SmsSendError extends Error {
  readonly retryable: boolean;
  /** The provider's HTTP status, when it answered. */
  readonly status: number | null;
  /**
   * The provider refused because the recipient has opted out of this sender (texted STOP to it): the caller keeps
   * the opt-out as its own, so that nothing is sent to the number again.
   */
  readonly unsubscribed: boolean;
  constructor(message: string, retryable: boolean, status: number | null = null, unsubscribed = false) {
    super(message);
    this.name = 'SmsSendError';
    this.retryable = retryable;
    this.status = status;
    this.unsubscribed = unsubscribed;
  }
}
