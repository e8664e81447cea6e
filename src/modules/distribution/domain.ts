/** Places and carrier supplier accounts (docs/distribution.md). */
export const PLACE_KINDS = ['warehouse', 'locker', 'store'] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

/** A place code or member number: letters, digits, `-` and `_`, starting with a letter or digit. */
export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

/**
 * A GS1 SGLN in its pure identity URN: a company prefix of 6 to 12 digits and a location reference making 12
 * digits with it, then an extension (`0` for none; here letters and digits only). Written out per prefix length
 * so that the OpenAPI pattern is exactly as strict as this check.
 */
export const SGLN_PATTERN = /^urn:epc:id:sgln:(?:[0-9]{6}\.[0-9]{6}|[0-9]{7}\.[0-9]{5}|[0-9]{8}\.[0-9]{4}|[0-9]{9}\.[0-9]{3}|[0-9]{10}\.[0-9]{2}|[0-9]{11}\.[0-9]|[0-9]{12}\.)\.[0-9A-Za-z]{1,20}$/;

/** Our own identifier of a place that has no SGLN. */
export const ownPlaceUrn = (businessCode: string, placeCode: string) => `urn:tms:place:${businessCode}:${placeCode}`;
