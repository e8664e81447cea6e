/**
 * Sandbox tracking numbers (docs/labels.md): a carrier prefix, digits drawn from the purchase's idempotency key and
 * the parcel's position, so that a repeated purchase names the same parcels, and a check digit (Luhn, mod 10) that
 * catches a mistyped digit.
 */
import { createHash } from 'node:crypto';

/** The Luhn check digit of a string of digits. */
export function luhnDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Whether the digits after the prefix end with their Luhn check digit. */
export function checksOut(trackingNumber: string, prefix: string): boolean {
  const digits = trackingNumber.slice(prefix.length);
  if (!trackingNumber.startsWith(prefix) || !/^\d{2,}$/.test(digits)) return false;
  return luhnDigit(digits.slice(0, -1)) === Number(digits.slice(-1));
}

/** `prefix` + `length` digits from the key and the parcel's index + the check digit. */
export function trackingNumberOf(prefix: string, length: number, key: string, parcel: number): string {
  const hash = createHash('sha256').update(`${key}\u0000${parcel}`).digest();
  let digits = '';
  for (let i = 0; digits.length < length; i++) digits += String(hash[i % hash.length]! % 10);
  return `${prefix}${digits}${luhnDigit(digits)}`;
}
