import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { OtepEvent, Timeline } from '../../../src/modules/tracking/model.ts';
import { REASON_BY_ID, STATUS_BY_ID, STATUS_CODES } from '../../../src/modules/tracking/vocabulary.ts';
import {
  AFTERSHIP_REASONS,
  AFTERSHIP_SUBTAGS,
  AFTERSHIP_TAGS,
  aftership,
  aftershipTracking,
  alpha3,
} from '../../../src/modules/tracking/formats/aftership.ts';
import {
  BIGCOMMERCE_ORDER_STATUSES,
  BIGCOMMERCE_STATUSES,
  bigcommerce,
  bigcommerceOrder,
} from '../../../src/modules/tracking/formats/bigcommerce.ts';
import {
  ETSY_RECEIPT_STATUS,
  ETSY_RECEIPT_STATUSES,
  ETSY_SHIPMENT_STEPS,
  ETSY_STEPS,
  etsy,
  etsyReceipt,
} from '../../../src/modules/tracking/formats/etsy.ts';
import {
  MAGENTO_ORDER_STATES,
  MAGENTO_STATES,
  magento,
  magentoOrder,
} from '../../../src/modules/tracking/formats/magento.ts';
import {
  CORE_CODES,
  coreCodeOf,
  type ReasonTable,
  type StatusTable,
} from '../../../src/modules/tracking/formats/platformShared.ts';
import {
  PRESTASHOP_ORDER_STATES,
  PRESTASHOP_STATES,
  prestashop,
  prestashopOrder,
} from '../../../src/modules/tracking/formats/prestashop.ts';
import {
  SHIPPO_ENTRIES,
  SHIPPO_REASONS,
  SHIPPO_STATUSES,
  shippo,
  shippoTrack,
} from '../../../src/modules/tracking/formats/shippo.ts';
import {
  SHOPIFY_EVENT_STATUSES,
  SHOPIFY_STATUSES,
  shopify,
  shopifyFulfillment,
} from '../../../src/modules/tracking/formats/shopify.ts';
import type { Format } from '../../../src/modules/tracking/formats/types.ts';
import {
  WOOCOMMERCE_ORDER_STATUSES,
  WOOCOMMERCE_STATUSES,
  woocommerce,
  woocommerceOrder,
} from '../../../src/modules/tracking/formats/woocommerce.ts';
import { JOURNEY } from '../../fixtures/otepJourney.ts';

const ctx = { baseUrl: 'https://tms.example.com' };
const FAILED = JOURNEY.events.find((e) => e.status_code === 'otep:core:delivery_failed')!;
const EXPERIMENTAL = 'otep:parcel:x-drone_drop';
const OUTSIDE = ['otep:core:teleported', 'otep:moving:loaded', EXPERIMENTAL, 'toString', ''];

function event(status_code: string, over: Partial<OtepEvent> = {}): OtepEvent {
  return {
    id: `e-${status_code}`,
    otep_version: '1.0.0',
    subject: 'T1',
    occurred_at: '2026-03-02T10:00:00+01:00',
    recorded_at: '2026-03-02T09:00:05Z',
    status_code,
    phase: 'otep:phase:transit',
    source: 'carrier',
    ...over,
  };
}

function timeline(events: OtepEvent[]): Timeline {
  const last = events.at(-1);
  return {
    otep_version: '1.0.0',
    tracking_number: 'T1',
    service: 'D',
    current: last
      ? { status_code: last.status_code, phase: last.phase, occurred_at: last.occurred_at, terminal: false }
      : null,
    events,
  };
}

const single = (statusId: string) => timeline([event(statusId)]);

/** Every key anywhere in a JSON value. */
function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, child]) => [key, ...allKeys(child)]);
  return [];
}

interface Platform {
  format: Format;
  /** The platform's single status for a whole timeline. */
  summary: (t: Timeline) => unknown;
  /** Every value that status may take on the platform. */
  values: readonly unknown[];
  table: StatusTable<unknown>;
  delivered: unknown;
  unknown: unknown;
  /** The status of each event, for platforms that keep a history. */
  history?: (t: Timeline) => unknown[];
}

