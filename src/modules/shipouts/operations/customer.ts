/**
 * The customer's ship-out operations (docs/customer-services.md, "Ship-outs"): the services, an estimate, create
 * from stored packages, list, read, pay (a hold on the wallet) and cancel. Role `customer` only; a customer reaches
 * its own ship-outs and packages only (another's id is NOT_FOUND, another's package PACKAGE_NOT_AVAILABLE).
 */
import { z } from 'zod';
import { offsetOf, pageOf, pageOutput, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import { writeOnceStarted } from '../../../platform/temporal/startWithRows.ts';
import {
  activeServices,
  customerServiceSettings,
  payFromWallet,
  presentShipoutService,
  priceShipment,
  shipoutService,
} from '../../customer-services/index.ts';
import { formatDecimal, minorDigits, parseDecimal } from '../../delivery-prices/index.ts';
import { partyOf } from '../../labels/index.ts';
import { failPayment } from '../../wallet/index.ts';
import { packagesOf, reservePackages, warehouseOf, type StoredPackageRow } from '../../wms/index.ts';
import { isCancellable } from '../domain.ts';
import { fail } from '../errorCodes.ts';
import { unwind } from '../activities.ts';
import { holdKey } from '../domain.ts';
import { insertShipout, listShipouts, nextShipoutId, recordHold, setStatus, shipoutByKey, shipoutOf } from '../repo.ts';
import {
  CreateShipoutInput,
  EstimateAnswer,
  EstimateInput,
  ListShipoutsInput,
  ShipoutAnswer,
  ShipoutServiceView,
  ShipoutView,
} from '../views.ts';
import { balanceDue, presentShipout, storagePricesHidden } from './present.ts';
import { startShipoutProcess, tellProcess } from './process.ts';

const TAG = 'Ship-outs';
const CUSTOMER = ['customer'] as const;
const OWN =
  'For customer accounts only (any other role is FORBIDDEN); another customer’s ship-out, or an unknown id, is NOT_FOUND.';
const HIDDEN =
  'When the business hides storage services’ prices from the account, the price fields are left out and `price_hidden` is true.';
const PACKAGE_FAILURES = {
  PACKAGES_IN_SEVERAL_WAREHOUSES: 'A package is stored in another warehouse than the service’s',
  PACKAGE_NOT_AVAILABLE: 'A package is not yours, not stored yet, or reserved by another ship-out',
} as const;

/** The customer's active ship-out service of this code, or NOT_FOUND. */
async function serviceOr404(ctx: BusinessContext, code: string) {
  const service = await shipoutService(ctx.em, ctx.caller.businessId, code, { activeOnly: true });
  if (!service) throw errors.notFound();
  return service;
}

/**
 * The customer's packages of these ids, checked as a reservation checks them (not the caller's, not stored yet, or
 * reserved by another ship-out: PACKAGE_NOT_AVAILABLE; another warehouse: PACKAGES_IN_SEVERAL_WAREHOUSES), without
 * locking them: reservePackages checks again under the lock.
 */
async function packagesFor(ctx: BusinessContext, ids: readonly number[], warehouseId: number) {
  const unique = [...new Set(ids)];
  const rows = await packagesOf(ctx.em, { businessId: ctx.caller.businessId, customerId: ctx.caller.id, ids: unique });
  const found = new Set(rows.map((r) => r.id));
  const missing = unique.find((id) => !found.has(id));
  if (missing !== undefined)
    throw new AppError(422, 'PACKAGE_NOT_AVAILABLE', 'wms.package_not_yours', { params: { id: missing } });
  const elsewhere = rows.find((r) => r.warehouse_id !== warehouseId);
  if (elsewhere)
    throw new AppError(422, 'PACKAGES_IN_SEVERAL_WAREHOUSES', 'wms.package_other_warehouse', {
      params: { id: elsewhere.id },
    });
  const taken = rows.find((r) => r.state !== 'stored');
  if (taken)
    throw new AppError(
      422,
      'PACKAGE_NOT_AVAILABLE',
      `wms.package_${taken.state === 'reserved' ? 'reserved' : 'not_stored'}`,
      {
        params: { id: taken.id },
      },
    );
  return rows;
}

const priceOf = (pricing: Parameters<typeof priceShipment>[0], currency: string, rows: readonly StoredPackageRow[]) =>
  priceShipment(
    pricing,
    currency,
    rows.map((r) => ({ weight_grams: r.weight_grams })),
  );

export const listShipoutServices = defineOperation({
  name: 'list_shipout_services',
  summary: 'The ship-out services the business offers: which warehouse each leaves from and how it is priced.',
  description: `Active services only, each with its warehouse, \`pricing_method\` (1: priced at once by \`pricing\`; 2: priced later by the business, after you create the ship-out) and fulfilment kind. \`warehouse_id\` and \`pricing_method\` filter the list. ${HIDDEN.replace('the price fields are', '`pricing` is')} For customer accounts only.`,
  tag: TAG,
  roles: CUSTOMER,
  business: true,
  rest: { method: 'GET', path: '/v1/customer/shipout-orders/services' },
  graphql: { name: 'shipoutServices', kind: 'query' },
  mcp: { scope: 'storage:read', risk: 'low' },
  input: z
    .object({
      warehouse_id: pathId.optional().describe('Only services of this warehouse'),
      // A query parameter is text: its published values are "1" and "2", exactly as it is checked.
      pricing_method: z
        .enum(['1', '2'])
        .transform(Number)
        .optional()
        .describe('Only services priced this way: 1 at once, 2 later by the business'),
    })
    .strict(),
  output: z.object({ result: z.literal(true), services: z.array(ShipoutServiceView) }),
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    const rows = (await activeServices(ctx.em, businessId, 'shipout', input.warehouse_id)).filter(
      (s) => input.pricing_method === undefined || s.pricing_method === input.pricing_method,
    );
    const hidden = await storagePricesHidden(ctx.em, ctx.caller);
    const services = [];
    for (const s of rows) {
      const warehouse = await warehouseOf(ctx.em, businessId, s.warehouse_id);
      if (!warehouse) continue;
      services.push({
        ...presentShipoutService(s, { warehouse, hidden }),
        ...(hidden && { price_hidden: true as const }),
      });
    }
    return { result: true as const, services };
  },
});

