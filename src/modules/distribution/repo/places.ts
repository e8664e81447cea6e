import type { Em } from '../../../platform/db/orm.ts';
import type { Address } from '../../orders/index.ts';
import type { PlaceKind } from '../domain.ts';

export interface PlaceRow {
  kind: PlaceKind;
  code: string;
  name: string;
  address: Address | null;
  device_id: string | null;
  identifier: string;
  created_at: Date;
}

export interface NewPlace {
  kind: PlaceKind;
  code: string;
  name: string;
  address: Address | null;
  /** The code of a device of the business, for a locker. */
  deviceCode: string | null;
  /** The place's SGLN; our own URN when null. */
  sgln: string | null;
}

const SELECT_PLACE = `select p.kind, p.code, p.name, p.address, d.code as device_id, p.identifier, p.created_at
  from place p left join device d on d.id = p.device_id`;

/** Writes the place; when nothing was written, answers why. */
export async function insertPlace(
  em: Em,
  businessId: number,
  p: NewPlace,
): Promise<PlaceRow | 'no_device' | 'code_taken' | 'identifier_taken'> {
  const rows = await em.execute<{ id: number }[]>(
    `with d as (select id from device where business_id = ? and code = ?)
     insert into place (business_id, kind, code, name, address, device_id, identifier)
     select b.id, ?, ?, ?, ?::jsonb, (select id from d), coalesce(?, 'urn:tms:place:' || b.code || ':' || ?)
     from business b where b.id = ? and (?::text is null or exists (select 1 from d))
     on conflict do nothing returning id`,
    [
      businessId,
      p.deviceCode,
      p.kind,
      p.code,
      p.name,
      p.address === null ? null : JSON.stringify(p.address),
      p.sgln,
      p.code,
      businessId,
      p.deviceCode,
    ],
  );
  if (rows.length > 0) return (await em.execute<PlaceRow[]>(`${SELECT_PLACE} where p.id = ?`, [rows[0]!.id]))[0]!;
  const [why] = await em.execute<{ device: boolean; code: boolean }[]>(
    `select (?::text is null or exists (select 1 from device where business_id = ? and code = ?)) as device,
            exists (select 1 from place where business_id = ? and code = ?) as code`,
    [p.deviceCode, businessId, p.deviceCode, businessId, p.code],
  );
  if (!why!.device) return 'no_device';
  return why!.code ? 'code_taken' : 'identifier_taken';
}

export function findPlace(em: Em, businessId: number, code: string): Promise<PlaceRow | undefined> {
  return em
    .execute<PlaceRow[]>(`${SELECT_PLACE} where p.business_id = ? and p.code = ?`, [businessId, code])
    .then((r) => r[0]);
}

export function listPlaces(em: Em, businessId: number, kind: PlaceKind | null): Promise<PlaceRow[]> {
  return em.execute<PlaceRow[]>(
    `${SELECT_PLACE} where p.business_id = ? and (?::text is null or p.kind = ?) order by p.code`,
    [businessId, kind, kind],
  );
}
