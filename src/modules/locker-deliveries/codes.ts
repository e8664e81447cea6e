/**
 * Delivery and pickup codes: 8 random digits, kept as tags for the screen (docs/locker-deliveries.md, Codes). A
 * tag is a keyed hash (HMAC-SHA256 under a key derived from the secrets key) of the device and the code: without
 * the key a database dump tells nothing, and with it a screen finds a typed code's delivery by an index lookup, not
 * by hashing against every open delivery. A code is tagged under every configured key when looked up, so a code
 * made before a key rotation still works while its key is configured.
 */
import { createHmac, randomInt } from 'node:crypto';
import { secretKeys } from '../../platform/secretBox.ts';
import { codeHashKey } from '../../platform/secrets.ts';

export const newLockerCode = (): string => String(randomInt(0, 100_000_000)).padStart(8, '0');

const tagUnder = (secretsKey: Buffer, deviceId: number, code: string): string =>
  `t1$${createHmac('sha256', codeHashKey(secretsKey)).update(`${deviceId}:${code}`).digest('base64url')}`;

/** The tag stored for a code of this device, under the sealing key. */
export const tagLockerCode = (deviceId: number, code: string): string => tagUnder(secretKeys()[0]!, deviceId, code);

/** Every tag the code may be stored under: one per configured key. */
export const lookupTags = (deviceId: number, code: string): string[] =>
  secretKeys().map((k) => tagUnder(k, deviceId, code));

/**
 * The advisory lock key of a code on a device: its tag cut to 32 bits, so neither the SQL text nor the lock table
 * shows the code. Two transactions drawing the same code for one device wait on the same key.
 */
export const codeLockKey = (deviceId: number, code: string): number =>
  Buffer.from(tagLockerCode(deviceId, code).slice(3), 'base64url').readInt32BE(0);
