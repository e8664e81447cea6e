/**
 * Customer services (docs/customer-services.md), through the public API only, as the business's admin, an employee
 * at the warehouse and one customer account:
 * - customer-journey: the admin sets up a warehouse and three services and tops up the customer's wallet; the
 *   customer pays a shipping order (its delivery order is placed), stores two parcels that the employee receives,
 *   is charged storage over compressed days, ships both parcels out (held, then taken at the hand-over), and cancels a
 *   second shipping order for a refund; the wallet's statement ends it.
 * - price-hiding: the customer pays one shipping order from its wallet, then the admin hides the shipping and storage
 *   families from the customer, who walks every read of both families, the reads of the delivery orders they placed
 *   and its wallet, and tries to pay: any price field in an answer (in the wallet: an amount of an entry that pays a
 *   hidden family's order), or a payment not refused, fails the scenario.
 */
import { ScenarioError } from '../api.ts';
import type { World } from '../world.ts';

const ADDRESS = { line1: '1 Skladová', city: 'Praha', postal_code: '19000', country: 'CZ' };
const PRICING = { base_fee: '4.90', per_package: '1.00', per_kg: '0.50', included_weight_kg: '2', tax_rate: '21' };
/** A storage day of the run: short, so days pass while it plays. */
const STORAGE_DAY_SECONDS = 2;

const recipient = (w: World) => ({
  name: `Ada ${w.run}`,
  email: w.recipient,
  address: { line1: '9 Vinohradská', city: 'Praha', postal_code: '12000', country: 'CZ' },
});

interface Setup {
  admin: string;
  customer: string;
  customerId: number;
  warehouseId: number;
  codes: { shipping: string; storage: string; shipout: string };
}

/**
 * A warehouse and one service of each kind for the run (switched off when it ends), a storage day of two seconds
 * (the settings put back when it ends).
 */
async function setUp(w: World): Promise<Setup> {
  const admin = await w.token('admin');
  const customer = await w.token('customer');
  const me = (await w.api.call('GET', '/v1/user/me', { token: customer })).body as { id: number };
  const before = (await w.api.call('GET', '/v1/client/customer-services/settings', { token: admin })).body.settings;
  await w.api.call('PUT', '/v1/client/customer-services/settings', {
    token: admin,
    body: { storage_day_seconds: STORAGE_DAY_SECONDS },
  });
  w.defer(() =>
    w.api.call('PUT', '/v1/client/customer-services/settings', {
      token: admin,
      body: { storage_day_seconds: before.storage_day_seconds },
    }),
  );
  const warehouse = await w.api.call('POST', '/v1/wms/warehouses', {
    token: admin,
    expect: 201,
    body: { code: `SCN-${w.run}`, name: `Scenario warehouse ${w.run}`, address: ADDRESS, timezone: 'Europe/Prague' },
  });
  const warehouseId = warehouse.body.warehouse.id as number;
  w.journal.step(`warehouse SCN-${w.run} (${before.currency})`);
  const codes = { shipping: `SHIP-${w.run}`, storage: `STORE-${w.run}`, shipout: `OUT-${w.run}` };
  const services: [string, Record<string, unknown>][] = [
    [
      'shipping-services',
      {
        code: codes.shipping,
        name: 'Same-day by our fleet',
        pricing: PRICING,
        fulfilment: { kind: 'own_fleet' },
        max_packages: 5,
      },
    ],
    [
      'storage-services',
      {
        code: codes.storage,
        name: 'Daily storage',
        warehouse_id: warehouseId,
        period: 'day',
        price_per_period: '0.40',
        handling_fee: '1.50',
        tax_rate: '21',
      },
    ],
    [
      'shipout-services',
      {
        code: codes.shipout,
        name: 'Ship out by our fleet',
        warehouse_id: warehouseId,
        pricing_method: 1,
        pricing: PRICING,
        fulfilment: { kind: 'own_fleet' },
      },
    ],
  ];
  for (const [kind, body] of services) {
    const made = await w.api.call('POST', `/v1/client/customer-services/${kind}`, { token: admin, expect: 201, body });
    const id = made.body.service.id as number;
    w.defer(() =>
      w.api.call('PUT', `/v1/client/customer-services/${kind}/${id}`, { token: admin, body: { active: false } }),
    );
  }
  w.journal.step(`services ${codes.shipping}, ${codes.storage}, ${codes.shipout}`);
  return { admin, customer, customerId: me.id, warehouseId, codes };
}

