/** The journeys `npm run scenario` plays, by name. */
import { driverDay } from './journeys/driverDay.ts';
import { epcisLocker } from './journeys/epcisLocker.ts';
import { labelJourney, uniorderJob } from './journeys/labels.ts';
import { customerJourney, priceHiding } from './journeys/customerServices.ts';
import { partnerLocker } from './journeys/partnerLocker.ts';
import { routeBoard } from './journeys/routeBoard.ts';
import { fallbackToSelfDelivery, twoPackagesOneLate } from './journeys/thirdParty.ts';
import type { World } from './world.ts';

export interface Scenario {
  name: string;
  summary: string;
  /** Whether `--sandbox` plays it against a simulated locker, as the provider alone. */
  sandbox: boolean;
  play(w: World, opts: { sandbox: boolean }): Promise<void>;
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'epcis-locker',
    sandbox: false,
    play: epcisLocker,
    summary:
      "a carrier's EPCIS documents take a package from receiving at the warehouse to shelved in a locker; the recipient collects it with the mailed code",
  },
  {
    name: 'partner-locker',
    sandbox: true,
    play: partnerLocker,
    summary:
      'a partner locker provider opens a door remotely, the courier deposits, the recipient picks up with the code (--sandbox: against the simulated locker)',
  },
  {
    name: 'third-party-late',
    sandbox: false,
    play: twoPackagesOneLate,
    summary:
      'an order of two packages handed to a delivery provider: one delivered (partial_delivered), the other later (delivered)',
  },
  {
    name: 'fallback',
    sandbox: false,
    play: fallbackToSelfDelivery,
    summary:
      'the provider does not take the parcel before the handover deadline: the order falls back to self delivery',
  },
  {
    name: 'route-board',
    sandbox: false,
    play: routeBoard,
    summary:
      'a route is offered on a route board: one contractor claims and withdraws, the standby is promoted, the board closes early, the seat is awarded, the contractor names its driver and the board settles',
  },
  {
    name: 'driver-day',
    sandbox: false,
    play: driverDay,
    summary:
      "a driver's day: routes built for two drivers, an order auto-assigned (a reject, a timeout, an accept), a stop delivered with a photo, a failed attempt, the rest re-optimised",
  },
  {
    name: 'label-journey',
    sandbox: false,
    play: labelJourney,
    summary:
      'a shipment rated by both sandbox carriers, the cheapest label bought, downloaded to a PDF file (its path and tracking number printed) and voided',
  },
  {
    name: 'uniorder-job',
    sandbox: false,
    play: uniorderJob,
    summary: 'fifty shipments rated in batches of 20, then created in one async uniorder job followed to its end',
  },
  {
    name: 'customer-journey',
    sandbox: false,
    play: customerJourney,
    summary:
      "a customer's wallet topped up, a shipping order paid and placed, two parcels stored, received and charged over compressed days, shipped out (held, then taken at the hand-over), a second shipping order cancelled for a refund",
  },
  {
    name: 'price-hiding',
    sandbox: false,
    play: priceHiding,
    summary:
      'the shipping and storage families hidden from a customer, who walks every read of both and tries to pay: any price field shown, or a payment not refused with PRICE_HIDDEN_SETTLE_OFFLINE, fails it',
  },
];
