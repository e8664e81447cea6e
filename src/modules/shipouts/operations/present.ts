/** The ship-out as an answer shows it, with prices left out for a customer the storage family is hidden from. */
import type { BusinessContext } from '../../../platform/catalog/types.ts';
import type { Em } from '../../../platform/db/orm.ts';
import type { Role } from '../../../platform/roles.ts';
import { formatDecimal, minorDigits } from '../../delivery-prices/index.ts';
import { statusFor } from '../../labels/index.ts';
import { pricesHiddenFrom } from '../../orders/index.ts';
import { packagesOf } from '../../wms/index.ts';
import { shipoutWorkflowId } from '../contract.ts';
import { isCancellable } from '../domain.ts';
import { outboundOrderOf, type ShipoutRow } from '../repo.ts';
import type { ShipoutView } from '../views.ts';

/** Whether this caller's answers leave out ship-out prices (the family `storage_services`); never for staff. */
export const storagePricesHidden = (em: Em, caller: { id: number; role: Role }): Promise<boolean> =>
  pricesHiddenFrom(em, caller, 'storage_services');

const isoOrNull = (v: string | null) => (v === null ? null : new Date(v).toISOString());

/** What is left to pay: the total less what the wallet holds; null until priced, 0 once settled offline. */
export function balanceDue(row: ShipoutRow): bigint | null {
  if (row.total === null) return null;
  if (row.settled_offline) return 0n;
  const due = row.total - row.held_amount;
  return due > 0n ? due : 0n;
}

export async function presentShipout(ctx: BusinessContext, row: ShipoutRow): Promise<ShipoutView> {
  const [packages, hidden, order] = await Promise.all([
    packagesOf(ctx.em, { businessId: row.business_id, shipoutId: row.id }),
    storagePricesHidden(ctx.em, ctx.caller),
    row.order_id === null ? Promise.resolve(null) : outboundOrderOf(ctx.em, row.order_id),
  ]);
  const digits = minorDigits(row.currency);
  const money = (v: bigint | null) => (v === null ? null : formatDecimal(v, digits));
  const due = balanceDue(row);
  return {
    id: row.id,
    service_code: row.service_code,
    warehouse_id: row.warehouse_id,
    pricing_method: row.pricing_method,
    status: row.status,
    reference: row.reference,
    recipient: row.recipient,
    packages: packages.map((p) => ({
      id: p.id,
      tracking_number: p.tracking_number,
      reference: p.reference,
      description: p.description,
      weight_grams: p.weight_grams,
      state: p.state,
      location: p.location,
    })),
    ...(hidden
      ? { price_hidden: true as const }
      : {
          currency: row.currency,
          total: money(row.total),
          tax: money(row.tax),
          price_details: row.price_details,
          paid_amount: formatDecimal(row.held_amount, digits),
          balance_due: money(due),
        }),
    settled_offline: row.settled_offline,
    expires_at: row.status === 'pending_payment' ? isoOrNull(row.expires_at) : null,
    order: order ? { id: order.id, tracking_number: order.tracking_number, ...statusFor(ctx, order.status_id) } : null,
    can_pay: row.status === 'pending_payment' && !hidden && (due ?? 0n) > 0n,
    can_cancel: isCancellable(row.status),
    workflow_id: shipoutWorkflowId(row.id),
    picked_at: isoOrNull(row.picked_at),
    packed_at: isoOrNull(row.packed_at),
    handed_over_at: isoOrNull(row.handed_over_at),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
