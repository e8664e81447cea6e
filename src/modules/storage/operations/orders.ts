/**
 * Customers' storage orders (docs/customer-services.md, "Storage orders"): the services offered, a quote, creating,
 * reading, paying and cancelling an order; and the staff's offline settlement. A customer reaches its own orders
 * only: another customer's or business's order is NOT_FOUND.
 */
import { tellAfterCommit } from '../../../platform/temporal/tell.ts';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { pageOf, pageOutput, offsetOf, pathId } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext } from '../../../platform/catalog/types.ts';
import { AppError, errors } from '../../../platform/errors.ts';
import { writeOnceStarted } from '../../../platform/temporal/startWithRows.ts';
import { NO_DUPLICATES } from '../../../platform/temporal/startOptions.ts';
import {
  activeServices,
  customerServiceSettings,
  presentStorageService,
  priceStorage,
  priceStoragePeriods,
  storageService,
  type StorageServiceRow,
} from '../../customer-services/index.ts';
import { minorDigits, parseDecimal } from '../../delivery-prices/index.ts';
import { declarePackages, openForReceiving, warehouseOf, type WarehouseRow } from '../../wms/index.ts';
import {
  cancelledSignal,
  paidSignal,
  STORAGE_ORDER_WORKFLOW,
  STORAGE_QUEUE,
  storageOrderWorkflowId,
} from '../contract.ts';
import { MAX_PACKAGES } from '../domain.ts';

import { cancelOrder, payOrder, settleOffline } from '../orderSteps.ts';
import { customerOrders, insertOrder, nextOrderId, orderByKey, orderOf, type StorageOrderRow } from '../repo/orders.ts';
import type { storageOrder } from '../workflows.ts';
import {
  PayInput,
  StorageConfigAnswer,
  StorageOrderAnswer,
  StorageOrderInput,
  StorageOrderListInput,
  StorageOrderView,
  StorageQuoteAnswer,
  StorageQuoteInput,
} from '../views.ts';
import { orderAnswer, readOrder, storagePricesHidden } from './read.ts';

const TAG = 'Storage';
const CUSTOMER = ['customer'] as const;
const OWN =
  'For customer accounts only (staff get 403 FORBIDDEN). A customer reaches its own orders: another customer’s, another business’s or an unknown id is NOT_FOUND.';
const HIDDEN =
  'When the business hides its storage prices from the customer, every price field is left out and `price_hidden` is true.';

/** The active service of this code with its warehouse open for new orders, or 422 on `service_code`. */
async function orderableService(
  ctx: BusinessContext,
  code: string,
): Promise<{ service: StorageServiceRow; warehouse: WarehouseRow }> {
  const service = await storageService(ctx.em, ctx.caller.businessId, code, { activeOnly: true });
  if (!service) throw errors.field('service_code', 'storage.unknown_service');
  const warehouse = await warehouseOf(ctx.em, ctx.caller.businessId, service.warehouse_id);
  if (!warehouse?.active) throw errors.field('service_code', 'storage.warehouse_closed');
  return { service, warehouse };
}

/** The order's price in minor units, and its storage terms: what one package-period costs before and with tax. */
function termsOf(service: StorageServiceRow, currency: string, packages: number) {
  const price = priceStorage(service, currency, packages);
  const period = priceStoragePeriods(service, currency, 1);
  const digits = minorDigits(currency);
  const minor = (text: string) => parseDecimal(text, digits) ?? 0n;
  const periodTax = minor(period.tax);
  return { price, tax: minor(price.tax), periodPrice: period.amount - periodTax, periodTax };
}

