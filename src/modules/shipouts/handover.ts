/**
 * The hand-over of a packed ship-out (docs/customer-services.md, "Ship-outs"): its outbound order is placed (own
 * fleet) or its label bought (carrier, key `tms:sho-<id>`), then in one transaction the customer's storage periods due
 * are charged, its packages marked shipped, its holds posted and the ship-out moved to handed_over. Run by the process's activity, so a worker killed anywhere
 * retries it: the own fleet's order is placed in that same transaction, and the label is found by its key.
 */
import { processContext } from '../../../src/platform/catalog/processContext.ts';
import type { BusinessContext } from '../../platform/catalog/types.ts';
import { AppError } from '../../platform/errors.ts';
import type { WorkerDeps } from '../../platform/module.ts';
import { QuotaCounter } from '../../platform/quotaCounter.ts';
import { shipoutService } from '../customer-services/index.ts';
import { formatDecimal, minorDigits } from '../delivery-prices/index.ts';
import { buyAtRate, labelOrderByKey, quoteLabels, runPurchase, type RateInput } from '../labels/index.ts';
import { actorOf, afterOrdersPlaced, placeOrders, type OrderPrice, type PlacedOrder } from '../orders/index.ts';
import { chargeCustomer } from '../storage/index.ts';
import { postHold } from '../wallet/index.ts';
import { packagesOf, shipPackages, warehouseOf, type StoredPackageRow } from '../wms/index.ts';
import type { ShipoutStatus } from './contract.ts';
import { holdKey, labelKey, postKey } from './domain.ts';
import {
  anyAdminOf,
  businessToday,
  lockShipout,
  recordHandOver,
  shipoutById,
  staffCaller,
  type ShipoutRow,
} from './repo.ts';

/** A hand-over the business's set-up refuses (no carrier account, no rate): the step answers it, nothing changed. */
export class HandOverRefused extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** What a package weighs when it was never weighed: a carrier needs a weight. */
const UNWEIGHED_GRAMS = 500;

export async function handOverShipout(deps: WorkerDeps, shipoutId: number, userId: number): Promise<ShipoutStatus> {
  const em = deps.orm.em.fork();
  const row = await shipoutById(em, shipoutId);
  if (!row) throw new Error(`ship-out ${shipoutId} not found`);
  if (row.status !== 'packed') return row.status;
  const ctx = await actingContext(deps, row, userId);
  const quotas = ctx.quotas;
  try {
    const service = await shipoutService(em, row.business_id, row.service_code, { activeOnly: false });
    if (!service) throw new Error(`ship-out ${shipoutId}: service ${row.service_code} not found`);
    const packages = await packagesOf(em, { businessId: row.business_id, shipoutId });
    if (service.fulfilment.kind === 'carrier') {
      const orderId = await buyLabel(ctx, row, packages, service.fulfilment);
      return await em.transactional(async (tx) => {
        const locked = (await lockShipout(tx, shipoutId))!;
        if (locked.status !== 'packed') return locked.status;
        await finish(tx, locked, orderId);
        return 'handed_over' as const;
      });
    }
    let placed: PlacedOrder | null = null;
    const after = await em.transactional(async (tx) => {
      const locked = (await lockShipout(tx, shipoutId))!;
      if (locked.status !== 'packed') return locked.status;
      placed = await placeOutbound(tx, ctx, locked, packages);
      await finish(tx, locked, placed.orderId);
      return 'handed_over' as const;
    });
    if (placed) await afterOrdersPlaced(ctx, [placed]);
    return after;
  } finally {
    await quotas.stop();
  }
}

/**
 * Charges the customer's storage periods due now (the packages leave the warehouse: a period started since the last
 * fee run would never be charged after), ships the packages, posts the holds (an offline settlement has none left)
 * and closes the ship-out. The locks come in the fee run's order: the customer's fee lock, the packages, then the
 * wallet and revenue accounts, so the two never wait on each other.
 */
async function finish(tx: BusinessContext['em'], row: ShipoutRow, orderId: number): Promise<void> {
  await chargeCustomer(tx, row.business_id, row.customer_id);
  await shipPackages(tx, { businessId: row.business_id, shipoutId: row.id });
  if (!row.settled_offline)
    for (let n = 0; n < row.payments; n++)
      await postHold(tx, { businessId: row.business_id, key: postKey(row.id, n), holdKey: holdKey(row.id, n) });
  await recordHandOver(tx, row.id, orderId);
}

const parcelsOf = (packages: readonly StoredPackageRow[]) =>
  packages.map((p) => ({
    weight_grams: p.weight_grams ?? UNWEIGHED_GRAMS,
    length_mm: p.length_mm,
    width_mm: p.width_mm,
    height_mm: p.height_mm,
  }));

