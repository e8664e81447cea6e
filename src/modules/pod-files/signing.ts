import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { secretKeys } from '../../platform/secretBox.ts';

/**
 * Signed download links of proof files: HMAC-SHA256 over `<file id>.<version id>.<expires>` under a key derived
 * (HKDF, purpose pod-file-url) from SECRETS_KEY. The newest key signs; every key of the ring verifies, so a key
 * rotation does not break the links already sent. A link names the version it was signed for: once another version
 * is current, a link to the file without `version` no longer opens (archived images are never sent).
 */
const derived = new WeakMap<Buffer, Buffer>();

function keyOf(raw: Buffer): Buffer {
  let key = derived.get(raw);
  if (!key) derived.set(raw, (key = Buffer.from(hkdfSync('sha256', raw, Buffer.alloc(0), 'pod-file-url', 32))));
  return key;
}

const macOf = (key: Buffer, fileId: number, versionId: number, expires: number) =>
  createHmac('sha256', key).update(`${fileId}.${versionId}.${expires}`).digest();

export function signFile(fileId: number, versionId: number, expires: number): string {
  return macOf(keyOf(secretKeys()[0]!), fileId, versionId, expires).toString('hex');
}

/** Whether `signature` is this version's for this expiry, under any key held; compared in constant time. */
export function verifyFile(fileId: number, versionId: number, expires: number, signature: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  const given = Buffer.from(signature, 'hex');
  return secretKeys().some((raw) => timingSafeEqual(macOf(keyOf(raw), fileId, versionId, expires), given));
}

/** The file's path (`url`) and its signed absolute link (`full_url`), valid `ttlHours` from `now`. */
export function fileLinks(
  base: { publicBaseUrl: string; ttlHours: number; now?: Date },
  fileId: number,
  versionId: number,
  opts: { pinVersion?: boolean } = {},
): { url: string; full_url: string } {
  const url = `/api/v1/pod-files/${fileId}/content`;
  const expires = Math.floor((base.now ?? new Date()).getTime() / 1000) + base.ttlHours * 3600;
  const query = new URLSearchParams({
    ...(opts.pinVersion && { version: String(versionId) }),
    expires: String(expires),
    signature: signFile(fileId, versionId, expires),
  });
  return { url, full_url: `${base.publicBaseUrl}${url}?${query}` };
}
