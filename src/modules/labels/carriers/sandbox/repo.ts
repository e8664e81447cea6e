/**
 * The sandbox carriers' own side of the story (docs/labels.md, "The two sandbox carriers"): the shipments they
 * created, refused, voided and manifested, in `sandbox_shipment`. It is what a real carrier's database is to its
 * API: the labels module never reads it, the sandbox adapter alone does.
 */
import { executeBound, type Em } from '../../../../platform/db/orm.ts';
import type { LabelShipment } from '../adapter.ts';

export type SandboxState = 'refused' | 'created' | 'voided' | 'manifested';

export interface SandboxShipment {
  id: number;
  carrier: string;
  account_id: number;
  idempotency_key: string;
  reference: string | null;
  service: string;
  shipment: LabelShipment;
  transit_days: number;
  tracking_numbers: string[];
  state: SandboxState;
  total_charge: string;
  currency: string;
  created_at: Date;
}

const COLUMNS =
  'id, carrier, account_id, idempotency_key, reference, service, shipment, transit_days, tracking_numbers, state, total_charge::text as total_charge, currency, created_at';

export async function shipmentByKey(
  em: Em,
  carrier: string,
  accountId: number,
  key: string,
): Promise<SandboxShipment | null> {
  const rows = await executeBound<SandboxShipment>(
    em,
    `select ${COLUMNS} from sandbox_shipment where carrier = $1 and account_id = $2 and idempotency_key = $3`,
    [carrier, accountId, key],
  );
  return rows[0] ?? null;
}

/** Whether a purchase of this reference was refused before (SBX-REFUSE-ONCE refuses the first one only). */
export async function refusedBefore(em: Em, carrier: string, accountId: number, reference: string): Promise<boolean> {
  const rows = await executeBound<{ n: number }>(
    em,
    "select 1 as n from sandbox_shipment where carrier = $1 and account_id = $2 and reference = $3 and state = 'refused' limit 1",
    [carrier, accountId, reference],
  );
  return rows.length > 0;
}

/**
 * Records a shipment under its key, once: a second insert of the same key (two racing purchases) writes nothing,
 * and both callers read the one row.
 */
export async function recordShipment(
  em: Em,
  row: Omit<SandboxShipment, 'id' | 'created_at'>,
): Promise<SandboxShipment> {
  await executeBound(
    em,
    `insert into sandbox_shipment (carrier, account_id, idempotency_key, reference, service, shipment, transit_days,
       tracking_numbers, state, total_charge, currency)
     values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11)
     on conflict (carrier, account_id, idempotency_key) do nothing`,
    [
      row.carrier,
      row.account_id,
      row.idempotency_key,
      row.reference,
      row.service,
      JSON.stringify(row.shipment),
      row.transit_days,
      row.tracking_numbers,
      row.state,
      row.total_charge,
      row.currency,
    ],
  );
  return (await shipmentByKey(em, row.carrier, row.account_id, row.idempotency_key))!;
}

/** Moves created shipments to `to`; answers the rows as they are after the move. */
export async function moveShipments(
  em: Em,
  carrier: string,
  accountId: number,
  keys: readonly string[],
  to: 'voided' | 'manifested',
): Promise<SandboxShipment[]> {
  const stamp = to === 'voided' ? 'voided_at' : 'manifested_at';
  await executeBound(
    em,
    `update sandbox_shipment set state = $4, ${stamp} = now()
     where carrier = $1 and account_id = $2 and idempotency_key = any($3) and state = 'created'`,
    [carrier, accountId, keys, to],
  );
  return executeBound<SandboxShipment>(
    em,
    `select ${COLUMNS} from sandbox_shipment where carrier = $1 and account_id = $2 and idempotency_key = any($3) order by id`,
    [carrier, accountId, keys],
  );
}
