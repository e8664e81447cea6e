/** The bytes of an upload: checked against what they claim to be, then kept in the configured store. */
import { createHash, randomUUID } from 'node:crypto';
import type { RawUpload } from '../../platform/catalog/types.ts';
import type { Config } from '../../platform/config.ts';
import { EXTENSION, sniffImage, TYPES_OF, type ImageType, type PodFileType } from './domain.ts';
import { fail } from './errorCodes.ts';
import type { NewVersion } from './repo.ts';
import { fileStoreOf } from './storage/index.ts';

/**
 * Reads the body as an image of its file type: 415 for a type the file type does not take (the body is not read
 * then), 413 beyond the limit, 422 for bytes that are not it. Called once the caller and the order are checked.
 */
export async function readImage(
  body: RawUpload | undefined,
  type: PodFileType,
): Promise<{ bytes: Buffer; contentType: ImageType }> {
  const contentType = body?.mediaType as ImageType | undefined;
  if (!body || !contentType || !TYPES_OF[type].includes(contentType))
    throw fail('UNSUPPORTED_MEDIA_TYPE', 'error.media_type_not_accepted', { types: TYPES_OF[type].join(', ') });
  const bytes = await body.read();
  if (bytes.length === 0) throw fail('POD_FILE_EMPTY', 'pod_file.empty');
  if (sniffImage(bytes) !== contentType) throw fail('POD_FILE_NOT_IMAGE', 'pod_file.not_image', { type: contentType });
  return { bytes, contentType };
}

/**
 * Stores the bytes under a new key and answers the version to record. The caller records it in its transaction and
 * calls `discard` when that fails, so that no bytes are left that no row names.
 */
export async function keepBytes(
  config: Config,
  at: { businessId: number; orderId: number; userId: number },
  image: { bytes: Buffer; contentType: ImageType },
): Promise<{ version: NewVersion; discard: () => Promise<void> }> {
  const store = fileStoreOf(config);
  const key = `b${at.businessId}/o${at.orderId}/${randomUUID()}.${EXTENSION[image.contentType]}`;
  await store.put(key, image.bytes, image.contentType);
  return {
    version: {
      storageKey: key,
      contentType: image.contentType,
      sizeBytes: image.bytes.length,
      sha256: createHash('sha256').update(image.bytes).digest('hex'),
      createdBy: at.userId,
    },
    discard: () => store.remove(key).catch(() => undefined),
  };
}

/** Runs `record` after the bytes are kept; removes them again when it fails. */
export async function withKeptBytes<T>(kept: { discard: () => Promise<void> }, record: () => Promise<T>): Promise<T> {
  try {
    return await record();
  } catch (err) {
    await kept.discard();
    throw err;
  }
}