async function credits(w: World, token: string): Promise<{ balance: string; available: string; held: string }> {
  const c = (await w.api.call('GET', '/v1/customer/credits', { token })).body;
  w.journal.step(
    `wallet: balance ${c.balance}, available ${c.available}, held ${c.held}, owed ${c.owed} ${c.currency}`,
  );
  return c;
}

async function topUp(w: World, s: Setup, amount: string): Promise<void> {
  await w.api.call('POST', `/v1/client/customers/${s.customerId}/wallet/credits`, {
    token: s.admin,
    body: { amount, idempotency_key: `scn-${w.run}-${amount}`, memo: `scenario ${w.run}` },
  });
  w.journal.step(`admin tops up the wallet by ${amount}`);
}

/** A paid shipping order of two parcels: its delivery order placed by its process. */
async function paidShippingOrder(w: World, s: Setup, reference: string) {
  const base = `/v1/customer/shipping-orders`;
  const body = {
    recipient: recipient(w),
    packages: [{ weight_grams: 1500, description: 'Books' }, { weight_grams: 900 }],
    reference,
  };
  const estimate = await w.api.call('POST', `${base}/services/${s.codes.shipping}/estimate-price`, {
    token: s.customer,
    body,
  });
  w.journal.step(`estimate ${s.codes.shipping}: ${estimate.body.total} ${estimate.body.currency}`);
  const created = await w.api.call('POST', `${base}/services/${s.codes.shipping}/orders`, {
    token: s.customer,
    expect: 201,
    body: { ...body, idempotency_key: `scn-${w.run}-${reference}` },
  });
  const id = created.body.shipping_order.id as number;
  w.journal.workflow(created.body.shipping_order.workflow_id, 'shipping order');
  const paid = await w.api.call('POST', `${base}/${id}/pay`, { token: s.customer, body: {} });
  w.journal.step(`shipping order ${id} paid: ${paid.body.shipping_order.status}`);
  const placed = await w.until(`the delivery order of shipping order ${id}`, async () => {
    const o = (await w.api.call('GET', `${base}/${id}`, { token: s.customer })).body.shipping_order;
    return o.order ? o : null;
  });
  w.journal.step(`its delivery order ${placed.order.tracking_number} is ${placed.order.status_name}`);
  return id;
}

