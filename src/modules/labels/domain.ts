/** Label states, rate ids and the purchase's keys (docs/labels.md), pure. */
import { randomBytes } from 'node:crypto';

export const LABEL_STATES = ['pending', 'failed', 'purchased', 'submitted', 'manifested', 'voided'] as const;
export type LabelState = (typeof LABEL_STATES)[number];

/** States whose label exists and is not handed over: they may be voided, submitted and manifested. */
export const OPEN_STATES: readonly LabelState[] = ['purchased', 'submitted'];

export const LABEL_FORMATS = ['PDF', 'ZPL'] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];
export const MEDIA_TYPE: Record<LabelFormat, string> = { PDF: 'application/pdf', ZPL: 'application/zpl' };

/** At most this many parcels in one shipment. */
export const MAX_PARCELS = 50;

/** A purchase still `pending` this long was interrupted: the sweep finishes it with the same carrier key. */
export const PENDING_SWEEP_AFTER_MS = 2 * 60_000;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** An opaque rate id: the prefix and 26 base32 characters, 130 random bits (`lr_` labels, `sr_` self delivery). */
export function newRateId(prefix: 'lr_' | 'sr_'): string {
  const bytes = randomBytes(26);
  let out = '';
  for (let i = 0; i < 26; i++) out += BASE32[bytes[i]! % 32];
  return `${prefix}${out}`;
}

export const RATE_ID_PATTERN = /^(lr|sr)_[a-z2-7]{26}$/;

/** The carrier's idempotency key of a label order's purchase attempt: repeating it buys nothing new. */
export const carrierKeyOf = (orderId: number, attempt: number): string => `lo-${orderId}.${attempt}`;

/** What a refused or failed purchase keeps on the label order (and answers as `carrier_error`). */
export interface LabelError {
  carrier: string;
  code: string;
  message: string;
  retryable: boolean;
  at: string;
}
