import {
  createHash,
  createHmac,
  createSecretKey,
  hkdfSync,
  randomBytes,
  randomInt,
  scrypt,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';

// scrypt with N=2^15, r=8: 32 MiB per hash, a memory-hard cost that slows offline guessing.
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_LENGTH = 32;

function scryptAsync(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, { ...params, maxmem: SCRYPT.maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash`, both base64url, so the cost can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scryptAsync(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash to compare against when the email is unknown, so timing does not tell which emails exist. */
export const DUMMY_PASSWORD_HASH =
  'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens carry 256 random bits, so a fast digest is enough to store them. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function newPickupCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * Six digits are a million guesses, so a plain salted digest gives every code away to whoever holds a database dump.
 * Codes are stored as HMAC-SHA256 under a key derived from the secrets key, which never enters the database.
 */
const codeKeys = new WeakMap<Buffer, KeyObject>();
/** Derived once per secrets key, as a key object: every store and collect hashes a code under it. */
export function codeHashKey(secretsKey: Buffer): KeyObject {
  let key = codeKeys.get(secretsKey);
  if (!key) {
    key = createSecretKey(Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'tms pickup code hash', 32)));
    codeKeys.set(secretsKey, key);
  }
  return key;
}

const codeMac = (key: KeyObject, salt: string, code: string): Buffer =>
  createHmac('sha256', key).update(`${salt}:${code}`).digest();

/** `hmac$<salt>$<mac>`. */
export function hashPickupCode(code: string, key: KeyObject): string {
  const salt = randomBytes(12).toString('base64url');
  return `hmac$${salt}$${codeMac(key, salt, code).toString('base64url')}`;
}

/** Compares in constant time. Rows written before the key (`<salt>$<sha256 hex>`) are still honoured until their orders end. */
export function verifyPickupCode(code: string, stored: string, key: KeyObject): boolean {
  const parts = stored.split('$');
  const keyed = parts[0] === 'hmac';
  const [salt, hash] = keyed ? parts.slice(1) : parts;
  if (!salt || !hash) return false;
  const actual = keyed ? codeMac(key, salt, code) : Buffer.from(sha256Hex(`${salt}:${code}`), 'hex');
  const expected = Buffer.from(hash, keyed ? 'base64url' : 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