export async function customerJourney(w: World): Promise<void> {
  const s = await setUp(w);
  const employee = await w.token('employee');
  await topUp(w, s, '100.00');
  const start = await credits(w, s.customer);

  await paidShippingOrder(w, s, `SCN-${w.run}-1`);

  const store = await w.api.call('POST', '/v1/customer/storage-orders', {
    token: s.customer,
    expect: 201,
    body: {
      service_code: s.codes.storage,
      packages: [
        { reference: 'winter clothes', weight_grams: 4000 },
        { reference: 'skis', weight_grams: 7000 },
      ],
      idempotency_key: `scn-${w.run}-store`,
    },
  });
  const storageId = store.body.storage_order.id as number;
  if (store.body.storage_order.workflow_id) w.journal.workflow(store.body.storage_order.workflow_id, 'storage order');
  await w.api.call('POST', `/v1/customer/storage-orders/${storageId}/pay`, { token: s.customer, body: {} });
  const order = (await w.api.call('GET', `/v1/customer/storage-orders/${storageId}`, { token: s.customer })).body
    .storage_order;
  w.journal.step(`storage order ${storageId}: ${order.status}, ${order.packages.length} parcels expected`);
  for (const p of order.packages as { tracking_number: string }[]) {
    const got = await w.api.call('POST', '/v1/wms/receiving', {
      token: employee,
      body: { warehouse_id: s.warehouseId, tracking_number: p.tracking_number, location: 'A-01' },
    });
    w.journal.step(`employee receives ${p.tracking_number}: ${got.body.package.state}`);
  }
  const received = (await w.api.call('GET', `/v1/customer/storage-orders/${storageId}`, { token: s.customer })).body
    .storage_order;
  if (!received.packages.every((p: { received: boolean }) => p.received))
    throw new ScenarioError(`storage order ${storageId}: not every parcel reads received`);
  w.journal.step(`storage order ${storageId}: ${received.status}`);

  // Three storage days pass; the admin charges them now rather than at the hourly run.
  await new Promise((r) => setTimeout(r, 3 * STORAGE_DAY_SECONDS * 1000));
  const run = await w.api.call('POST', '/v1/client/storage-fees/run', { token: s.admin, body: {} });
  w.journal.workflow(run.body.workflow_id, 'storage fee run');
  const done = await w.until('the storage fee run', async () => {
    const r = (await w.api.call('GET', '/v1/client/storage-fees/run', { token: s.admin })).body;
    return r.run_id === run.body.run_id && r.status !== 'running' ? r : null;
  });
  if (done.status !== 'completed') throw new ScenarioError(`the storage fee run ended ${done.status}`);
  const stored = (await w.api.call('GET', '/v1/customer/stored-packages', { token: s.customer })).body.packages as {
    id: number;
    tracking_number: string;
    periods_charged: number;
    fees_charged: string;
  }[];
  const ours = stored.filter((p) => received.packages.some((q: { id: number }) => q.id === p.id));
  for (const p of ours)
    w.journal.step(`${p.tracking_number}: ${p.periods_charged} storage days charged, ${p.fees_charged}`);
  if (ours.some((p) => p.periods_charged < 1)) throw new ScenarioError('a stored parcel was charged no storage');

  const out = await w.api.call('POST', `/v1/customer/shipout-orders/services/${s.codes.shipout}/orders`, {
    token: s.customer,
    expect: 201,
    // Both parcels go: nothing of the run stays stored, charged by the run's short storage day ever after.
    body: { package_ids: ours.map((p) => p.id), recipient: recipient(w), idempotency_key: `scn-${w.run}-out` },
  });
  const shipoutId = out.body.shipout.id as number;
  w.journal.workflow(out.body.shipout.workflow_id, 'ship-out');
  await w.api.call('POST', `/v1/customer/shipout-orders/${shipoutId}/pay`, { token: s.customer, body: {} });
  w.journal.step(`ship-out ${shipoutId} paid: the money is held until the hand-over`);
  await credits(w, s.customer);
  for (const step of ['pick', 'pack', 'hand-over']) {
    const res = await w.api.call('POST', `/v1/client/shipouts/${shipoutId}/${step}`, { token: employee, body: {} });
    w.journal.step(`employee: ${step} -> ${res.body.shipout.status}`);
  }
  const handed = (await w.api.call('GET', `/v1/customer/shipout-orders/${shipoutId}`, { token: s.customer })).body
    .shipout;
  if (!handed.order) throw new ScenarioError(`ship-out ${shipoutId} was handed over without its delivery order`);
  w.journal.step(`ship-out ${shipoutId}: delivery order ${handed.order.tracking_number}`);

  const second = await paidShippingOrder(w, s, `SCN-${w.run}-2`);
  const before = await credits(w, s.customer);
  await w.api.call('POST', `/v1/customer/shipping-orders/${second}/cancel`, { token: s.customer, body: {} });
  const after = await credits(w, s.customer);
  if (Number(after.balance) <= Number(before.balance))
    throw new ScenarioError(`cancelling shipping order ${second} refunded nothing`);
  w.journal.step(`shipping order ${second} cancelled: refunded to the wallet`);
  const statement = (await w.api.call('GET', '/v1/customer/credits?entries_limit=20', { token: s.customer })).body
    .entries as { code: string; amount: string }[];
  w.journal.step(`statement: ${statement.map((e) => `${e.code} ${e.amount}`).join(', ')}`);
  if (Number(after.balance) >= Number(start.balance)) throw new ScenarioError('the journey cost the wallet nothing');
}

