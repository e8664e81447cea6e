/** Where proof of delivery files' bytes are kept: the data directory, or an S3-compatible store (docs/routes.md). */
export interface FileStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the bytes under `key`; nothing when there are none. */
  remove(key: string): Promise<void>;
}

/** A key is made by the service (`b<business>/o<order>/<uuid>.<ext>`): anything else is refused before it reaches a path. */
export const KEY_PATTERN = /^b\d+\/o\d+\/[0-9a-f-]{36}\.(jpg|png|webp)$/;

export function checkKey(key: string): string {
  if (!KEY_PATTERN.test(key)) throw new Error(`not a pod file key: ${key}`);
  return key;
}