export const estimateShipout = defineOperation({
  name: 'estimate_shipout',
  summary: 'What a ship-out of these stored packages would cost with this service, without creating it.',
  description: `The packages are checked as create checks them (yours, \`stored\` and not in another ship-out: PACKAGE_NOT_AVAILABLE; in the service’s warehouse: PACKAGES_IN_SEVERAL_WAREHOUSES), but nothing is reserved. The same package twice in \`package_ids\` is VALIDATION_FAILED. A method 1 service answers the price; a method 2 service is priced by the business after creation: \`priced_later\` is true and the price fields are null. An unknown or inactive service code is NOT_FOUND. ${HIDDEN} For customer accounts only.`,
  tag: TAG,
  roles: CUSTOMER,
  business: true,
  rest: { method: 'POST', path: '/v1/customer/shipout-orders/services/{service_code}/estimate' },
  graphql: { name: 'estimateShipout', kind: 'query' },
  mcp: { scope: 'storage:read', risk: 'low' },
  failures: { NOT_FOUND: 'No active ship-out service of this code', ...PACKAGE_FAILURES },
  input: EstimateInput,
  output: EstimateAnswer,
  async handler(input, ctx) {
    const service = await serviceOr404(ctx, input.service_code);
    const rows = await packagesFor(ctx, input.package_ids, service.warehouse_id);
    const hidden = await storagePricesHidden(ctx.em, ctx.caller);
    const head = {
      result: true as const,
      service_code: service.code,
      pricing_method: service.pricing_method,
      priced_later: service.pricing_method === 2,
      packages: rows.length,
    };
    if (hidden) return { ...head, price_hidden: true as const };
    if (service.pricing_method === 2 || !service.pricing)
      return { ...head, total: null, tax: null, price_details: null };
    const { currency } = await customerServiceSettings(ctx.em, ctx.caller.businessId);
    const p = priceOf(service.pricing, currency, rows);
    return { ...head, currency, total: p.total, tax: p.tax, price_details: p.price_details };
  },
});

/** Thrown inside the creating transaction when the idempotency key was taken meanwhile: it rolls back. */
class KeyTaken extends Error {}

