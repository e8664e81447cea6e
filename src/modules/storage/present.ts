/**
 * What leaves the service of a storage order and of a stored package: price fields only when the customer's
 * `storage_services` prices are not hidden (staff always see them).
 */
import { formatDecimal, minorDigits } from '../delivery-prices/index.ts';
import { presentWarehouse, type StoredPackageRow, type WarehouseRow } from '../wms/index.ts';
import { canCancel, canEdit, statusOf, wasReceived } from './domain.ts';
import { balanceDue } from './orderSteps.ts';
import type { CustomerPackageRow } from './repo/packages.ts';
import type { StorageOrderRow } from './repo/orders.ts';
import type { StorageOrderView, StoredPackageItem } from './views.ts';

const iso = (t: string | null) => (t === null ? null : new Date(t).toISOString());

const packageFields = (p: StoredPackageRow | CustomerPackageRow) => ({
  id: p.id,
  tracking_number: p.tracking_number,
  reference: p.reference,
  description: p.description,
  weight_grams: p.weight_grams,
  length_mm: p.length_mm,
  width_mm: p.width_mm,
  height_mm: p.height_mm,
  state: p.state,
  received: wasReceived(p),
  received_at: iso(p.received_at),
  location: p.location,
});

export function presentOrder(
  o: StorageOrderRow,
  packages: readonly StoredPackageRow[],
  warehouse: WarehouseRow,
  hidden: boolean,
): StorageOrderView {
  const digits = minorDigits(o.currency);
  const money = (v: bigint) => formatDecimal(v, digits);
  return {
    id: o.id,
    customer_id: o.customer_id,
    service_code: o.service_code,
    warehouse: presentWarehouse(warehouse),
    status: statusOf(o.status, packages),
    reference: o.reference,
    expected_arrival: o.expected_arrival,
    packages: packages.map(packageFields),
    ...(hidden
      ? {}
      : {
          currency: o.currency,
          total: money(o.total),
          tax: money(o.tax),
          price_details: o.price_details,
          paid_amount: money(o.paid_amount),
          offline_amount: money(o.offline_amount),
          balance_due: money(o.status === 'pending_payment' ? balanceDue(o) : 0n),
          price_per_period: money(o.period_price),
        }),
    settled_offline: o.offline_amount > 0n,
    period: o.period,
    price_hidden: hidden,
    expires_at: o.status === 'pending_payment' ? iso(o.expires_at) : null,
    can_edit: canEdit(o.status, packages),
    can_cancel: canCancel(o.status, packages),
    workflow_id: o.workflow_id,
    created_at: iso(o.created_at)!,
    updated_at: iso(o.updated_at)!,
  };
}

export function presentPackage(p: CustomerPackageRow, hidden: boolean): StoredPackageItem {
  const digits = minorDigits(p.currency);
  return {
    ...packageFields(p),
    storage_order_id: p.storage_order_id,
    warehouse: { id: p.warehouse_id, code: p.warehouse_code, name: p.warehouse_name },
    shipout_id: p.shipout_id,
    age_days: p.age_days,
    periods_charged: p.fees_charged_periods,
    ...(hidden
      ? {}
      : {
          currency: p.currency,
          fees_charged: formatDecimal(p.fees_charged, digits),
          fees_owed: formatDecimal(p.fees_owed, digits),
        }),
    price_hidden: hidden,
  };
}
