/**
 * The two sandbox carriers as adapters (docs/labels.md, "The two sandbox carriers"): no network, real labels (PDF
 * and ZPL), exact tariffs, the documented trigger inputs, and their own ledger so that a key buys once, a void is
 * remembered and a parcel's journey is told from its hand-over.
 */
import { z } from 'zod';
import type { Em } from '../../../../platform/db/orm.ts';
import type { LabelContent } from '../../render/content.ts';
import { renderLabelPdf } from '../../render/labelPdf.ts';
import { renderLabelZpl } from '../../render/labelZpl.ts';
import { renderManifestPdf } from '../../render/manifestPdf.ts';
import {
  CarrierError,
  SHIPMENT_NOT_FOUND,
  type CarrierAdapter,
  type CarrierCall,
  type CarrierLabelRef,
  type CarrierService,
  type LabelParty,
  type LabelShipment,
  type PurchasedLabel,
} from '../adapter.ts';
import { sandboxJourney, stepTime } from './journey.ts';
import { moveShipments, recordShipment, refusedBefore, shipmentByKey, type SandboxShipment } from './repo.ts';
import { rateOf } from './pricing.ts';
import type { SandboxCarrier } from './tariffs.ts';
import { trackingNumberOf } from './trackingNumber.ts';
import { triggerOf } from './triggers.ts';

export interface SandboxEnv {
  em: Em;
  /** How long a compressed journey day lasts (SANDBOX_TRACKING_DAY_SECONDS). */
  daySeconds: number;
}

/** The one key that fails every call: a way to meet AUTH_FAILED on purpose. */
export const BAD_KEY = 'sbx_bad_key';

const Credentials = z.object({ api_key: z.string().trim().min(1).max(200).optional() }).strict();

/** A sandbox carrier's services, from its tariffs: its adapter's and its registry entry's (known without a call). */
export const sandboxServices = (carrier: SandboxCarrier): CarrierService[] =>
  carrier.tariffs.map((t) => ({
    code: t.service,
    name: t.name,
    max_weight_grams: t.maxWeightGrams,
    transit_days: { min: Math.min(...t.transitDays), max: Math.max(...t.transitDays) },
  }));