/** The ship-out's price as its outbound order carries it. */
function shipoutPrice(row: ShipoutRow): OrderPrice {
  const digits = minorDigits(row.currency);
  return {
    shippingPrice: formatDecimal(row.total ?? 0n, digits),
    tax: formatDecimal(row.tax ?? 0n, digits),
    currency: row.currency,
    priceDetails: (row.price_details ?? []) as unknown as Record<string, unknown>[],
  };
}

/** The own fleet's outbound order, at the ship-out's price, placed in the hand-over's transaction. */
async function placeOutbound(
  tx: BusinessContext['em'],
  ctx: BusinessContext,
  row: ShipoutRow,
  packages: readonly StoredPackageRow[],
): Promise<PlacedOrder> {
  const r = row.recipient;
  const [placed] = await placeOrders(
    tx,
    row.business_id,
    [
      {
        type: 'D',
        scheduled_date: await businessToday(tx, row.business_id),
        order_ref: row.reference ?? `SHO-${row.id}`,
        recipient: {
          name: r.company ? `${r.name}, ${r.company}` : r.name,
          phone: r.phone,
          email: r.email,
          address: {
            line1: r.address.line1,
            line2: r.address.line2,
            city: r.address.city,
            postal_code: r.address.postal_code,
            country: r.address.country,
            lat: null,
            lng: null,
          },
        },
        note: null,
        packages: parcelsOf(packages),
        customer_id: row.customer_id,
        price_family: 'storage_services',
      },
    ],
    actorOf(ctx),
    { pricing: null, prices: [shipoutPrice(row)] },
  );
  return placed!;
}

/**
 * The carrier's label, bought once with the key `tms:sho-<id>`: a retry finds the label order of the key (and finishes
 * a purchase a killed worker left pending) instead of rating again. A carrier's refusal leaves the label order in
 * LABEL_PURCHASE_FAILED (bought again by staff, docs/labels.md); the ship-out is handed over with it.
 */
async function buyLabel(
  ctx: BusinessContext,
  row: ShipoutRow,
  packages: readonly StoredPackageRow[],
  fulfilment: { carrier: string; service: string },
): Promise<number> {
  const key = labelKey(row.id);
  const earlier = await labelOrderByKey(ctx.em, row.business_id, key);
  if (earlier) {
    if (earlier.state === 'pending') await runPurchase(ctx, earlier.order_id);
    return earlier.order_id;
  }
  const warehouse = await warehouseOf(ctx.em, row.business_id, row.warehouse_id);
  if (!warehouse) throw new Error(`ship-out ${row.id}: warehouse ${row.warehouse_id} not found`);
  const a = warehouse.address;
  const input = {
    shipper: {
      name: warehouse.name,
      company: null,
      phone: null,
      email: null,
      address: {
        line1: a.line1,
        line2: a.line2 ?? null,
        city: a.city,
        state: a.state ?? null,
        postal_code: a.postal_code,
        country: a.country,
      },
    },
    recipient: row.recipient,
    parcels: parcelsOf(packages),
    reference: row.reference ?? `SHO-${row.id}`,
    carriers: [fulfilment.carrier],
    services: [fulfilment.service],
  } as RateInput;
  let rateId: string;
  try {
    const quote = await quoteLabels(ctx, input);
    const rate = quote.rates.find((r) => r.carrier === fulfilment.carrier && r.service === fulfilment.service);
    if (!rate) throw new HandOverRefused('CARRIER_ERROR', `the carrier gave no rate for ${fulfilment.service}`);
    rateId = rate.id;
  } catch (err) {
    if (err instanceof AppError) throw new HandOverRefused(err.code, err.message);
    throw err;
  }
  const { orderId } = await buyAtRate(ctx, {
    rate_id: rateId,
    idempotency_key: key,
    reference: row.reference ?? `SHO-${row.id}`,
    customer_id: row.customer_id,
    // The order carries what the customer was charged, hidden by the ship-out's family, not the carrier's rate.
    price: shipoutPrice(row),
    price_family: 'storage_services',
  });
  return orderId;
}

/** The context the hand-over acts in: as the staff account that handed it over (or a client admin, if it left). */
async function actingContext(deps: WorkerDeps, row: ShipoutRow, userId: number): Promise<BusinessContext> {
  const em = deps.orm.em.fork();
  const staff =
    (await staffCaller(em, row.business_id, userId)) ??
    (await staffCaller(em, row.business_id, (await anyAdminOf(em, row.business_id)) ?? 0));
  if (!staff) throw new Error(`ship-out ${row.id}: the business has no staff account to act for`);
  return processContext(deps, {
    caller: { ...staff, tokenHash: `shipout:${row.id}`, via: 'session' },
    name: `shipout-${row.id}-hand-over`,
    clientAddress: `shipout-${row.id}`,
    quotas: new QuotaCounter(deps.orm, deps.log),
    logFields: { shipoutId: row.id },
  });
}