export const getStorageOrderConfig = defineOperation({
  name: 'get_storage_order_config',
  summary: 'The storage services you may order, each with its warehouse and storage terms.',
  description: `The business's active storage services whose warehouse takes orders, each with its warehouse (address to send the packages to), its period (a storage day, or a month of 30), its price per package and period, its handling fee per package and tax rate; with the limits of an order and how long an unpaid order waits. ${HIDDEN} ${OWN}`,
  tag: TAG,
  roles: CUSTOMER,
  business: true,
  rest: { method: 'GET', path: '/v1/customer/storage-orders/config' },
  graphql: { name: 'storageOrderConfig', kind: 'query' },
  mcp: { scope: 'storage:read', risk: 'low' },
  input: z.object({}).strict(),
  output: StorageConfigAnswer,
  async handler(_input, ctx) {
    const businessId = ctx.caller.businessId;
    const hidden = await storagePricesHidden(ctx);
    const settings = await customerServiceSettings(ctx.em, businessId);
    const services = [];
    for (const s of await activeServices(ctx.em, businessId, 'storage')) {
      const warehouse = await warehouseOf(ctx.em, businessId, s.warehouse_id);
      if (warehouse?.active) services.push(presentStorageService(s, { hidden, warehouse }));
    }
    return {
      result: true as const,
      ...(hidden ? {} : { currency: settings.currency }),
      services,
      max_packages: MAX_PACKAGES,
      unpaid_expiry_seconds: settings.unpaid_expiry_seconds,
      storage_day_seconds: settings.storage_day_seconds,
      price_hidden: hidden,
    };
  },
});

export const quoteStorageOrder = defineOperation({
  name: 'quote_storage_order',
  summary: 'The price of a storage order: the handling fee per package plus tax, and the storage terms.',
  description: `What create_storage_order would charge now for these packages: the service's handling fee per package plus tax (total, tax, price_details), with price_per_period and period, which the storage fee run charges later for each package and period started once it is received. An unknown or inactive service_code is VALIDATION_FAILED on it. ${HIDDEN} ${OWN}`,
  tag: TAG,
  roles: CUSTOMER,
  business: true,
  rest: { method: 'POST', path: '/v1/customer/storage-orders/calculate-price' },
  graphql: { name: 'quoteStorageOrder', kind: 'query' },
  mcp: { scope: 'storage:read', risk: 'low' },
  input: StorageQuoteInput,
  output: StorageQuoteAnswer,
  async handler(input, ctx) {
    const { service } = await orderableService(ctx, input.service_code);
    const hidden = await storagePricesHidden(ctx);
    const settings = await customerServiceSettings(ctx.em, ctx.caller.businessId);
    const { price } = termsOf(service, settings.currency, input.packages.length);
    const { amount: _amount, ...answer } = price;
    return {
      result: true as const,
      service_code: service.code,
      packages: input.packages.length,
      ...(hidden
        ? {}
        : {
            ...answer,
            price_per_period: service.price_per_period,
            handling_fee: service.handling_fee,
            tax_rate: service.tax_rate,
          }),
      period: service.period,
      price_hidden: hidden,
    };
  },
});

/** Raised inside the creation's transaction when a concurrent creation took the idempotency key first. */
class KeyTaken extends Error {}

/** What a creation asks for, as a hash (the key left out): a repeat of the key must ask the same. */
/** The packages as declared, every field present (null when not given): as stored and as hashed. */
const declared = (input: z.output<typeof StorageOrderInput>) =>
  input.packages.map((p) => ({
    reference: p.reference ?? null,
    description: p.description ?? null,
    weight_grams: p.weight_grams ?? null,
    length_mm: p.length_mm ?? null,
    width_mm: p.width_mm ?? null,
    height_mm: p.height_mm ?? null,
  }));

