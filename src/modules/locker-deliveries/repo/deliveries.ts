import type { Em } from '../../../platform/db/orm.ts';
import { insertOutboxEvent } from '../../../platform/db/outbox.ts';
import { openSecret, purposeOf, sealSecret, type SealedColumn } from '../../../platform/secretBox.ts';
import { releaseCompartment, tryOccupyCompartment, type CompartmentSize } from '../../lockers/index.ts';
import {
  isFinal,
  TRANSITIONS,
  type LockerAction,
  type LockerDeliveryStatus,
  type LockerSettings,
  type OpenMode,
} from '../domain.ts';
import { codeLockKey, lookupTags, newLockerCode } from '../codes.ts';
import type { LockerTransitionDetails } from '../contract.ts';
import { settingsOf, type SettingsRow } from './partners.ts';
import { presentLockerDelivery, type LockerDeliveryRow, type LockerDeliveryView } from '../views.ts';

/** The pickup code is kept sealed: its events and the recipient's notifications read it back. */
export const PICKUP_CODE: SealedColumn = { table: 'locker_delivery', column: 'pickup_code_sealed' };

const SELECT_VIEW = `select l.*, d.code as device_code,
    (select json_agg(json_build_object('reference', p.reference, 'size', p.size, 'grid_id', c.id, 'compartment_number', c.compartment_number,
       'pickup_locker_number', c.pickup_locker_number, 'shelf_code', c.shelf_code, 'failure_code', p.failure_code) order by p.id)
     from locker_delivery_parcel p join compartment c on c.id = p.compartment_id where p.delivery_id = l.id) as parcels
  from locker_delivery l join device d on d.id = l.device_id`;

/**
 * The delivery whose code this is, among the device's open ones: a delivery code of a deposit to come or under way,
 * or a pickup code of a confirmed deposit. An index lookup by the code's tags (codes.ts).
 */
export async function findByScreenCode(
  em: Em,
  deviceId: number,
  code: string,
): Promise<{ id: number; status: LockerDeliveryStatus } | null> {
  const tags = lookupTags(deviceId, code);
  const [row] = await em.execute<{ id: number; status: LockerDeliveryStatus }[]>(
    `select id, status from locker_delivery where device_id = ?
       and ((status in ('awaiting_deposit', 'depositing') and delivery_code_hash in (?)) or (status = 'delivered' and pickup_code_hash in (?)))
     order by id limit 1`,
    [deviceId, tags, tags],
  );
  return row ?? null;
}

/** Whether an open delivery of the device holds one of these codes, usable now or later (committed rows only). */
export async function codesInUse(em: Em, deviceId: number, codes: readonly string[]): Promise<boolean> {
  const tags = codes.flatMap((c) => lookupTags(deviceId, c));
  const [row] = await em.execute<{ used: boolean }[]>(
    `select exists (select 1 from locker_delivery where device_id = ? and status in ('awaiting_deposit', 'depositing', 'delivered')
       and (delivery_code_hash in (?) or pickup_code_hash in (?))) as used`,
    [deviceId, tags, tags],
  );
  return row!.used;
}

/**
 * Draws `count` codes, different from each other and from every code the device's open deliveries hold. Each drawn
 * code is locked for the transaction (an advisory lock on its key, in ascending order) before it is checked, so a
 * concurrent transaction that drew the same code has committed when the check runs, and the codes are drawn anew.
 * Transactions drawing different codes never wait on each other. `draw` is for tests.
 */
export async function drawFreeCodes(
  tx: Em,
  deviceId: number,
  count: number,
  draw: () => string = newLockerCode,
): Promise<string[]> {
  for (;;) {
    const codes = new Set<string>();
    while (codes.size < count) codes.add(draw());
    const keys = [...new Set([...codes].map((c) => codeLockKey(deviceId, c)))].sort((a, b) => a - b);
    for (const key of keys) await tx.execute("select pg_advisory_xact_lock(hashtext('locker_codes'), ?)", [key]);
    if (!(await codesInUse(tx, deviceId, [...codes]))) return [...codes];
  }
}

/**
 * A code no open delivery of the device holds, drawn outside any transaction (a delivery code's rotation, whose
 * code the API shows): two draws of the same code at the same instant are not excluded, one chance in 10^8 a pair.
 */
export async function drawUnusedCode(em: Em, deviceId: number): Promise<string> {
  for (;;) {
    const code = newLockerCode();
    if (!(await codesInUse(em, deviceId, [code]))) return code;
  }
}

/** The device a delivery goes into. */
export async function deviceOfDelivery(em: Em, id: number): Promise<number | null> {
  const [row] = await em.execute<{ device_id: number }[]>('select device_id from locker_delivery where id = ?', [id]);
  return row?.device_id ?? null;
}

