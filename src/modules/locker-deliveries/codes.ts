/**
 * Delivery and pickup codes: 8 random digits, stored as keyed hashes for the screen (docs/locker-deliveries.md,
 * Codes). A locker's screen matches a typed code against every open delivery of the device, so a new code is drawn
 * again while it equals a code the device already takes.
 */
import { randomInt } from 'node:crypto';
import { secretKeys } from '../../platform/secretBox.ts';
import { codeHashKey, hashPickupCode, verifyPickupCode } from '../../platform/secrets.ts';

const newLockerCode = (): string => String(randomInt(0, 100_000_000)).padStart(8, '0');

/** Whether `code` is the one hashed; every configured key counts, so a code made before a key rotation still works. */
export const codeMatches = (code: string, hash: string): boolean => secretKeys().some((k) => verifyPickupCode(code, hash, codeHashKey(k)));

/** The keyed hash kept for the screen, under the current key. */
export const hashLockerCode = (code: string): string => hashPickupCode(code, codeHashKey(secretKeys()[0]!));

/** A code none of these hashes matches (one draw in 10^8 per open code collides, so this loops very rarely). */
export function drawLockerCode(taken: readonly string[], draw: () => string = newLockerCode): string {
  for (;;) {
    const code = draw();
    if (!taken.some((hash) => codeMatches(code, hash))) return code;
  }
}