/** An earlier creation of the same key: its ship-out, unless it was for another service or other packages. */
async function replay(ctx: BusinessContext, key: string, serviceCode: string, packageIds: readonly number[]) {
  const earlier = await shipoutByKey(ctx.em, ctx.caller.businessId, ctx.caller.id, key);
  if (!earlier) return null;
  const mine = await packagesOf(ctx.em, { businessId: ctx.caller.businessId, shipoutId: earlier.id });
  const same =
    earlier.service_code === serviceCode &&
    [...new Set(packageIds)].sort((a, b) => a - b).join() ===
      mine
        .map((p) => p.id)
        .sort((a, b) => a - b)
        .join();
  // A cancelled or expired ship-out released its packages: the key still names it.
  if (!same && isCancellable(earlier.status)) throw new AppError(409, 'IDEMPOTENCY_KEY_REUSED', 'shipouts.key_reused');
  if (earlier.service_code !== serviceCode) throw new AppError(409, 'IDEMPOTENCY_KEY_REUSED', 'shipouts.key_reused');
  return { result: true as const, shipout: await presentShipout(ctx, earlier) };
}

export const createShipout = defineOperation({
  name: 'create_shipout',
  summary: 'Send stored packages on from their warehouse: the ship-out reserves them and waits for payment.',
  description: `\`package_ids\` are your stored packages, all \`stored\` and all in the service’s warehouse (PACKAGES_IN_SEVERAL_WAREHOUSES when one is elsewhere; PACKAGE_NOT_AVAILABLE when one is not yours, not stored yet, or in another ship-out); they are reserved for it. A method 1 service prices it at once: it is \`pending_payment\` (paid at once when the price is 0) until paid with pay_shipout, or it expires after the business’s unpaid expiry and its packages are released. A method 2 service is \`awaiting_price\` until the business prices it. Then the warehouse picks, packs and hands it over (\`picked\`, \`packed\`, \`handed_over\`, with its outbound order). With \`idempotency_key\` a repeat answers the first ship-out (IDEMPOTENCY_KEY_REUSED when the key named another service or other packages). Answers 201. ${HIDDEN} For customer accounts only.`,
  tag: TAG,
  roles: CUSTOMER,
  business: true,
  rest: { method: 'POST', path: '/v1/customer/shipout-orders/services/{service_code}/orders', status: 201 },
  graphql: { name: 'createShipout', kind: 'mutation' },
  mcp: { scope: 'storage:write', risk: 'medium' },
  failures: {
    NOT_FOUND: 'No active ship-out service of this code',
    ...PACKAGE_FAILURES,
    IDEMPOTENCY_KEY_REUSED: 'The key created another ship-out (another service or other packages)',
  },
  input: CreateShipoutInput,
  output: ShipoutAnswer,
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    const key = input.idempotency_key ?? null;
    if (key) {
      const earlier = await replay(ctx, key, input.service_code, input.package_ids);
      if (earlier) return earlier;
    }
    const service = await serviceOr404(ctx, input.service_code);
    const rows = await packagesFor(ctx, input.package_ids, service.warehouse_id);
    const settings = await customerServiceSettings(ctx.em, businessId);
    const currency = settings.currency;
    const priced = service.pricing_method === 1 && service.pricing ? priceOf(service.pricing, currency, rows) : null;
    const status = priced === null ? 'awaiting_price' : priced.amount === 0n ? 'paid' : 'pending_payment';
    const expiryMs = settings.unpaid_expiry_seconds * 1000;
    const id = await nextShipoutId(ctx.em);
    try {
      await writeOnceStarted(
        ctx.em,
        startShipoutProcess(ctx, { shipoutId: id, businessId, status, unpaidExpiryMs: expiryMs }),
        async (tx) => {
          const written = await insertShipout(tx, {
            id,
            business_id: businessId,
            customer_id: ctx.caller.id,
            service_id: service.id,
            service_code: service.code,
            warehouse_id: service.warehouse_id,
            status,
            recipient: partyOf(input.recipient),
            reference: input.reference ?? null,
            pricing_method: service.pricing_method,
            currency,
            total: priced?.amount ?? null,
            tax: priced ? parseDecimal(priced.tax, minorDigits(currency))! : null,
            price_details: priced?.price_details ?? null,
            expires_at: status === 'pending_payment' ? new Date(Date.now() + expiryMs) : null,
            idempotency_key: key,
          });
          if (written === null) throw new KeyTaken();
          await reservePackages(tx, {
            businessId,
            customerId: ctx.caller.id,
            warehouseId: service.warehouse_id,
            shipoutId: id,
            packageIds: rows.map((r) => r.id),
          });
        },
        ctx.log,
        'ship-out',
      );
    } catch (err) {
      if (!(err instanceof KeyTaken)) throw err;
      const earlier = await replay(ctx, key!, input.service_code, input.package_ids);
      if (earlier) return earlier;
      throw err;
    }
    const row = await shipoutOf(ctx.em, businessId, id);
    return { result: true as const, shipout: await presentShipout(ctx, row!) };
  },
});

