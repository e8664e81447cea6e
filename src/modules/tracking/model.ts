/**
 * The OTEP event and timeline as this service stores and publishes them (docs/otep.md). Every projection
 * (src/otep/formats/) is a pure function of a Timeline; nothing private (names, phones, prices) is in it.
 */
export interface OtepLocation {
  /** A place name a carrier reports, for example a hub or a city. */
  name?: string | null;
  city?: string | null;
  postal_code?: string | null;
  /** ISO 3166-1 alpha-2 */
  country?: string | null;
  lat?: number | null;
  lng?: number | null;
  /** A GS1 GLN or SGLN URN, when the sender has one. */
  gln?: string | null;
}

export interface OtepEvent {
  /** Stable event id: the sender's id, or one derived from the content (see ingest). */
  id: string;
  otep_version: string;
  /** The shipment: its tracking number. */
  subject: string;
  /** When it happened (ISO 8601 with an offset). */
  occurred_at: string;
  /** When this service recorded it. */
  recorded_at: string;
  /** `otep:<profile>:<code>` */
  status_code: string;
  /** `otep:phase:<name>` */
  phase: string;
  location?: OtepLocation | null;
  /** `otep:reason:<code>` */
  incident_reason?: string | null;
  description?: string | null;
  /** Set when the event happened after the timeline had already ended (kept, not dropped). */
  after_terminal?: boolean;
  /** Who reported it: the merchant's own status change, or a carrier. */
  source: 'merchant' | 'carrier';
}

export interface Timeline {
  otep_version: string;
  tracking_number: string;
  /** Order type of the shipment: D delivery, P pickup, P2P peer to peer. */
  service: 'D' | 'P' | 'P2P';
  /** The newest event by occurrence that is not flagged after_terminal; null for an empty timeline. */
  current: { status_code: string; phase: string; occurred_at: string; terminal: boolean } | null;
  /** Ordered by occurred_at, then recorded_at. */
  events: OtepEvent[];
}
