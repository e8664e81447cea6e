/** What the authenticated (client) OTEP reads add to a timeline: the business's own fields, never in the public one. */
import type { Em } from '../../../platform/db/orm.ts';

export interface ClientPackage {
  order_id: number;
  order_ref: string | null;
  order_type: string;
  position: number;
  packages: number;
  carrier_reference: string | null;
  carrier_id: number | null;
  carrier_name: string | null;
}

/** The package with this number and its order's business fields, when the order meets `rule` (alias o), else null. */
export async function clientPackage(
  em: Em,
  trackingNumber: string,
  rule: { sql: string; params: unknown[] },
): Promise<ClientPackage | null> {
  const rows = await em.execute<ClientPackage[]>(
    `select o.id as order_id, o.order_ref, o.type as order_type, pk.position, pk.carrier_reference,
       (select count(*)::int from order_package x where x.order_id = o.id) as packages,
       o.carrier_provider_id as carrier_id, cb.name as carrier_name
     from order_package pk join delivery_order o on o.id = pk.order_id
     left join business cb on cb.id = o.carrier_provider_id
     where pk.package_number = ? and ${rule.sql}`,
    [trackingNumber, ...rule.params],
  );
  return rows[0] ?? null;
}

/**
 * Per timeline event id, what the business knows of it: a carrier's event, the carrier that pushed it; the order's
 * own status change (`osc-<n>`), its operation type and description.
 */
export async function eventAnnotations(
  em: Em,
  trackingNumber: string,
  orderId: number,
): Promise<Map<string, Record<string, unknown>>> {
  const rows = await em.execute<
    {
      id: string;
      carrier_id: number | null;
      carrier_name: string | null;
      operation_type: number | null;
      description: string | null;
    }[]
  >(
    `select te.event_key as id, te.provider_id as carrier_id, b.name as carrier_name, null::int as operation_type, null as description
     from tracking_event te join order_package pk on pk.id = te.package_id left join business b on b.id = te.provider_id
     where pk.package_number = ?
     union all
     select 'osc-' || h.id, null, null, h.operation_type, h.operation_description
     from order_status_change h where h.order_id = ? and h.tracking_event_id is null`,
    [trackingNumber, orderId],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      r.operation_type === null
        ? { carrier: r.carrier_id === null ? null : { id: r.carrier_id, name: r.carrier_name } }
        : { operation_type: r.operation_type, operation_description: r.description },
    ]),
  );
}