export const listShipoutsOp = defineOperation({
  name: 'list_shipouts',
  summary: 'Your ship-outs, newest first.',
  description: `Paged (\`page\`, \`per_page\` up to 200); \`status\` filters. ${HIDDEN} For customer accounts only.`,
  tag: TAG,
  roles: CUSTOMER,
  business: true,
  rest: { method: 'GET', path: '/v1/customer/shipout-orders' },
  graphql: { name: 'shipouts', kind: 'query' },
  mcp: { scope: 'storage:read', risk: 'low' },
  input: ListShipoutsInput,
  output: pageOutput('shipouts', ShipoutView),
  async handler(input, ctx) {
    const { total, rows } = await listShipouts(ctx.em, ctx.caller.businessId, ctx.caller.id, {
      status: input.status ?? null,
      limit: input.per_page,
      offset: offsetOf(input),
    });
    const items = [];
    for (const row of rows) items.push(await presentShipout(ctx, row));
    return pageOf(input, 'shipouts', total, items);
  },
});

export const getShipout = defineOperation({
  name: 'get_shipout',
  summary: 'One of your ship-outs: its status, packages, price, payment and outbound order.',
  description: `${OWN} ${HIDDEN}`,
  tag: TAG,
  roles: CUSTOMER,
  business: true,
  rest: { method: 'GET', path: '/v1/customer/shipout-orders/{id}' },
  graphql: { name: 'shipout', kind: 'query' },
  mcp: { scope: 'storage:read', risk: 'low' },
  failures: { NOT_FOUND: 'No such ship-out of yours' },
  input: z.object({ id: pathId }).strict(),
  output: ShipoutAnswer,
  async handler(input, ctx) {
    const row = await shipoutOf(ctx.em, ctx.caller.businessId, input.id, { customerId: ctx.caller.id });
    if (!row) throw errors.notFound();
    return { result: true as const, shipout: await presentShipout(ctx, row) };
  },
});

