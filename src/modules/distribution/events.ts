/**
 * The carrier package distribution events (the specification's carrier_package rows): sent to the carrier's own
 * provider endpoint. A carrier is a delivery provider account, so they travel on that account's endpoint (the
 * third-party channel, its secret and retries) in the provider envelope of the partner locker table that lists
 * them (docs/distribution.md). Written only while the carrier holds an active supplier
 * account with the business. Event id `CPD-<scan id>`: the scan that made the step, stable across retries.
 */
import type { NewOutboxEvent } from '../../platform/db/outbox.ts';
import type { EventDefinition, Schema } from '../../platform/events.ts';
import { describeEvents } from '../../platform/events.ts';
import { bool, enumOf, int, obj, orNull, providerEnvelope, str, time } from '../../platform/jsonSchema.ts';
import type { CarrierEventFacts, PlaceFacts } from './repo/distributions.ts';
import { DISTRIBUTION_STATUSES, PLACE_KINDS, type ScanAction } from './domain.ts';

const place = (description: string) =>
  obj(
    {
      code: str('Place code in the business'),
      kind: enumOf([...PLACE_KINDS], 'Kind of place'),
      name: str('Place name'),
      identifier: str('SGLN or urn:tms:place:<business code>:<place code>, as EPCIS documents name it'),
    },
    { description },
  );

function carrierEvent(
  name: string,
  summary: string,
  status: Schema,
  extra: Record<string, Schema> = {},
): EventDefinition {
  const data = obj({
    package_number: str('Package number (a tracking number)'),
    carrier_reference: orNull(str("The carrier's own reference of the package")),
    member_number: str("The carrier's member number in the business's supplier account"),
    distribution: obj({
      order_id: int('Order the package belongs to'),
      order_ref: orNull(str('Merchant reference of that order')),
      status,
    }),
    origin: place('The warehouse that received the package'),
    destination: orNull(place('Where the package goes: a locker or a store; null while not known')),
    'test?': bool('True on sandbox events'),
    ...extra,
  });
  return {
    name,
    sender: 'third_party',
    summary,
    payload: providerEnvelope(name, 'CPD-<scan id>; stable across retries', data),
  };
}

const statusIs = (s: string) => str(s, { const: s });

const DECLARED: readonly EventDefinition[] = [
  carrierEvent(
    'carrier_package.distribution.created',
    'The package was placed on a distribution order at the receiving warehouse.',
    statusIs('created'),
  ),
  carrierEvent(
    'carrier_package.distribution.loaded',
    'The package was scanned onto the truck.',
    statusIs('in_transit'),
    { loaded_at: time('When') },
  ),
  carrierEvent(
    'carrier_package.distribution.delivered',
    'The driver handed the package to the location.',
    statusIs('delivered'),
    { delivered_at: time('When') },
  ),
  carrierEvent(
    'carrier_package.distribution.shelved',
    'The package was shelved at the location; the recipient is notified.',
    statusIs('shelved'),
    {
      location: obj({
        grid_id: orNull(int('Locker compartment id')),
        grid_code: orNull(str('Locker compartment code')),
        shelf_code: orNull(str('Store shelf code')),
      }),
    },
  ),
  carrierEvent(
    'carrier_package.distribution.removed',
    "The package was removed before departure, or its order was cancelled; it is back on the warehouse's list.",
    enumOf([...DISTRIBUTION_STATUSES], 'Distribution status'),
    { reason: enumOf(['removed', 'cancelled'], 'Why') },
  ),
];

const EVENT_OF_ACTION: Record<ScanAction, string> = {
  received: 'carrier_package.distribution.created',
  loaded: 'carrier_package.distribution.loaded',
  delivered: 'carrier_package.distribution.delivered',
  shelved: 'carrier_package.distribution.shelved',
  removed: 'carrier_package.distribution.removed',
};

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());
const placeOf = (p: PlaceFacts) => ({ code: p.code, kind: p.kind, name: p.name, identifier: p.identifier });

/** The event of an applied step, addressed to the carrier. */
export function carrierPackageEvent(
  businessId: number,
  orderId: number,
  packageId: number,
  scanId: string,
  action: ScanAction,
  f: CarrierEventFacts,
): NewOutboxEvent {
  const event = EVENT_OF_ACTION[action];
  const eventId = `CPD-${scanId}`;
  const extra =
    action === 'loaded'
      ? { loaded_at: iso(f.loadedAt) }
      : action === 'delivered'
        ? { delivered_at: iso(f.deliveredAt) }
        : action === 'shelved'
          ? { location: { grid_id: f.gridId, grid_code: f.gridCode, shelf_code: f.shelfCode } }
          : action === 'removed'
            ? { reason: f.removalReason ?? 'removed' }
            : {};
  return {
    businessId,
    providerId: f.carrierId,
    eventId,
    eventType: event,
    referenceType: 'package',
    referenceId: String(packageId),
    payload: {
      event_id: eventId,
      event,
      livemode: true,
      occurred_at: new Date().toISOString(),
      data: {
        package_number: f.packageNumber,
        carrier_reference: f.carrierReference,
        member_number: f.memberNumber,
        distribution: { order_id: orderId, order_ref: f.orderRef, status: f.status },
        origin: placeOf(f.origin),
        destination: f.destination && placeOf(f.destination),
        ...extra,
      },
    },
  };
}

/** Each event as its receiver should read it: when it is sent and what to do with it (the AsyncAPI description). */
export const CARRIER_PACKAGE_EVENTS = describeEvents(DECLARED, {
  'carrier_package.distribution.created':
    'Sent when one of your packages is placed on a distribution order at the receiving warehouse, with where it goes when known. Use it to start following the package.',
  'carrier_package.distribution.loaded':
    'Sent when the package is scanned onto the truck at the warehouse: it is in transit to its location.',
  'carrier_package.distribution.delivered':
    'Sent when the driver handed the package to its location (a locker or a store).',
  'carrier_package.distribution.shelved':
    'Sent when the package is shelved at its location (a locker compartment or a store shelf) and the recipient is notified: it can be collected now.',
  'carrier_package.distribution.removed':
    "Sent when the package was taken off the truck before departure, or its order was cancelled (`reason`). It is back on the warehouse's list, waiting to be loaded again or returned.",
});