function requestHashOf(input: z.output<typeof StorageOrderInput>): string {
  const body = {
    service_code: input.service_code,
    packages: declared(input),
    reference: input.reference ?? null,
    expected_arrival: input.expected_arrival ?? null,
  };
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

export const createStorageOrder = defineOperation({
  name: 'create_storage_order',
  summary: 'Order storage: declare 1 to 100 packages for a storage service’s warehouse.',
  description: `Creates the order and its packages (each \`expected\`, with a tracking number SP + 10 digits to print on it and the warehouse scans). The price is the handling fee per package plus tax; the order waits in pending_payment for pay_storage_order until expires_at (the business's unpaid expiry), then expires and its packages are released. A price of 0 is confirmed at once. Storage time is charged later, per package and period started from its receipt, at this order's price_per_period. With idempotency_key a repeat of the same body creates nothing and answers the first order; the key with another body (service, packages, reference or expected_arrival) is IDEMPOTENCY_KEY_REUSED (409), nothing created. An unknown or inactive service_code is VALIDATION_FAILED on it. ${HIDDEN} ${OWN}`,
  tag: TAG,
  roles: CUSTOMER,
  business: true,
  rest: { method: 'POST', path: '/v1/customer/storage-orders', status: 201 },
  graphql: { name: 'createStorageOrder', kind: 'mutation' },
  mcp: { scope: 'storage:write', risk: 'medium' },
  failures: {
    IDEMPOTENCY_KEY_REUSED: 'The key created another order (another service, packages, reference or arrival)',
  },
  input: StorageOrderInput,
  output: StorageOrderAnswer,
  async handler(input, ctx) {
    const { businessId, id: customerId } = ctx.caller;
    const hidden = await storagePricesHidden(ctx);
    const requestHash = requestHashOf(input);
    /** The order as answered; one the key created for another body is IDEMPOTENCY_KEY_REUSED. */
    const answer = async (row: StorageOrderRow) => {
      if (row.idempotency_key !== null && row.request_hash !== null && row.request_hash !== requestHash)
        throw new AppError(409, 'IDEMPOTENCY_KEY_REUSED', 'storage.key_reused');
      return { result: true as const, storage_order: await orderAnswer(ctx.em, row, hidden) };
    };
    const key = input.idempotency_key ?? null;
    if (key) {
      const earlier = await orderByKey(ctx.em, businessId, customerId, key);
      if (earlier) return answer(earlier);
    }
    const { service, warehouse } = await orderableService(ctx, input.service_code);
    const settings = await customerServiceSettings(ctx.em, businessId);
    const terms = termsOf(service, settings.currency, input.packages.length);
    const id = await nextOrderId(ctx.em);
    const free = terms.price.amount === 0n;
    const expiresAt = free ? null : new Date(Date.now() + settings.unpaid_expiry_seconds * 1000);
    const workflowId = free ? null : storageOrderWorkflowId(id);
    const write = async (tx: typeof ctx.em) => {
      const row = await insertOrder(tx, {
        id,
        business_id: businessId,
        customer_id: customerId,
        service_id: service.id,
        service_code: service.code,
        warehouse_id: warehouse.id,
        status: free ? 'confirmed' : 'pending_payment',
        reference: input.reference ?? null,
        expected_arrival: input.expected_arrival ?? null,
        currency: settings.currency,
        total: terms.price.amount,
        tax: terms.tax,
        price_details: terms.price.price_details,
        period: service.period,
        period_price: terms.periodPrice,
        period_tax: terms.periodTax,
        storage_day_seconds: settings.storage_day_seconds,
        expires_at: expiresAt,
        workflow_id: workflowId,
        idempotency_key: key,
        request_hash: key === null ? null : requestHash,
      });
      if (!row) throw new KeyTaken();
      await declarePackages(tx, {
        businessId,
        customerId,
        warehouseId: warehouse.id,
        storageOrderId: id,
        packages: declared(input),
      });
      if (free) await openForReceiving(tx, { businessId, storageOrderId: id });
      return row;
    };
    try {
      const row =
        workflowId === null
          ? await ctx.em.transactional(write)
          : await writeOnceStarted(
              ctx.em,
              ctx.temporal.workflow.start<typeof storageOrder>(STORAGE_ORDER_WORKFLOW, {
                workflowId,
                taskQueue: STORAGE_QUEUE,
                args: [{ storage_order_id: id, expires_at: expiresAt!.toISOString() }],
                ...NO_DUPLICATES,
              }),
              write,
              ctx.log,
              'storage order',
            );
      return answer(row);
    } catch (err) {
      if (!(err instanceof KeyTaken)) throw err;
      return answer((await orderByKey(ctx.em, businessId, customerId, key!))!);
    }
  },
});

export const listStorageOrders = defineOperation({
  name: 'list_storage_orders',
  summary: 'Your storage orders, newest first, with their packages.',
  description: `A page of the caller's storage orders, newest first; \`status\` filters by the stored state (pending_payment, confirmed, cancelled, expired: a confirmed order reads receiving, stored or closed by its packages). ${HIDDEN} ${OWN}`,
  tag: TAG,
  roles: CUSTOMER,
  business: true,
  rest: { method: 'GET', path: '/v1/customer/storage-orders' },
  graphql: { name: 'storageOrders', kind: 'query' },
  mcp: { scope: 'storage:read', risk: 'low' },
  input: StorageOrderListInput,
  output: pageOutput('orders', StorageOrderView),
  async handler(input, ctx) {
    const hidden = await storagePricesHidden(ctx);
    const { total, rows } = await customerOrders(ctx.em, ctx.caller.businessId, ctx.caller.id, {
      status: input.status,
      limit: input.per_page,
      offset: offsetOf(input),
    });
    const orders = [];
    for (const row of rows) orders.push(await orderAnswer(ctx.em, row, hidden));
    return pageOf(input, 'orders', total, orders);
  },
});

export const getStorageOrder = defineOperation({
  name: 'get_storage_order',
  summary: 'One of your storage orders: its status, packages (received or not, where), price and payments.',
  description: `The order with its packages (each with its tracking number, state, received and received_at, location), its status (pending_payment, confirmed, receiving, stored, closed, cancelled, expired), what is paid and due, can_edit and can_cancel. ${HIDDEN} ${OWN}`,
  tag: TAG,
  roles: CUSTOMER,
  business: true,
  rest: { method: 'GET', path: '/v1/customer/storage-orders/{id}' },
  graphql: { name: 'storageOrder', kind: 'query' },
  mcp: { scope: 'storage:read', risk: 'low' },
  failures: { NOT_FOUND: 'No such storage order of yours' },
  input: z.object({ id: pathId }).strict(),
  output: StorageOrderAnswer,
  async handler(input, ctx) {
    return readOrder(ctx, input.id);
  },
});

/** Tells the order's process it need not expire anything; if this is lost, the expiry finds the order settled. */
async function tellProcess(ctx: BusinessContext, id: number, signal: typeof paidSignal | typeof cancelledSignal) {
  const row = await orderOf(ctx.em, ctx.caller.businessId, id);
  if (!row?.workflow_id) return;
  await tellAfterCommit(
    () => ctx.temporal.workflow.getHandle(row.workflow_id!).signal(signal),
    ctx.log,
    { storageOrderId: id },
    'storage order process not signalled',
  );
}

export const payStorageOrder = defineOperation({
  name: 'pay_storage_order',
  summary: 'Pay a storage order from your wallet: the balance due, or `amount` of it.',
  description: `Pays from the wallet as a balancing transfer: what the wallet has, up to \`amount\` (at most the balance due; the whole balance when absent). INSUFFICIENT_FUNDS when the wallet has nothing; NOTHING_DUE once the order is paid, cancelled or expired. Once nothing is due the order is confirmed and the warehouse receives its packages. Whatever is retried, the payments together never move more than was due. PRICE_HIDDEN_SETTLE_OFFLINE (403) when the business hides its storage prices from you: it records the payment itself. An unknown id, or another customer’s, is NOT_FOUND before that. ${OWN}`,
  tag: TAG,
  roles: CUSTOMER,
  business: true,
  rest: { method: 'POST', path: '/v1/customer/storage-orders/{id}/pay' },
  graphql: { name: 'payStorageOrder', kind: 'mutation' },
  mcp: { scope: 'storage:write', risk: 'high' },
  failures: {
    NOT_FOUND: 'No such storage order of yours',
    INSUFFICIENT_FUNDS: 'The wallet has nothing available',
    NOTHING_DUE: true,
    PRICE_HIDDEN_SETTLE_OFFLINE: true,
  },
  input: PayInput,
  output: StorageOrderAnswer,
  async handler(input, ctx) {
    const pricesHidden = await storagePricesHidden(ctx);
    const { confirmed } = await ctx.em.transactional((tx) =>
      payOrder(tx, {
        businessId: ctx.caller.businessId,
        customerId: ctx.caller.id,
        id: input.id,
        amount: input.amount,
        pricesHidden,
      }),
    );
    if (confirmed) await tellProcess(ctx, input.id, paidSignal);
    return readOrder(ctx, input.id);
  },
});

export const cancelStorageOrder = defineOperation({
  name: 'cancel_storage_order',
  summary: 'Cancel a storage order before the warehouse received any of its packages: what was paid is refunded.',
  description: `A pending_payment or confirmed order with no package received is cancelled: everything the wallet paid goes back to it (once, whatever is retried) and its packages are released (the warehouse will not take them). STORAGE_ORDER_NOT_CANCELLABLE otherwise (cancelled or expired already, or a package received), with nothing changed. ${OWN}`,
  tag: TAG,
  roles: CUSTOMER,
  business: true,
  rest: { method: 'POST', path: '/v1/customer/storage-orders/{id}/cancel' },
  graphql: { name: 'cancelStorageOrder', kind: 'mutation' },
  mcp: { scope: 'storage:write', risk: 'high' },
  failures: { NOT_FOUND: 'No such storage order of yours', STORAGE_ORDER_NOT_CANCELLABLE: true },
  input: z.object({ id: pathId }).strict(),
  output: StorageOrderAnswer,
  async handler(input, ctx) {
    await ctx.em.transactional((tx) => cancelOrder(tx, ctx.caller.businessId, ctx.caller.id, input.id));
    await tellProcess(ctx, input.id, cancelledSignal);
    return readOrder(ctx, input.id);
  },
});

export const settleStorageOrderOffline = defineOperation({
  name: 'settle_storage_order_offline',
  summary: 'Record that a customer paid the rest of a storage order outside the wallet: the order is confirmed.',
  description:
    'For a client admin, for an order of the business in pending_payment (typically a customer whose storage prices are hidden, who cannot pay online): the balance due is recorded as settled offline (`settled_offline` true, the amount in `offline_amount`), nothing moves in the wallet, and the order is confirmed so the warehouse receives its packages. NOTHING_DUE once it is paid, cancelled or expired; NOT_FOUND for an order of another business.',
  tag: TAG,
  roles: ['client_admin'],
  business: true,
  rest: { method: 'POST', path: '/v1/client/storage-orders/{id}/settle-offline' },
  graphql: { name: 'settleStorageOrderOffline', kind: 'mutation' },
  failures: { NOT_FOUND: 'No such storage order in the business', NOTHING_DUE: true },
  input: z.object({ id: pathId }).strict(),
  output: StorageOrderAnswer,
  async handler(input, ctx) {
    await ctx.em.transactional((tx) => settleOffline(tx, ctx.caller.businessId, input.id));
    await tellProcess(ctx, input.id, paidSignal);
    return readOrder(ctx, input.id);
  },
});

export const STORAGE_ORDER_OPERATIONS = [
  getStorageOrderConfig,
  quoteStorageOrder,
  createStorageOrder,
  listStorageOrders,
  getStorageOrder,
  payStorageOrder,
  cancelStorageOrder,
  settleStorageOrderOffline,
];
