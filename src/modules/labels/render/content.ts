/**
 * What a shipping label shows, as plain data, and the few formatting rules both renderers share (the PDF in
 * labelPdf.ts and the ZPL in labelZpl.ts), so a label reads the same on paper from either.
 */

export interface LabelAddress {
  name: string;
  /** Street lines in order; empty lines are skipped. */
  lines: string[];
  city: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2 code, printed as given. */
  country: string;
}

export interface LabelContent {
  trackingNumber: string;
  carrierName: string;
  serviceName: string;
  from: LabelAddress;
  to: LabelAddress;
  weightGrams: number;
  reference: string;
  /** ISO 8601; printed as its date and used as the PDF's creation date, so the same label renders the same bytes. */
  createdAt?: string;
}

/** Grams under a kilogram as grams, heavier parcels in kilograms with two decimals. */
export function formatWeight(grams: number): string {
  return grams < 1000 ? `${Math.round(grams)} g` : `${(grams / 1000).toFixed(2)} kg`;
}

/** The address as printed lines: name, street lines, postal code with city, country. */
export function addressLines(address: LabelAddress): string[] {
  return [
    address.name,
    ...address.lines.filter((l) => l.trim() !== ''),
    `${address.postalCode} ${address.city}`.trim(),
    address.country,
  ];
}

/** The label's date (YYYY-MM-DD) when it has one. */
export function labelDate(label: LabelContent): string | undefined {
  return label.createdAt ? new Date(label.createdAt).toISOString().slice(0, 10) : undefined;
}