export const payShipout = defineOperation({
  name: 'pay_shipout',
  summary: 'Pay a priced ship-out from your wallet: the amount is held, and taken when the ship-out is handed over.',
  description: `Places a hold on your wallet (a pending transfer) of \`amount\` (a decimal string; the whole balance due when absent), or of what the wallet has available when that is less (INSUFFICIENT_FUNDS when it has nothing). The ship-out is \`paid\` once its holds cover the price; the money stays yours until the hand-over takes it, and a cancel gives it back at once. A ship-out awaiting its price is SHIPOUT_NOT_PRICED, one paid NOTHING_DUE, a cancelled or expired one SHIPOUT_WRONG_STATE; \`amount\` above the balance due is VALIDATION_FAILED. When the business hides storage services’ prices from your account, payment is settled offline: PRICE_HIDDEN_SETTLE_OFFLINE. ${OWN}`,
  tag: TAG,
  roles: CUSTOMER,
  business: true,
  rest: { method: 'POST', path: '/v1/customer/shipout-orders/{id}/pay' },
  graphql: { name: 'payShipout', kind: 'mutation' },
  mcp: { scope: 'storage:write', risk: 'high' },
  failures: {
    NOT_FOUND: 'No such ship-out of yours',
    PRICE_HIDDEN_SETTLE_OFFLINE: true,
    SHIPOUT_NOT_PRICED: true,
    NOTHING_DUE: 'The ship-out is paid',
    SHIPOUT_WRONG_STATE: 'The ship-out is cancelled or expired',
    INSUFFICIENT_FUNDS: 'The wallet has nothing available',
  },
  input: z
    .object({
      id: pathId,
      amount: z
        .string()
        .regex(/^\d{1,12}(\.\d{1,4})?$/, 'a decimal string')
        .optional()
        .describe('What to hold now; the whole balance due when absent'),
    })
    .strict(),
  output: ShipoutAnswer,
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    const hidden = await storagePricesHidden(ctx.em, ctx.caller);
    const paid = await ctx.em.transactional(async (tx) => {
      const row = await shipoutOf(tx, businessId, input.id, { customerId: ctx.caller.id, lock: true });
      if (!row) throw errors.notFound();
      if (hidden) throw failPayment('PRICE_HIDDEN_SETTLE_OFFLINE', 'shipouts.price_hidden');
      if (row.status === 'awaiting_price') throw fail('SHIPOUT_NOT_PRICED', 'shipouts.not_priced');
      if (row.status === 'cancelled' || row.status === 'expired')
        throw fail('SHIPOUT_WRONG_STATE', 'shipouts.wrong_state', { status: row.status });
      const due = balanceDue(row) ?? 0n;
      if (row.status !== 'pending_payment' || due === 0n) throw failPayment('NOTHING_DUE', 'shipouts.nothing_due');
      const digits = minorDigits(row.currency);
      let amount = due;
      if (input.amount !== undefined) {
        const asked = parseDecimal(input.amount, digits);
        if (asked === null || asked === 0n) throw errors.field('amount', 'shipouts.bad_amount', { digits });
        if (asked > due) throw errors.field('amount', 'shipouts.amount_too_large', { due: formatDecimal(due, digits) });
        amount = asked;
      }
      const hold = await payFromWallet(
        tx,
        {
          businessId,
          customerId: row.customer_id,
          key: holdKey(row.id, row.payments),
          currency: row.currency,
          amount,
          reference: { type: 'shipout', id: row.id },
        },
        { hold: true },
      );
      const covered = row.held_amount + hold.amount >= row.total!;
      await recordHold(tx, row.id, hold.amount, covered);
      return covered;
    });
    if (paid) await tellProcess(ctx, input.id, 'paid');
    const row = await shipoutOf(ctx.em, businessId, input.id);
    return { result: true as const, shipout: await presentShipout(ctx, row!) };
  },
});

export const cancelShipout = defineOperation({
  name: 'cancel_shipout',
  summary: 'Cancel a ship-out before it is picked: its holds are voided and its packages go back on the shelf.',
  description: `Allowed while \`awaiting_price\`, \`pending_payment\` or \`paid\`; once picked (or cancelled, expired, handed over) it is SHIPOUT_WRONG_STATE with nothing changed. Every hold is voided (the money is available again at once; nothing was taken), and the packages are \`stored\` again. ${OWN}`,
  tag: TAG,
  roles: CUSTOMER,
  business: true,
  rest: { method: 'POST', path: '/v1/customer/shipout-orders/{id}/cancel' },
  graphql: { name: 'cancelShipout', kind: 'mutation' },
  mcp: { scope: 'storage:write', risk: 'high' },
  failures: { NOT_FOUND: 'No such ship-out of yours', SHIPOUT_WRONG_STATE: 'The ship-out is picked or ended' },
  input: z.object({ id: pathId }).strict(),
  output: ShipoutAnswer,
  async handler(input, ctx) {
    const businessId = ctx.caller.businessId;
    await ctx.em.transactional(async (tx) => {
      const row = await shipoutOf(tx, businessId, input.id, { customerId: ctx.caller.id, lock: true });
      if (!row) throw errors.notFound();
      if (!isCancellable(row.status)) throw fail('SHIPOUT_WRONG_STATE', 'shipouts.wrong_state', { status: row.status });
      await unwind(tx, row);
      await setStatus(tx, row.id, 'cancelled');
    });
    await tellProcess(ctx, input.id, 'cancelled');
    const row = await shipoutOf(ctx.em, businessId, input.id);
    return { result: true as const, shipout: await presentShipout(ctx, row!) };
  },
});

export const CUSTOMER_OPERATIONS = [
  listShipoutServices,
  estimateShipout,
  createShipout,
  listShipoutsOp,
  getShipout,
  payShipout,
  cancelShipout,
];
