/**
 * What every carrier is to the labels module (docs/labels.md, "Carriers behind one interface"): one adapter per
 * carrier with the same operations, and one typed failure. Adding a carrier is one adapter and one registry entry.
 */
import type { z } from 'zod';
import type { Logger } from '../../../platform/logger.ts';

/** A party of a shipment: who sends it or who receives it. */
export interface LabelParty {
  name: string;
  company?: string | null;
  phone?: string | null;
  email?: string | null;
  address: {
    line1: string;
    line2?: string | null;
    city: string;
    state?: string | null;
    postal_code: string;
    /** ISO 3166-1 alpha-2. */
    country: string;
  };
}

export interface LabelParcel {
  weight_grams?: number | null;
  length_mm?: number | null;
  width_mm?: number | null;
  height_mm?: number | null;
  reference?: string | null;
}

export interface LabelShipment {
  shipper: LabelParty;
  recipient: LabelParty;
  /** 1 to 50. */
  parcels: readonly LabelParcel[];
  /** YYYY-MM-DD. */
  ship_date: string;
  reference?: string | null;
}

export interface CarrierService {
  code: string;
  name: string;
  max_weight_grams: number;
  transit_days: { min: number; max: number };
}

export interface CarrierCharge {
  code: string;
  name: string;
  /** A decimal string in the rate's currency. */
  amount: string;
}

export interface CarrierRate {
  service: string;
  currency: string;
  base_charge: string;
  extra_charges: CarrierCharge[];
  total_charge: string;
  transit_days: number;
  /** YYYY-MM-DD. */
  estimated_delivery: string;
}

export interface CarrierAccount {
  id: number;
  account_number: string;
  currency: string;
  test_mode: boolean;
  /** Opened for the call only; never logged. */
  credentials: Readonly<Record<string, string>>;
}

export interface CarrierCall {
  account: CarrierAccount;
  signal: AbortSignal;
  log: Logger;
}

export interface PurchaseRequest {
  shipment: LabelShipment;
  service: string;
  formats: readonly ('PDF' | 'ZPL')[];
  /** A purchase repeated with the same key returns the first one's label and buys nothing. */
  idempotency_key: string;
}

export interface PurchasedLabel {
  carrier_shipment_id: string;
  /** One per parcel. */
  tracking_numbers: string[];
  documents: { PDF?: Buffer; ZPL?: string };
  total_charge: string;
  currency: string;
}

export interface CarrierLabelRef {
  carrier_shipment_id: string;
  tracking_numbers: readonly string[];
  /** The purchase's idempotency key (the carrier reference of carriers without keys). */
  idempotency_key: string;
}

export interface CarrierManifest {
  carrier_manifest_id: string;
  labels: CarrierLabelRef[];
  document: Buffer;
}

/** A carrier event in the native OTEP form (docs/otep.md) with a stable id, so a repeated poll is a duplicate. */
export interface CarrierEvent {
  id: string;
  /** The parcel's tracking number at the carrier. */
  carrier_tracking_number: string;
  /** An OTEP status code (otep:core:...). */
  status: string;
  description: string;
  occurred_at: string;
  location?: { city?: string; country?: string } | null;
}

export interface CarrierTrack {
  /** The events after `since` (an event id the caller has, or null for all), oldest first. */
  events: CarrierEvent[];
  /** When to ask again (ISO 8601); null when the journey has ended. */
  next_check_at: string | null;
}

export interface CarrierAdapter {
  readonly code: string;
  readonly name: string;
  readonly services: readonly CarrierService[];
  readonly formats: readonly ('PDF' | 'ZPL')[];
  /**
   * Whether an MCP dry run may call it: true only for an adapter whose every side effect is in this service's own
   * database, which the dry run rolls back (the sandbox carriers). A dry run stops before any other carrier's call.
   */
  readonly previewable: boolean;
  /** The credentials a connection needs, checked when an account is connected (422 on `credentials.<key>`). */
  readonly credentials: z.ZodType<Record<string, string>>;
  rates(call: CarrierCall, shipment: LabelShipment): Promise<CarrierRate[]>;
  purchase(call: CarrierCall, req: PurchaseRequest): Promise<PurchasedLabel>;
  void(call: CarrierCall, label: CarrierLabelRef): Promise<'voided' | 'already_voided'>;
  submit(call: CarrierCall, labels: readonly CarrierLabelRef[]): Promise<void>;
  manifest(call: CarrierCall, req: ManifestRequest): Promise<CarrierManifest>;
  /** The parcel's events since the last one the caller has; `handed_over_at` is when the carrier got it. */
  track(
    call: CarrierCall,
    label: CarrierLabelRef & { handed_over_at: string },
    since: string | null,
  ): Promise<CarrierTrack>;
}

export interface ManifestRequest {
  labels: readonly CarrierLabelRef[];
  /** YYYY-MM-DD. */
  ship_date: string;
  shipper_name: string;
}

/**
 * The code a carrier's void (and submit, manifest, track) answers for a label it never created: the adapter contract
 * for a purchase that may not have happened (it timed out), which is then nothing to void.
 */
export const SHIPMENT_NOT_FOUND = 'SHIPMENT_NOT_FOUND';

/**
 * A carrier's refusal or failure, with the carrier's own code and message: operations answer it as 424 with both,
 * never as a server error. `retryable` marks what may succeed unchanged (a timeout, the carrier's own outage).
 */
export class CarrierError extends Error {
  readonly carrier: string;
  readonly code: string;
  readonly retryable: boolean;

  constructor(carrier: string, code: string, message: string, retryable = false) {
    super(message);
    this.name = 'CarrierError';
    this.carrier = carrier;
    this.code = code;
    this.retryable = retryable;
  }
}
