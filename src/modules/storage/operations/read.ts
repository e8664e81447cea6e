/** Reading a storage order as its answer: the row, its packages, its warehouse, and whether its prices are hidden. */
import type { BusinessContext } from '../../../platform/catalog/types.ts';
import type { Em } from '../../../platform/db/orm.ts';
import { errors } from '../../../platform/errors.ts';
import { pricesHiddenFrom } from '../../orders/index.ts';
import { packagesOf, warehouseOf } from '../../wms/index.ts';
import { presentOrder } from '../present.ts';
import { orderOf, type StorageOrderRow } from '../repo/orders.ts';
import type { StorageOrderAnswer, StorageOrderView } from '../views.ts';

/** Whether the caller may not see storage prices (a customer whose business hides them). */
export const storagePricesHidden = (ctx: BusinessContext, em: Em = ctx.em): Promise<boolean> =>
  pricesHiddenFrom(em, ctx.caller, 'storage_services');

/** The order as its answer; `hidden` as the caller sees prices. */
export async function orderAnswer(em: Em, row: StorageOrderRow, hidden: boolean): Promise<StorageOrderView> {
  const packages = await packagesOf(em, { businessId: row.business_id, storageOrderId: row.id });
  const warehouse = await warehouseOf(em, row.business_id, row.warehouse_id);
  if (!warehouse) throw new Error(`storage order ${row.id}: warehouse ${row.warehouse_id} is gone`);
  return presentOrder(row, packages, warehouse, hidden);
}

/** The order the caller may read (a customer its own; staff any of the business's), as its answer. */
export async function readOrder(ctx: BusinessContext, id: number): Promise<StorageOrderAnswer> {
  const customerId = ctx.caller.role === 'customer' ? ctx.caller.id : undefined;
  const row = await orderOf(ctx.em, ctx.caller.businessId, id, { customerId });
  if (!row) throw errors.notFound();
  return { result: true as const, storage_order: await orderAnswer(ctx.em, row, await storagePricesHidden(ctx)) };
}