const PLATFORMS: Platform[] = [
  {
    format: aftership,
    summary: (t) => aftershipTracking(t).tag,
    values: AFTERSHIP_TAGS,
    table: AFTERSHIP_SUBTAGS,
    delivered: 'Delivered',
    unknown: 'Pending',
    history: (t) => aftershipTracking(t).checkpoints.map((c) => c.tag),
  },
  {
    format: shopify,
    summary: (t) => shopifyFulfillment(t, ctx).shipment_status,
    values: SHOPIFY_STATUSES,
    table: SHOPIFY_EVENT_STATUSES,
    delivered: 'delivered',
    unknown: 'confirmed',
    history: (t) => shopifyFulfillment(t, ctx).fulfillment_events.map((e) => e.status),
  },
  {
    format: shippo,
    summary: (t) => shippoTrack(t).tracking_status.status,
    values: SHIPPO_STATUSES,
    table: SHIPPO_ENTRIES,
    delivered: 'DELIVERED',
    unknown: 'UNKNOWN',
    history: (t) => shippoTrack(t).tracking_history.map((h) => h.status),
  },
  {
    format: woocommerce,
    summary: (t) => woocommerceOrder(t, ctx).status,
    values: WOOCOMMERCE_STATUSES,
    table: WOOCOMMERCE_ORDER_STATUSES,
    delivered: 'completed',
    unknown: 'processing',
  },
  {
    format: magento,
    summary: (t) => magentoOrder(t, ctx).state,
    values: Object.keys(MAGENTO_STATES),
    table: MAGENTO_ORDER_STATES,
    delivered: 'complete',
    unknown: 'processing',
  },
  {
    format: bigcommerce,
    summary: (t) => bigcommerceOrder(t, ctx).status_id,
    values: Object.keys(BIGCOMMERCE_STATUSES).map(Number),
    table: BIGCOMMERCE_ORDER_STATUSES,
    delivered: 10,
    unknown: 11,
  },
  {
    format: prestashop,
    summary: (t) => prestashopOrder(t).current_state,
    values: Object.keys(PRESTASHOP_STATES).map(Number),
    table: PRESTASHOP_ORDER_STATES,
    delivered: 5,
    unknown: 3,
  },
  {
    format: etsy,
    summary: (t) => etsyReceipt(t, ctx).status,
    values: ETSY_RECEIPT_STATUSES,
    table: ETSY_RECEIPT_STATUS,
    delivered: 'completed',
    unknown: 'paid',
  },
];

describe('status codes fall back to their core code', () => {
  test("the core code list is the vocabulary's core profile", () => {
    assert.deepEqual(
      [...CORE_CODES],
      STATUS_CODES.filter((s) => s.profile === 'core').map((s) => s.id.slice('otep:core:'.length)),
    );
  });

  test('a parcel code stands for the core code it refines; anything outside the vocabulary for none', () => {
    for (const s of STATUS_CODES) assert.equal(`otep:core:${coreCodeOf(s.id)}`, s.refines ?? s.id, s.id);
    for (const id of OUTSIDE) assert.equal(coreCodeOf(id), null, id);
  });

  test('platform tables name only vocabulary codes and reasons', () => {
    const tables: StatusTable<unknown>[] = [...PLATFORMS.map((p) => p.table), ETSY_STEPS];
    for (const table of tables) for (const id of Object.keys(table.refined ?? {})) assert.ok(STATUS_BY_ID.has(id), id);
    const reasonTables: ReasonTable<unknown>[] = [AFTERSHIP_REASONS, SHIPPO_REASONS];
    for (const table of reasonTables) {
      for (const byReason of Object.values(table))
        for (const id of Object.keys(byReason ?? {})) assert.ok(REASON_BY_ID.has(id), id);
    }
  });
});

for (const p of PLATFORMS) {
  describe(`format ${p.format.id}`, () => {
    test("the journey ends with the platform's delivered value", () => {
      assert.equal(p.summary(JOURNEY), p.delivered);
      assert.deepEqual(
        p.format.project(JOURNEY, ctx),
        p.format.project(JOURNEY, ctx),
        'pure: the same timeline gives the same answer',
      );
    });

    test('every status code of the vocabulary maps to a value of the platform', () => {
      for (const s of STATUS_CODES) {
        const value = p.summary(single(s.id));
        assert.ok(p.values.includes(value), `${s.id} -> ${String(value)}`);
        if (p.history) assert.ok(p.values.includes(p.history(single(s.id))[0]), s.id);
      }
    });

    test('a parcel code without its own entry gets the value of the code it refines', () => {
      for (const s of STATUS_CODES.filter((c) => c.refines && !Object.hasOwn(p.table.refined ?? {}, c.id))) {
        assert.equal(p.summary(single(s.id)), p.summary(single(s.refines!)), s.id);
      }
    });

    test("an unknown or experimental code maps to the platform's unknown value", () => {
      for (const id of OUTSIDE) {
        assert.equal(p.summary(single(id)), p.unknown, id);
        if (p.history) assert.deepEqual(p.history(single(id)), [p.unknown], id);
      }
      assert.equal(p.summary(timeline([])), p.unknown, 'empty timeline');
    });

    test('an experimental event after delivery does not take the status back', () => {
      const t = timeline([...JOURNEY.events, event(EXPERIMENTAL, { occurred_at: '2026-11-21T09:00:00+01:00' })]);
      assert.equal(p.summary(t), p.delivered);
      if (p.history) assert.equal(p.history(t).at(-1), p.unknown);
    });

    if (p.history) {
      const history = p.history;
      test('the history keeps every event in order, the failed attempt included', () => {
        const statuses = history(JOURNEY);
        assert.equal(statuses.length, JOURNEY.events.length);
        assert.equal(statuses.at(-1), p.delivered);
        assert.ok(p.format.projectEvents, 'the events endpoint has its own shape');
      });
    }

    test('nothing private is sent', () => {
      const keys = allKeys(p.format.project(JOURNEY, ctx));
      const privateKeys = keys.filter((k) =>
        /phone|email|price|cost|amount|total|recipient|buyer|customer|signed|address|^name$|first_line/.test(k),
      );
      assert.deepEqual(privateKeys, []);
    });
  });
}

