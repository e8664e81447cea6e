import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm start`'s secrets key: read from the file, or created there on first start (32 random bytes, base64, readable
 * by this user only). Production sets SECRETS_KEY instead, from its secret store.
 */
export function loadOrCreateSecretsKey(file: string): { key: Buffer; created: boolean } {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    // 'wx' fails when the file exists, so two starts never write two different keys.
    fs.writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    return { key: read(file), created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return { key: read(file), created: false };
  }
}

function read(file: string): Buffer {
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length < 32)
    throw new Error(
      `${file} does not hold a key of 32 bytes in base64; remove it to have a new one made (stored codes then stop matching)`,
    );
  return key;
}