/** The delivery whose parcel holds a compartment. */
export async function deliveryOfParcel(em: Em, lockerParcelId: number): Promise<number | null> {
  const [row] = await em.execute<{ delivery_id: number }[]>(
    'select delivery_id from locker_delivery_parcel where id = ?',
    [lockerParcelId],
  );
  return row?.delivery_id ?? null;
}

export interface DeliveryTarget {
  device: { id: number; code: string; businessId: number; sandbox: boolean } | null;
  settings: LockerSettings;
  /** The new delivery's id, taken from the sequence when the device is found. */
  nextId: number | null;
}

/** A device of a business that lets this provider deliver into its lockers, with that business's settings. */
export async function findDeliveryTarget(em: Em, providerId: number, deviceCode: string): Promise<DeliveryTarget> {
  const [row] = await em.execute<
    { id: number; business_id: number; sandbox: boolean; next_id: number; s: SettingsRow | null }[]
  >(
    `select d.id, d.business_id, d.sandbox, nextval('locker_delivery_id_seq')::int as next_id, to_jsonb(s) as s
     from device d join locker_partner lp on lp.business_id = d.business_id and lp.provider_id = ?
       left join locker_settings s on s.business_id = d.business_id
     where d.code = ?`,
    [providerId, deviceCode],
  );
  if (!row) return { device: null, settings: settingsOf(null), nextId: null };
  return {
    device: { id: row.id, code: deviceCode, businessId: row.business_id, sandbox: row.sandbox },
    nextId: row.next_id,
    settings: settingsOf(row.s),
  };
}

export interface NewLockerDelivery {
  id: number;
  businessId: number;
  providerId: number;
  deviceId: number;
  /** False on a sandbox locker: a test delivery, its events marked so. */
  livemode: boolean;
  openMode: OpenMode;
  recipient: { name: string; phone: string | null; email: string | null };
  parcels: readonly { reference: string; size: CompartmentSize }[];
  deliveryCodeHash: string | null;
  pickupCodeHash: string;
  pickupCode: string;
  deliveryCodeExpiresAt: Date;
  /** The business's settings in seconds, already scaled (config.lockerTimerScale). */
  timers: { depositTimeout: number; pickupTtl: number; correctionWindow: number; codeRotation: number };
}

/**
 * Writes the delivery and reserves one free compartment of its size for each parcel. Compartments another
 * transaction is reserving are skipped (their rows are locked); one whose occupant a concurrent transaction committed
 * meanwhile is found taken when occupied, and the next free one is tried. Answers the first parcel no compartment is
 * left for (the caller rolls back), or the delivery.
 */