describe('platform details of the journey', () => {
  test("aftership: checkpoints keep the carrier's local times, the failed attempt says why", () => {
    const tracking = aftershipTracking(JOURNEY);
    assert.deepEqual(
      tracking.checkpoints.map((c) => c.checkpoint_time),
      JOURNEY.events.map((e) => e.occurred_at),
    );
    assert.deepEqual(
      tracking.checkpoints.map((c) => c.created_at),
      JOURNEY.events.map((e) => e.recorded_at),
    );
    const failed = tracking.checkpoints[JOURNEY.events.indexOf(FAILED)]!;
    assert.deepEqual(
      [failed.tag, failed.subtag, failed.checkpoint_time],
      ['AttemptFail', 'AttemptFail_002', '2026-11-19T14:20:00+01:00'],
    );
    assert.equal(failed.message, 'Nobody at home, card left');
    assert.deepEqual(failed.coordinates, [48.8589, 2.3797]);
    assert.equal(failed.country_iso3, 'FRA');
    assert.equal(tracking.subtag, 'Delivered_001');
    assert.equal(tracking.shipment_pickup_date, '2026-11-17T16:30:00+01:00');
    assert.equal(tracking.shipment_delivery_date, '2026-11-20T15:42:00+01:00');
    assert.deepEqual(aftership.projectEvents!(JOURNEY, ctx), { checkpoints: tracking.checkpoints });
  });

  test('aftership: alpha-3 countries for the EU, US, CN, GB, CA, AU and JP, null otherwise', () => {
    const expected = {
      FR: 'FRA',
      DE: 'DEU',
      ES: 'ESP',
      IT: 'ITA',
      NL: 'NLD',
      PL: 'POL',
      SE: 'SWE',
      US: 'USA',
      CN: 'CHN',
      GB: 'GBR',
      CA: 'CAN',
      AU: 'AUS',
      JP: 'JPN',
      fr: 'FRA',
    };
    for (const [alpha2, code] of Object.entries(expected)) assert.equal(alpha3(alpha2), code, alpha2);
    for (const other of ['ZZ', 'BR', '', null, undefined, 'toString']) assert.equal(alpha3(other), null, String(other));
  });

  test('aftership and shippo: an incident reason picks the finer substatus', () => {
    const lost = timeline([event('otep:core:exception', { incident_reason: 'otep:reason:lost' })]);
    assert.equal(aftershipTracking(lost).subtag, 'Exception_013');
    assert.deepEqual(
      [shippoTrack(lost).tracking_status.status, shippoTrack(lost).tracking_status.substatus?.code],
      ['FAILURE', 'package_lost'],
    );
    const absent = timeline([event('otep:core:exception', { incident_reason: 'otep:reason:recipient_absent' })]);
    assert.equal(aftershipTracking(absent).subtag, 'Exception_001', "a reason without a finer subtag keeps the code's");
  });

  test('shopify: events keep their times, the failed attempt is attempted_delivery', () => {
    const fulfillment = shopifyFulfillment(JOURNEY, ctx);
    assert.deepEqual(
      fulfillment.fulfillment_events.map((e) => e.happened_at),
      JOURNEY.events.map((e) => e.occurred_at),
    );
    const failed = fulfillment.fulfillment_events[JOURNEY.events.indexOf(FAILED)]!;
    assert.deepEqual(
      [failed.status, failed.happened_at, failed.zip, failed.country],
      ['attempted_delivery', '2026-11-19T14:20:00+01:00', '75011', 'FR'],
    );
    assert.equal(fulfillment.tracking_url, 'https://tms.example.com/api/v1/otep/trackings/TMSJOURNEY0001');
    assert.deepEqual(shopify.projectEvents!(JOURNEY, ctx), { fulfillment_events: fulfillment.fulfillment_events });
  });

  test('shippo: the same instants in UTC, the failed attempt is a TRANSIT delivery_attempted', () => {
    const track = shippoTrack(JOURNEY);
    JOURNEY.events.forEach((e, i) => {
      const date = track.tracking_history[i]!.status_date!;
      assert.ok(date.endsWith('Z'), date);
      assert.equal(Date.parse(date), Date.parse(e.occurred_at), e.id);
    });
    const failed = track.tracking_history[JOURNEY.events.indexOf(FAILED)]!;
    assert.deepEqual(
      [failed.status, failed.substatus, failed.status_date],
      [
        'TRANSIT',
        { code: 'delivery_attempted', text: 'Delivery attempted', action_required: true },
        '2026-11-19T13:20:00Z',
      ],
    );
    assert.deepEqual(track.tracking_status, track.tracking_history.at(-1));
    assert.equal(track.tracking_status.status_date, '2026-11-20T14:42:00Z');
    assert.deepEqual(shippo.projectEvents!(JOURNEY, ctx), { tracking_history: track.tracking_history });
  });

  test("woocommerce: completed at the delivery instant in GMT, shipped on the pickup's local date", () => {
    assert.deepEqual(woocommerceOrder(JOURNEY, ctx), {
      status: 'completed',
      date_completed_gmt: '2026-11-20T14:42:00',
      shipment_trackings: [
        {
          tracking_provider: 'tms.example.com',
          tracking_link: 'https://tms.example.com/api/v1/otep/trackings/TMSJOURNEY0001',
          tracking_number: 'TMSJOURNEY0001',
          date_shipped: '2026-11-17',
        },
      ],
    });
  });

  test('magento: complete, with a custom track created at the pickup', () => {
    assert.deepEqual(magentoOrder(JOURNEY, ctx), {
      state: 'complete',
      status: 'complete',
      tracks: [
        {
          track_number: 'TMSJOURNEY0001',
          title: 'tms.example.com',
          carrier_code: 'custom',
          created_at: '2026-11-17 15:30:00',
        },
      ],
    });
  });

  test('bigcommerce: Completed, shipped at the pickup in RFC 2822', () => {
    assert.deepEqual(bigcommerceOrder(JOURNEY, ctx), {
      status_id: 10,
      status: 'Completed',
      date_shipped: 'Tue, 17 Nov 2026 15:30:00 +0000',
      shipments: [
        {
          tracking_number: 'TMSJOURNEY0001',
          shipping_provider: '',
          tracking_carrier: '',
          tracking_link: 'https://tms.example.com/api/v1/otep/trackings/TMSJOURNEY0001',
          date_created: 'Tue, 17 Nov 2026 15:30:00 +0000',
        },
      ],
    });
  });

  test('prestashop: Delivered (5) with the shipping number', () => {
    assert.deepEqual(prestashopOrder(JOURNEY), { current_state: 5, shipping_number: 'TMSJOURNEY0001' });
  });

  test('etsy: completed and shipped, notified at the pickup, delivered step at the delivery', () => {
    assert.deepEqual(etsyReceipt(JOURNEY, ctx), {
      status: 'completed',
      is_shipped: true,
      shipments: [
        {
          tracking_code: 'TMSJOURNEY0001',
          carrier_name: 'tms.example.com',
          shipment_notification_timestamp: Date.parse('2026-11-17T16:30:00+01:00') / 1000,
          current_step: 'delivered',
          current_step_date: Date.parse('2026-11-20T15:42:00+01:00') / 1000,
        },
      ],
    });
    for (const s of STATUS_CODES)
      assert.ok(
        ETSY_SHIPMENT_STEPS.includes(
          etsyReceipt(timeline([event('otep:core:picked_up'), event(s.id)]), ctx).shipments[0]!.current_step,
        ),
        s.id,
      );
  });

  test('before the parcel leaves the sender, no platform has a shipment', () => {
    const waiting = timeline([event('otep:parcel:label_created'), event('otep:parcel:pickup_started')]);
    assert.deepEqual(woocommerceOrder(waiting, ctx).shipment_trackings, []);
    assert.deepEqual(magentoOrder(waiting, ctx).tracks, []);
    assert.deepEqual([bigcommerceOrder(waiting, ctx).shipments, bigcommerceOrder(waiting, ctx).date_shipped], [[], '']);
    assert.equal(prestashopOrder(waiting).shipping_number, '');
    assert.deepEqual([etsyReceipt(waiting, ctx).is_shipped, etsyReceipt(waiting, ctx).shipments], [false, []]);
    assert.equal(aftershipTracking(waiting).shipment_pickup_date, null);
    assert.equal(shopifyFulfillment(waiting, ctx).shipment_status, 'confirmed');
  });
});
