/** Proof of delivery files: kinds, limits and how an image is recognised (docs/routes.md). */

export const POD_FILE_TYPES = ['photo', 'signature'] as const;
export type PodFileType = (typeof POD_FILE_TYPES)[number];

/** 1 delivery, 2 pickup: the stop a file proves. */
export type ServiceType = 1 | 2;
/** 1 success, 2 failed: the outcome of the stop's event. */
export type ServiceStatus = 1 | 2;

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** A signature is drawn on a screen: a PNG or WebP, never a JPEG (whose artefacts blur its lines). */
export const TYPES_OF: Record<PodFileType, readonly ImageType[]> = {
  photo: IMAGE_TYPES,
  signature: ['image/png', 'image/webp'],
};

/** The largest file, in bytes: a phone photo fits. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export const EXTENSION: Record<ImageType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/** The image type the bytes' signature says, or null: what a file is, whatever its sender declared. */
export function sniffImage(bytes: Buffer): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return null;
}
