/**
 * App registration's codes (docs/apps.md, Registration). A code is derived, never drawn and kept: HMAC under a key
 * derived from the secrets key, of the registration id and the code's number, read as `length` digits. A retried
 * send therefore sends the same code, and the database holds only its keyed hash (as pickup codes are held), which
 * the check compares in constant time.
 */
import { createHmac } from 'node:crypto';
import type { Config } from '../../platform/config.ts';
import { secretKeys } from '../../platform/secretBox.ts';
import { codeHashKey, hashPickupCode, verifyPickupCode } from '../../platform/secrets.ts';
import type { BootstrapRow } from './repo/apps.ts';

export function registrationCode(id: string, codeNumber: number, length: number): string {
  const mac = createHmac('sha256', codeHashKey(secretKeys()[0]!))
    .update(`app-registration-code:${id}:${codeNumber}`)
    .digest();
  // 64 bits modulo at most 10^8: the bias is below one part in 10^11.
  return (mac.readBigUInt64BE(0) % 10n ** BigInt(length)).toString().padStart(length, '0');
}

export const hashRegistrationCode = (code: string): string => hashPickupCode(code, codeHashKey(secretKeys()[0]!));

/** Every configured key: a code hashed before a key rotation still matches. */
export const registrationCodeMatches = (code: string, hash: string | null): boolean =>
  hash !== null && secretKeys().some((key) => verifyPickupCode(code, hash, codeHashKey(key)));

/**
 * Whether the app can send verification codes: the platform admin says SMS is set up for it (sms_configured) and this
 * deployment has a provider (SMS_PROVIDER). The bootstrap shows this, not the stored flag alone.
 */
export const smsReady = (app: Pick<BootstrapRow, 'config'>, config: Pick<Config, 'sms'>): boolean =>
  app.config.authentication.registration.sms_configured && config.sms !== null;

/** The idempotency key of a registration's code: one per code, so a retried send goes out once. */
export const codeIdempotencyKey = (id: string, codeNumber: number): string => `app-registration:${id}:${codeNumber}`;
