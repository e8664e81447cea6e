/**
 * Secrets the service must read back (webhook signing secrets, provider and OHP endpoint secrets) are stored
 * sealed: AES-256-GCM under a key derived from SECRETS_KEY, which never enters the database, so a dump gives none
 * of them away. SECRETS_KEY may hold several keys: the first seals, every one opens, so a key can be replaced
 * while rows sealed under the old one are re-sealed (the secrets module's rotation workflow). docs/secrets.md.
 *
 * A sealed value reads `tms1.<key id>.<iv>.<ciphertext and tag>` (base64url). The purpose (`table.column`) is
 * bound as additional data, so a value copied into a column of another purpose does not open.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'tms1.';

interface Key {
  /** Names the key in every value it seals, so a rotation can tell which rows are still under an old one. */
  id: string;
  /** The key as configured: pickup codes derive their own key from it (secrets.ts). */
  raw: Buffer;
  aes: Buffer;
}

let ring: Key[] = [];

/** The keys this process holds, the sealing one first. Bootstrap installs them from the configuration. */
export function installSecretKeys(keys: readonly Buffer[]): void {
  if (keys.length === 0) throw new Error('at least one secrets key is needed');
  ring = keys.map((raw) => ({
    id: createHmac('sha256', raw).update('tms key id').digest('base64url').slice(0, 8),
    raw,
    aes: Buffer.from(hkdfSync('sha256', raw, Buffer.alloc(0), 'tms secret box', 32)),
  }));
}

function keys(): Key[] {
  if (ring.length === 0) throw new Error('no secrets key installed (bootstrap installs SECRETS_KEY)');
  return ring;
}

/** The configured keys, the sealing one first. */
export const secretKeys = (): Buffer[] => keys().map((k) => k.raw);

/** The id of the key new values are sealed under. */
export const sealingKeyId = (): string => keys()[0]!.id;

export function sealSecret(purpose: string, plain: string): string {
  const key = keys()[0]!;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.aes, iv).setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${key.id}.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

export const isSealed = (stored: string): boolean => stored.startsWith(PREFIX);

/** The id of the key a value is sealed under; null for a value stored before sealing (plain text). */
export const sealedKeyId = (stored: string): string | null =>
  isSealed(stored) ? stored.slice(PREFIX.length).split('.')[0]! : null;

/**
 * The secret in a stored value. A value written before sealing existed passes through as it is, until the start-up
 * step or a rotation seals it. A value under a key this process does not hold, or altered, throws.
 */
export function openSecret(purpose: string, stored: string): string {
  if (!isSealed(stored)) return stored;
  const [id, iv, body] = stored.slice(PREFIX.length).split('.');
  const key = keys().find((k) => k.id === id);
  if (!key || !iv || !body)
    throw new Error(`a ${purpose} value is sealed under key ${id}, which SECRETS_KEY does not hold`);
  const data = Buffer.from(body, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key.aes, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(purpose));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
}

/** A column that holds sealed secrets, declared by the module that owns its table. */
export interface SealedColumn {
  table: string;
  column: string;
  /** What its values are sealed for: `table.column` unless columns share values (a previous secret moved from the current one). */
  purpose?: string;
}

export const purposeOf = (c: SealedColumn): string => c.purpose ?? `${c.table}.${c.column}`;

let columns: SealedColumn[] = [];

/** The modules' sealed columns, registered once at start-up (src/modules/index.ts). */
export function registerSealedColumns(list: readonly SealedColumn[]): void {
  columns = [...list];
}

export const sealedColumns = (): readonly SealedColumn[] => columns;