/** Every key an answer about a hidden family must leave out, at any depth (the tests' price hiding checks use it too). */
export const PRICE_KEYS = new Set([
  'shipping_price',
  'price_details',
  'currency',
  'tax',
  'total',
  'paid_amount',
  'balance_due',
  'handling_fee',
  'price_per_period',
  'pricing',
  'fees_charged',
  'fees_owed',
  'held_amount',
  'total_charge',
  'unit_amount',
  'amount',
]);

/** Where `value` holds a key of PRICE_KEYS with a price under it, as paths such as `$.orders[0].total`. */
export function priceKeysIn(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => priceKeysIn(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    // A price is a decimal string (or its lines); a number under such a name is a count (a page's `total`).
    ...(PRICE_KEYS.has(k) && typeof v !== 'number' ? [`${path}.${k}`] : []),
    ...priceKeysIn(v, `${path}.${k}`),
  ]);
}

export async function priceHiding(w: World): Promise<void> {
  const s = await setUp(w);
  const employee = await w.token('employee');
  // Paid from the wallet while its prices are shown: the wallet's statement then names a hidden family's order.
  await topUp(w, s, '50.00');
  const paidId = await paidShippingOrder(w, s, `SCN-${w.run}-HIDDEN`);
  const families = `/v1/client/customers/${s.customerId}/hidden-price-families`;
  const was = (await w.api.call('GET', families, { token: s.admin })).body.hidden_price_families as string[];
  await w.api.call('PUT', families, {
    token: s.admin,
    body: { families: [...new Set([...was, 'shipping_service', 'storage_services'])] },
  });
  w.defer(() => w.api.call('PUT', families, { token: s.admin, body: { families: was } }));
  w.journal.step('admin hides shipping_service and storage_services from the customer');

  const walked: string[] = [];
  const look = async (method: string, path: string, body?: unknown, expect?: number) => {
    const res = await w.api.call(method, path, { token: s.customer, body, ...(expect && { expect }) });
    const leaks = priceKeysIn(res.body);
    if (leaks.length > 0) throw new ScenarioError(`${method} ${path} shows prices: ${leaks.join(', ')}`);
    if (!JSON.stringify(res.body).includes('"price_hidden":true'))
      throw new ScenarioError(`${method} ${path} does not say price_hidden`);
    walked.push(`${method} ${path.split('?')[0]}`);
    return res.body;
  };
  const refused = async (path: string) => {
    const res = await w.api.call('POST', path, { token: s.customer, body: {}, expect: [403] });
    if (res.body.code !== 'PRICE_HIDDEN_SETTLE_OFFLINE')
      throw new ScenarioError(`POST ${path} answered 403 ${res.body.code}, not PRICE_HIDDEN_SETTLE_OFFLINE`);
    walked.push(`POST ${path}`);
    w.journal.step(`POST ${path}: 403 PRICE_HIDDEN_SETTLE_OFFLINE`);
  };
  /** The reads of a delivery order a hidden family's order placed: hidden by that family too. */
  const deliveryOrderReads = async (order: { id: number; tracking_number: string } | null) => {
    if (!order) throw new ScenarioError('an order of a hidden family shows no delivery order');
    await look('GET', `/v1/orders/${order.id}`);
    await look('GET', `/v1/orders/${order.id}/snapshot`);
    await look('POST', '/v1/orders/find', { tracking_number: order.tracking_number });
  };
  /**
   * The wallet is the customer's own money, so its balances and top-ups stay; an entry that pays, holds, refunds or
   * charges a hidden family's order or fee shows no amount and says price_hidden, and `owed` (storage fees) is left out.
   */
  const walletLook = async () => {
    const path = '/v1/customer/credits?entries_limit=100';
    const c = (await w.api.call('GET', path, { token: s.customer })).body;
    const entries = c.entries as {
      code: string;
      amount?: string;
      balance_after?: string;
      price_hidden?: true;
      reference: { type: string } | null;
    }[];
    // Every entry naming an order or fee names one of the hidden families (shipping orders, storage, ship-outs).
    const hidden = entries.filter((e) => e.reference !== null);
    const leaks = hidden.filter((e) => 'amount' in e || 'balance_after' in e || e.price_hidden !== true);
    if (leaks.length > 0) throw new ScenarioError(`GET ${path} shows hidden amounts: ${JSON.stringify(leaks)}`);
    if (hidden.length === 0) throw new ScenarioError(`GET ${path} lists no payment of a hidden family's order`);
    if ('owed' in c) throw new ScenarioError(`GET ${path} shows owed storage fees: ${c.owed}`);
    walked.push(`GET ${path.split('?')[0]}`);
    w.journal.step(
      `wallet: balance ${c.balance} ${c.currency}; ${hidden.length} entries of hidden orders without amounts`,
    );
  };

  const ship = `/v1/customer/shipping-orders`;
  const parcels = { recipient: recipient(w), packages: [{ weight_grams: 1200 }] };
  await look('GET', `${ship}/services`);
  await look('GET', `${ship}/services/${s.codes.shipping}`);
  await look('POST', `${ship}/services/${s.codes.shipping}/estimate-price`, parcels);
  const so = (await look('POST', `${ship}/services/${s.codes.shipping}/orders`, parcels, 201)).shipping_order;
  await look('GET', `${ship}/services/${s.codes.shipping}/orders`);
  await look('GET', `${ship}/${so.id}`);
  await refused(`${ship}/${so.id}/pay`);
  await look('POST', `${ship}/${so.id}/cancel`, {});
  const paid = (await look('GET', `${ship}/${paidId}`)).shipping_order;
  await deliveryOrderReads(paid.order);

  const storageBody = { service_code: s.codes.storage, packages: [{ reference: 'box', weight_grams: 2000 }] };
  await look('GET', '/v1/customer/storage-orders/config');
  await look('POST', '/v1/customer/storage-orders/calculate-price', storageBody);
  const st = (await look('POST', '/v1/customer/storage-orders', storageBody, 201)).storage_order;
  await look('GET', '/v1/customer/storage-orders');
  await look('GET', `/v1/customer/storage-orders/${st.id}`);
  await refused(`/v1/customer/storage-orders/${st.id}/pay`);
  const dropped = (await look('POST', '/v1/customer/storage-orders', storageBody, 201)).storage_order;
  await look('POST', `/v1/customer/storage-orders/${dropped.id}/cancel`, {});
  // The business settles it offline; the warehouse receives the parcel, which the customer then ships out.
  await w.api.call('POST', `/v1/client/storage-orders/${st.id}/settle-offline`, { token: s.admin, body: {} });
  await w.api.call('POST', '/v1/wms/receiving', {
    token: employee,
    body: { warehouse_id: s.warehouseId, tracking_number: st.packages[0].tracking_number },
  });
  await look('GET', '/v1/customer/stored-packages');
  const out = `/v1/customer/shipout-orders`;
  const outBody = { package_ids: [st.packages[0].id], recipient: recipient(w) };
  await look('GET', `${out}/services`);
  await look('POST', `${out}/services/${s.codes.shipout}/estimate`, outBody);
  const sh = (await look('POST', `${out}/services/${s.codes.shipout}/orders`, outBody, 201)).shipout;
  await look('GET', out);
  await look('GET', `${out}/${sh.id}`);
  await refused(`${out}/${sh.id}/pay`);
  await look('POST', `${out}/${sh.id}/cancel`, {});
  // The parcel leaves the warehouse, settled offline, so the run leaves nothing in storage.
  const again = (await look('POST', `${out}/services/${s.codes.shipout}/orders`, outBody, 201)).shipout;
  await w.api.call('POST', `/v1/client/shipouts/${again.id}/settle-offline`, { token: s.admin, body: {} });
  for (const step of ['pick', 'pack', 'hand-over'])
    await w.api.call('POST', `/v1/client/shipouts/${again.id}/${step}`, { token: employee, body: {} });
  const handed = (await look('GET', `${out}/${again.id}`)).shipout;
  w.journal.step(`ship-out ${again.id} settled offline and handed over`);
  await deliveryOrderReads(handed.order);
  await walletLook();
  w.journal.step(`walked: ${walked.join(', ')}`);
  w.journal.step(`${walked.length} answers of the hidden families: no price field in any, each says price_hidden`);
}