export function sandboxAdapter(carrier: SandboxCarrier, env: SandboxEnv): CarrierAdapter {
  const fail = (code: string, message: string, retryable = false) =>
    new CarrierError(carrier.code, code, message, retryable);
  const authorise = (call: CarrierCall) => {
    if (call.account.credentials.api_key === BAD_KEY) throw fail('AUTH_FAILED', 'The API key was refused.');
  };
  const shipmentOf = async (call: CarrierCall, ref: CarrierLabelRef) => {
    const row = await shipmentByKey(env.em, carrier.code, call.account.id, ref.idempotency_key);
    if (!row || row.state === 'refused') throw fail(SHIPMENT_NOT_FOUND, `No shipment ${ref.carrier_shipment_id}.`);
    return row;
  };
  const tariffOf = (service: string) => carrier.tariffs.find((t) => t.service === service);

  return {
    code: carrier.code,
    name: carrier.name,
    services: sandboxServices(carrier),
    formats: ['PDF', 'ZPL'],
    previewable: true,
    credentials: Credentials,

    async rates(call, shipment) {
      authorise(call);
      if (carrier.code === 'sandbox_parcel' && triggerOf(shipment.reference) === 'SBX-RATE-DOWN')
        throw fail('SERVICE_UNAVAILABLE', 'The rating service is down for maintenance.', true);
      const rates = carrier.tariffs.flatMap((t) => rateOf(t, shipment, call.account.currency) ?? []);
      if (rates.length === 0)
        throw fail('WEIGHT_LIMIT', `A parcel is heavier than every ${carrier.name} service takes.`);
      return rates;
    },

    async purchase(call, req) {
      authorise(call);
      const reference = req.shipment.reference ?? null;
      const known = await shipmentByKey(env.em, carrier.code, call.account.id, req.idempotency_key);
      if (known?.state === 'refused') throw unserviceable();
      if (known) return purchased(known);
      const trigger = triggerOf(reference);
      if (trigger === 'SBX-TIMEOUT') {
        await untilAborted(call.signal);
        throw fail('TIMEOUT', 'The carrier did not answer in time.', true);
      }
      const tariff = tariffOf(req.service);
      if (!tariff) throw fail('SERVICE_UNKNOWN', `${carrier.name} has no service ${req.service}.`);
      const rate = rateOf(tariff, req.shipment, call.account.currency);
      if (!rate) throw fail('WEIGHT_LIMIT', `A parcel is heavier than ${tariff.name} takes.`);
      const row = {
        carrier: carrier.code,
        account_id: call.account.id,
        idempotency_key: req.idempotency_key,
        reference,
        service: req.service,
        shipment: req.shipment,
        transit_days: rate.transit_days,
        total_charge: rate.total_charge,
        currency: rate.currency,
      };
      const refuse =
        trigger === 'SBX-REFUSE' ||
        (trigger === 'SBX-REFUSE-ONCE' && !(await refusedBefore(env.em, carrier.code, call.account.id, reference!)));
      if (refuse) {
        await recordShipment(env.em, { ...row, tracking_numbers: [], state: 'refused' });
        throw unserviceable();
      }
      const numbers = req.shipment.parcels.map((_, i) =>
        trackingNumberOf(carrier.prefix, carrier.digits, `${call.account.id}:${req.idempotency_key}`, i),
      );
      const stored = await recordShipment(env.em, { ...row, tracking_numbers: numbers, state: 'created' });
      if (stored.state === 'refused') throw unserviceable();
      return purchased(stored);
    },

    async void(call, ref) {
      authorise(call);
      const row = await shipmentOf(call, ref);
      if (row.state === 'voided') return 'already_voided';
      if (triggerOf(row.reference) === 'SBX-NOVOID' || row.state === 'manifested')
        throw fail('VOID_WINDOW_CLOSED', 'The label can no longer be voided: the parcel is with the carrier.');
      const [after] = await moveShipments(env.em, carrier.code, call.account.id, [ref.idempotency_key], 'voided');
      if (after?.state === 'manifested')
        throw fail('VOID_WINDOW_CLOSED', 'The label can no longer be voided: the parcel is with the carrier.');
      return 'voided';
    },

    async submit(call, labels) {
      authorise(call);
      for (const ref of labels) {
        const row = await shipmentOf(call, ref);
        if (row.state === 'voided') throw fail('SHIPMENT_VOIDED', `The shipment ${ref.carrier_shipment_id} is voided.`);
      }
    },

    async manifest(call, req) {
      authorise(call);
      const rows = await Promise.all(req.labels.map((ref) => shipmentOf(call, ref)));
      const voided = rows.find((r) => r.state === 'voided');
      if (voided) throw fail('SHIPMENT_VOIDED', `The shipment ${shipmentId(voided)} is voided.`);
      const keys = rows.map((r) => r.idempotency_key);
      await moveShipments(env.em, carrier.code, call.account.id, keys, 'manifested');
      const first = Math.min(...rows.map((r) => r.id));
      const manifestId = `${carrier.prefix}M-${req.ship_date.replaceAll('-', '')}-${first}`;
      const document = await renderManifestPdf({
        manifestId,
        carrierName: carrier.name,
        shipperName: req.shipper_name,
        shipDate: req.ship_date,
        lines: rows.flatMap((r) =>
          r.tracking_numbers.map((n) => ({ trackingNumber: n, service: r.service, reference: r.reference ?? '' })),
        ),
      });
      return { carrier_manifest_id: manifestId, labels: [...req.labels], document };
    },

    async track(call, ref, since) {
      authorise(call);
      const row = await shipmentOf(call, ref);
      const steps = sandboxJourney(row.transit_days, triggerOf(row.reference) === 'SBX-DELIVERY-FAILS');
      const now = Date.now();
      const sinceStep = since ? Number(/-(\d+)$/.exec(since)?.[1] ?? 0) : 0;
      const due = steps.filter(
        (s) => s.step > sinceStep && stepTime(ref.handed_over_at, s, env.daySeconds).getTime() <= now,
      );
      const next = steps.find((s) => stepTime(ref.handed_over_at, s, env.daySeconds).getTime() > now);
      return {
        events: due.flatMap((s) =>
          row.tracking_numbers.map((n) => ({
            id: `sbx-${n}-${s.step}`,
            carrier_tracking_number: n,
            status: s.status,
            description: s.description,
            occurred_at: stepTime(ref.handed_over_at, s, env.daySeconds).toISOString(),
            location: { city: row.shipment.recipient.address.city, country: row.shipment.recipient.address.country },
          })),
        ),
        next_check_at: next ? stepTime(ref.handed_over_at, next, env.daySeconds).toISOString() : null,
      };
    },
  };

  function unserviceable() {
    return fail('ADDRESS_UNSERVICEABLE', `${carrier.name} does not deliver to this address.`);
  }

  async function purchased(row: SandboxShipment): Promise<PurchasedLabel> {
    const tariff = tariffOf(row.service);
    const pages = labelPages(row, tariff?.name ?? row.service);
    return {
      carrier_shipment_id: shipmentId(row),
      tracking_numbers: row.tracking_numbers,
      documents: { PDF: await renderLabelPdf(pages), ZPL: pages.map(renderLabelZpl).join('\n') },
      total_charge: row.total_charge,
      currency: row.currency,
    };
  }

  function labelPages(row: SandboxShipment, serviceName: string): LabelContent[] {
    const s: LabelShipment = row.shipment;
    return s.parcels.map((parcel, i) => ({
      trackingNumber: row.tracking_numbers[i]!,
      carrierName: carrier.name,
      serviceName,
      from: addressOf(s.shipper),
      to: addressOf(s.recipient),
      weightGrams: parcel.weight_grams ?? 0,
      reference: parcel.reference ?? s.reference ?? '',
      createdAt: `${s.ship_date}T00:00:00Z`,
    }));
  }

  function shipmentId(row: SandboxShipment): string {
    return `${carrier.prefix}S-${row.id}`;
  }
}

function addressOf(p: LabelParty) {
  return {
    name: p.company ? `${p.name}, ${p.company}` : p.name,
    lines: [p.address.line1, p.address.line2 ?? ''],
    city: p.address.city,
    postalCode: p.address.postal_code,
    country: p.address.country,
  };
}

/** Resolves never; rejects nothing: returns when the call's deadline aborts it. */
function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
