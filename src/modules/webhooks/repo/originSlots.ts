import { executeBound, type Em } from '../../../platform/db/orm.ts';

/** Creates the origin's slots 0 .. limit-1 where missing. */
export async function makeOriginSlots(em: Em, origin: string, limit: number): Promise<void> {
  await executeBound(
    em,
    'insert into webhook_origin_slot (origin, slot) select $1, s from generate_series(0, $2 - 1) s on conflict do nothing',
    [origin, limit],
  );
}

/**
 * Leases up to `wanted` free slots of the origin to `holder`. A slot is free when its lease has ended; SKIP
 * LOCKED lets workers lease at once without waiting on each other.
 */
export async function leaseOriginSlots(
  em: Em,
  origin: string,
  limit: number,
  wanted: number,
  holder: string,
  leaseSec: number,
): Promise<number[]> {
  const rows = await executeBound<{ slot: number }>(
    em,
    `with free as (
       select slot from webhook_origin_slot where origin = $1 and slot < $2 and leased_until < now()
       order by slot limit $3 for update skip locked)
     update webhook_origin_slot o set holder = $4, leased_until = now() + make_interval(secs => $5)
     from free where o.origin = $1 and o.slot = free.slot
     returning o.slot`,
    [origin, limit, wanted, holder, leaseSec],
  );
  return rows.map((r) => r.slot);
}

/** Extends the holder's leases; answers the slots still its own. */
export async function renewOriginSlots(
  em: Em,
  origin: string,
  slots: number[],
  holder: string,
  leaseSec: number,
): Promise<number[]> {
  const rows = await executeBound<{ slot: number }>(
    em,
    `update webhook_origin_slot set leased_until = now() + make_interval(secs => $4)
     where origin = $1 and slot = any($2::int[]) and holder = $3 and leased_until > now() returning slot`,
    [origin, slots, holder, leaseSec],
  );
  return rows.map((r) => r.slot);
}

export async function giveBackOriginSlots(em: Em, origin: string, slots: number[], holder: string): Promise<void> {
  await executeBound(
    em,
    `update webhook_origin_slot set holder = null, leased_until = '-infinity' where origin = $1 and slot = any($2::int[]) and holder = $3`,
    [origin, slots, holder],
  );
}