export async function insertLockerDelivery(
  tx: Em,
  d: NewLockerDelivery,
): Promise<{ noRoomFor: number } | LockerDeliveryView> {
  const s = d.timers;
  await tx.execute(
    `insert into locker_delivery (id, business_id, provider_id, device_id, livemode, status, open_mode, recipient, delivery_code_hash, pickup_code_hash, pickup_code_sealed,
       delivery_code_expires_at, deposit_timeout_seconds, pickup_ttl_seconds, correction_window_seconds, code_rotation_seconds)
     values (?, ?, ?, ?, ?, 'awaiting_deposit', ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      d.id,
      d.businessId,
      d.providerId,
      d.deviceId,
      d.livemode,
      d.openMode,
      JSON.stringify(d.recipient),
      d.deliveryCodeHash,
      d.pickupCodeHash,
      sealSecret(purposeOf(PICKUP_CODE), d.pickupCode),
      d.deliveryCodeExpiresAt,
      s.depositTimeout,
      s.pickupTtl,
      s.correctionWindow,
      s.codeRotation,
    ],
  );
  const passed: number[] = [];
  for (const [i, parcel] of d.parcels.entries()) {
    let parcelId: number | null = null;
    for (;;) {
      const [free] = await tx.execute<{ id: number }[]>(
        `select c.id from compartment c where c.device_id = ? and c.size = ? and c.id <> all(?::int[])
           and not exists (select 1 from compartment_parcel p where p.compartment_id = c.id)
         order by c.compartment_number limit 1 for update skip locked`,
        [d.deviceId, parcel.size, `{${passed.join(',')}}`],
      );
      if (!free) return { noRoomFor: i };
      passed.push(free.id);
      if (parcelId === null) {
        const [row] = await tx.execute<{ id: number }[]>(
          'insert into locker_delivery_parcel (delivery_id, reference, size, compartment_id) values (?, ?, ?, ?) returning id',
          [d.id, parcel.reference, parcel.size, free.id],
        );
        parcelId = row!.id;
      } else {
        await tx.execute('update locker_delivery_parcel set compartment_id = ? where id = ?', [free.id, parcelId]);
      }
      if (await tryOccupyCompartment(tx, free.id, { lockerParcelId: parcelId })) break;
    }
  }
  return (await findLockerDelivery(tx, { providerId: d.providerId }, d.id))!;
}

/** Whose deliveries a caller sees: the provider's own, or those into the business's lockers. */
export type DeliveryOwner = { providerId: number } | { businessId: number };
const ownerFilter = (o: DeliveryOwner) =>
  'providerId' in o ? { sql: 'l.provider_id = ?', id: o.providerId } : { sql: 'l.business_id = ?', id: o.businessId };

/** What a notice to the recipient is made of: the delivery, its locker's name, its business and its sealed pickup code. */
export async function findNoticeFacts(
  em: Em,
  id: number,
): Promise<{ view: LockerDeliveryView; businessId: number; deviceName: string; pickupCode: () => string } | null> {
  const [row] = await em.execute<
    (LockerDeliveryRow & { business_id: number; device_name: string; pickup_code_sealed: string })[]
  >(`select v.*, d.name as device_name from (${SELECT_VIEW} where l.id = ?) v join device d on d.id = v.device_id`, [
    id,
  ]);
  if (!row) return null;
  return {
    view: presentLockerDelivery(row),
    businessId: row.business_id,
    deviceName: row.device_name,
    pickupCode: () => openSecret(purposeOf(PICKUP_CODE), row.pickup_code_sealed),
  };
}

export async function findLockerDelivery(em: Em, owner: DeliveryOwner, id: number): Promise<LockerDeliveryView | null> {
  const o = ownerFilter(owner);
  const rows = await em.execute<LockerDeliveryRow[]>(`${SELECT_VIEW} where ${o.sql} and l.id = ?`, [o.id, id]);
  return rows[0] ? presentLockerDelivery(rows[0]) : null;
}

/** A delivery by id alone, for a caller that found it by a code on its own device. */
export async function findLockerDeliveryById(em: Em, id: number): Promise<LockerDeliveryView | null> {
  const rows = await em.execute<LockerDeliveryRow[]>(`${SELECT_VIEW} where l.id = ?`, [id]);
  return rows[0] ? presentLockerDelivery(rows[0]) : null;
}

export async function listLockerDeliveries(
  em: Em,
  f: { owner: DeliveryOwner; status?: string; limit: number; offset: number },
): Promise<{ total: number; items: LockerDeliveryView[] }> {
  const o = ownerFilter(f.owner);
  const where = f.status ? `${o.sql} and l.status = ?` : o.sql;
  const params = f.status ? [o.id, f.status] : [o.id];
  const [count] = await em.execute<{ n: number }[]>(
    `select count(*)::int as n from locker_delivery l where ${where}`,
    params,
  );
  const rows = await em.execute<LockerDeliveryRow[]>(
    `${SELECT_VIEW} where ${where} order by l.id desc limit ? offset ?`,
    [...params, f.limit, f.offset],
  );
  return { total: count!.n, items: rows.map(presentLockerDelivery) };
}

export type LockerTransitionResult =
  | { ok: true; view: LockerDeliveryView }
  | { ok: false; reason: 'missing' }
  | { ok: false; reason: 'invalid'; status: string };

/** What a transition may carry besides its action: why it was cancelled, how the doors opened, what confirmed it, ... */
export type TransitionDetails = LockerTransitionDetails;

const compartmentsOf = (v: LockerDeliveryView) =>
  v.parcels.map((p) => ({
    grid_id: p.grid_id,
    compartment_number: p.compartment_number,
    pickup_locker_number: p.pickup_locker_number,
    pickup_locker_code: p.pickup_locker_code,
  }));

/** The event's `data` besides delivery_id, per action (the schemas: events.ts). The pickup code is read here, never passed in. */
function eventData(
  action: LockerAction,
  view: LockerDeliveryView,
  at: string,
  d: TransitionDetails,
  pickupCode: () => string | null,
): Record<string, unknown> {
  switch (action) {
    case 'open':
      return {
        pickup_code: pickupCode(),
        opening: { via: d.via ?? 'remote_open', opened_at: at, compartments: compartmentsOf(view) },
      };
    case 'confirm':
      return { pickup_code: pickupCode(), confirmed_by: view.confirmed_by, compartments: compartmentsOf(view) };
    case 'fail':
      return {
        failed_at: at,
        parcels: view.parcels.map((p) => ({ reference: p.reference, failure_code: p.failure_code })),
      };
    case 'correct':
      return {
        correction: {
          reopened_at: at,
          compartments: compartmentsOf(view).filter((c) => d.compartmentNumbers?.includes(c.compartment_number)),
        },
      };
    case 'pickup':
      return { picked_up_at: at, opened_at: d.pickupOpenedAt ?? at, compartments: compartmentsOf(view) };
    case 'cancel':
      return { cancelled_at: at, reason: d.reason ?? null };
    case 'expire_delivery_code':
      return { expired: 'delivery_code', expired_at: at };
    case 'expire_deposit':
      return { expired: 'deposit', expired_at: at };
  }
}

/**
 * Applies one transition with its ledger row and its event to the provider, in one transaction; a final status
 * frees the compartments. The UPDATE's status guard makes the database the arbiter if two actors race.
 */
export async function transitionLockerDelivery(
  em: Em,
  id: number,
  action: LockerAction,
  d: TransitionDetails = {},
): Promise<LockerTransitionResult> {
  const t = TRANSITIONS[action];
  return em.transactional(async (tx) => {
    const [row] = await tx.execute<
      {
        business_id: number;
        provider_id: number;
        livemode: boolean;
        pickup_code_sealed: string;
        pickup_code_rotated: boolean;
      }[]
    >(
      `update locker_delivery set status = ?, updated_at = now(), ended_at = case when ? then now() else ended_at end,
         confirmed_by = coalesce(?, confirmed_by), delivered_at = case when ? = 'delivered' and status <> 'delivered' then now() else delivered_at end
       where id = ? and status in (?) returning business_id, provider_id, livemode, pickup_code_sealed, pickup_code_rotated`,
      [t.to, isFinal(t.to), d.confirmedBy ?? null, t.to, id, [...t.from]],
    );
    if (!row) {
      const [current] = await tx.execute<{ status: string }[]>('select status from locker_delivery where id = ?', [id]);
      return current ? { ok: false, reason: 'invalid', status: current.status } : { ok: false, reason: 'missing' };
    }
    if (d.failures?.length) {
      await tx.execute(
        `update locker_delivery_parcel p set failure_code = x.code from jsonb_to_recordset(?::jsonb) as x(reference text, code text)
         where p.delivery_id = ? and p.reference = x.reference`,
        [JSON.stringify(d.failures), id],
      );
    }
    if (isFinal(t.to)) {
      const parcels = await tx.execute<{ id: number }[]>(
        'select id from locker_delivery_parcel where delivery_id = ?',
        [id],
      );
      for (const p of parcels) await releaseCompartment(tx, { lockerParcelId: p.id });
    }
    const view = (await findLockerDelivery(tx, { providerId: row.provider_id }, id))!;
    // After a pickup-code rotation the code reaches the recipient only: later events carry none.
    const pickupCode = () =>
      row.pickup_code_rotated ? null : openSecret(purposeOf(PICKUP_CODE), row.pickup_code_sealed);
    await writeLockerEvent(
      tx,
      { id, businessId: row.business_id, providerId: row.provider_id, livemode: row.livemode },
      t.event,
      (at) => eventData(action, view, at, d, pickupCode),
    );
    return { ok: true, view };
  });
}

/** Whose event it is, for its envelope and its receiver. */
export interface EventOwner {
  id: number;
  businessId: number;
  providerId: number;
  livemode: boolean;
}

/** Writes the delivery's ledger row and its event to the provider (PLE-<ledger id>, PLE-MOCK- on a sandbox locker), in the caller's transaction. */
export async function writeLockerEvent(
  tx: Em,
  o: EventOwner,
  eventType: string,
  data: (at: string) => Record<string, unknown>,
): Promise<void> {
  const [ledger] = await tx.execute<{ id: string; occurred_at: Date }[]>(
    'insert into locker_delivery_event (delivery_id, event_type) values (?, ?) returning id, occurred_at',
    [o.id, eventType],
  );
  const at = new Date(ledger!.occurred_at).toISOString();
  const eventId = `${o.livemode ? 'PLE' : 'PLE-MOCK'}-${ledger!.id}`;
  await insertOutboxEvent(tx, {
    businessId: o.businessId,
    providerId: o.providerId,
    eventId,
    eventType,
    referenceType: 'locker_delivery',
    referenceId: String(o.id),
    payload: {
      event_id: eventId,
      event: eventType,
      livemode: o.livemode,
      occurred_at: at,
      data: { delivery_id: String(o.id), ...(o.livemode ? {} : { test: true }), ...data(at) },
    },
  });
}
