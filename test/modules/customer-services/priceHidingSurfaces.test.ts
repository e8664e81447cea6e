/**
 * Price hiding beyond REST (docs/customer-services.md, "Price hiding"): a customer from whom the business hides the
 * shipping_service and storage_services families reads the same orders, services, stored packages, wallet and
 * placed delivery orders through GraphQL (every price field asked for comes back null, each answer says
 * price_hidden) and MCP (no price field at all), and the order.* webhooks of the delivery orders a shipping order and
 * a ship-out placed reach the customer's own receiver without prices and with price_hidden, while the merchant's
 * receiver gets them priced. The world is the MCP tests' customer world (test/mcp/customerWorld.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getNamedType, isObjectType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { buildSchema } from '../../../api/graphql/schema.ts';
import { CATALOG } from '../../../src/modules/index.ts';
import { PRICE_KEYS, priceKeysIn } from '../../../scenarios/journeys/customerServices.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { callTool } from '../../helpers/mcp.ts';
import { startReceiver, type Received } from '../../helpers/receiver.ts';
import { waitFor } from '../../helpers/wait.ts';
import {
  customerWorld,
  shipout,
  shippingOrder,
  storageOrder,
  SHIPPING_SERVICE,
  STORAGE_SERVICE,
  type CustomerWorld,
} from '../../mcp/customerWorld.ts';
import { ok } from './orderWorld.ts';
import { graphqlLiteral } from '../../helpers/graphql.ts';

/** The references of wallet entries that pay, hold, refund or charge an order or fee of a hidden family. */
const HIDDEN_REFERENCES = new Set(['shipping_order', 'storage_order', 'shipout', 'storage_fee']);

/** `value` without its null members, at any depth: what GraphQL answers for a field left out. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

/** The paths of PRICE_KEYS members whose value is null: the price fields a GraphQL answer was asked for. */
function nullPricesIn(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => nullPricesIn(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(PRICE_KEYS.has(k) && v === null ? [`${path}.${k}`] : []),
    ...nullPricesIn(v, `${path}.${k}`),
  ]);
}

/** Every field of an object type, nested objects too: every price field is asked for. */
function everyField(type: GraphQLObjectType): string {
  const fields = Object.values(type.getFields()).map((f) => {
    const named = getNamedType(f.type);
    return isObjectType(named) ? `${f.name} ${everyField(named)}` : f.name;
  });
  return `{ ${fields.join(' ')} }`;
}

describe('price hiding through GraphQL, MCP and webhooks', () => {
  let app: TestApp;
  let schema: GraphQLSchema;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let customer: string;
  let cw: CustomerWorld;
  /** The delivery orders the hidden shipping order and ship-out placed. */
  let placed: { shipping: number; shipout: number };

  before(async () => {
    app = await startApp();
    schema = buildSchema(CATALOG);
    receiver = await startReceiver();
    const b = await makeBusiness(app.em());
    const admin = await app.login(b.users.admin.email, PASSWORD);
    const employee = await app.login(b.users.employee.email, PASSWORD);
    customer = await app.login(b.users.customer.email, PASSWORD);
    const customerId = b.users.customer.id;
    const hooks = (path: string) => ({
      webhook_sign_secret: 'price-hiding-surfaces-0123456789',
      order_create_webhook_url: `${receiver.url}${path}`,
      order_status_change_webhook_url: `${receiver.url}${path}`,
    });
    ok(await app.http.put('/v1/webhook-settings', hooks('/merchant'), { token: admin }));
    ok(
      await app.http.put('/v1/webhook-settings', { customer_id: customerId, ...hooks('/customer') }, { token: admin }),
    );
    cw = await customerWorld(app, { admin, employee, customer, customerId });
    ok(
      await app.http.put(
        `/v1/client/customers/${customerId}/hidden-price-families`,
        { families: ['shipping_service', 'storage_services'] },
        { token: admin },
      ),
    );

    // Both families' delivery orders placed: the shipping order and the ship-out settled offline by the business.
    ok(await app.http.post(`/v1/client/shipping-orders/${cw.shippingOrder}/settle-offline`, {}, { token: admin }));
    const shipped = await waitFor(async () => {
      const o = ok(await app.http.get(`/v1/customer/shipping-orders/${cw.shippingOrder}`, { token: customer }));
      return o.shipping_order.order as { id: number } | null;
    });
    ok(await app.http.post(`/v1/client/shipouts/${cw.shipout}/settle-offline`, {}, { token: admin }));
    for (const step of ['pick', 'pack'])
      ok(await app.http.post(`/v1/client/shipouts/${cw.shipout}/${step}`, {}, { token: employee }));
    const handed = ok(await app.http.post(`/v1/client/shipouts/${cw.shipout}/hand-over`, {}, { token: employee }));
    assert.equal(handed.shipout.status, 'handed_over');
    placed = { shipping: shipped.id, shipout: handed.shipout.order.id };
  });
  after(async () => {
    await receiver.close();
    await app.running.close();
  });

  /** The wallet's answer: balances shown, owed left out, every entry of a hidden family's order without amounts. */
  function assertWalletHidden(wallet: Record<string, any>, absent: (v: unknown) => boolean) {
    assert.equal(wallet.balance, '497.60', 'the balances are the customer’s own money: 500.00 less 2.40 paid');
    assert.ok(absent(wallet.owed), 'owed is storage fees');
    assert.equal(wallet.in_arrears, false);
    const hidden = wallet.entries.filter((e: any) => HIDDEN_REFERENCES.has(e.reference?.type));
    assert.ok(hidden.length >= 1, JSON.stringify(wallet.entries));
    for (const e of hidden) {
      assert.ok(absent(e.amount) && absent(e.balance_after), JSON.stringify(e));
      assert.equal(e.price_hidden, true, JSON.stringify(e));
    }
    const topUp = wallet.entries.find((e: any) => e.code === 'top_up');
    assert.equal(topUp.amount, '500.00', 'a top-up names no order: its amount stays');
  }

  test('GraphQL: every price field asked for answers null, and each answer says price_hidden', async () => {
    const storageQuote = { service_code: STORAGE_SERVICE, packages: storageOrder('GQL').packages };
    const reads: [string, Record<string, unknown>][] = [
      ['customerShippingServices', {}],
      ['customerShippingServiceConfig', { service_code: SHIPPING_SERVICE }],
      ['estimateShippingOrder', shippingOrder('GQL-ESTIMATE')],
      ['shippingOrder', { id: cw.shippingOrder }],
      ['shippingOrders', { service_code: SHIPPING_SERVICE, per_page: 10 }],
      ['storageOrderConfig', {}],
      ['quoteStorageOrder', storageQuote],
      ['storageOrder', { id: cw.storageOrder }],
      ['storageOrders', { per_page: 10 }],
      ['storedPackages', { per_page: 10, state: 'stored' }],
      ['shipoutServices', {}],
      ['estimateShipout', shipout([cw.freePackage])],
      ['shipout', { id: cw.shipout }],
      ['shipouts', { per_page: 10 }],
      ['order', { id: placed.shipping }],
      ['order', { id: placed.shipout }],
      ['orderSnapshot', { id: placed.shipping }],
      ['orderSnapshot', { id: placed.shipout }],
    ];
    const query = schema.getQueryType()!.getFields();
    for (const [name, args] of reads) {
      const selection = everyField(getNamedType(query[name]!.type) as GraphQLObjectType);
      const argText = Object.keys(args).length > 0 ? `(${graphqlLiteral(args).slice(1, -1)})` : '';
      const res = await app.http.graphql(`query { ${name}${argText} ${selection} }`, {}, { token: customer });
      const what = `${name}(${JSON.stringify(args)}): ${JSON.stringify(res.body)}`;
      assert.equal(res.status, 200, what);
      assert.equal(res.body.errors, undefined, what);
      const answer = res.body.data[name];
      assert.deepEqual(priceKeysIn(withoutNulls(answer)), [], what);
      assert.ok(nullPricesIn(answer).length > 0, `${what}: its price fields were asked for, and answer null`);
      assert.ok(JSON.stringify(answer).includes('"price_hidden":true'), what);
    }

    const credits = await app.http.graphql(
      `query { accountCredits ${everyField(getNamedType(query.accountCredits!.type) as GraphQLObjectType)} }`,
      {},
      { token: customer },
    );
    assert.equal(credits.body.errors, undefined, JSON.stringify(credits.body));
    assertWalletHidden(credits.body.data.accountCredits, (v) => v === null);
  });

  test('MCP: the customer tools answer without any price field, each saying price_hidden', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['list_shipping_services', {}],
      ['get_shipping_service_config', { service_code: SHIPPING_SERVICE }],
      ['estimate_shipping_order', shippingOrder('MCP-ESTIMATE')],
      ['get_shipping_order', { id: cw.shippingOrder }],
      ['list_shipping_orders', { service_code: SHIPPING_SERVICE }],
      ['get_storage_order_config', {}],
      ['quote_storage_order', { service_code: STORAGE_SERVICE, packages: storageOrder('MCP').packages }],
      ['get_storage_order', { id: cw.storageOrder }],
      ['list_storage_orders', {}],
      ['list_stored_packages', { state: 'stored' }],
      ['list_shipout_services', {}],
      ['estimate_shipout', shipout([cw.freePackage])],
      ['get_shipout', { id: cw.shipout }],
      ['list_shipouts', {}],
      ['get_order_detail', { id: placed.shipping }],
      ['get_order_detail', { id: placed.shipout }],
      ['order_snapshot', { id: placed.shipping }],
      ['order_snapshot', { id: placed.shipout }],
    ];
    for (const [name, args] of calls) {
      const res = await callTool(app.url, customer, name, args);
      const what = `${name}(${JSON.stringify(args)}): ${JSON.stringify(res.body)}`;
      assert.equal(res.isError, false, what);
      assert.deepEqual(priceKeysIn(res.body), [], what);
      assert.ok(JSON.stringify(res.body).includes('"price_hidden":true'), what);
    }
    const wallet = await callTool(app.url, customer, 'get_account_credits', {});
    assert.equal(wallet.isError, false, JSON.stringify(wallet.body));
    assertWalletHidden(wallet.body, (v) => v === undefined);
    for (const e of wallet.body.entries.filter((x: any) => x.price_hidden))
      assert.ok(!('amount' in e) && !('balance_after' in e), JSON.stringify(e));
  });

  test("webhooks: the placed delivery orders' order.* events reach the customer without prices, the merchant with them", async () => {
    const events = (path: string, orderId: number) =>
      receiver.received
        .filter((r: Received) => r.url === path)
        .map((r) => JSON.parse(r.body))
        .filter((p) => p.data?.order?.id === orderId);
    for (const [family, orderId] of [
      ['shipping_service', placed.shipping],
      ['storage_services', placed.shipout],
    ] as const) {
      const [toCustomer, toMerchant] = await waitFor(async () => {
        const c = events('/customer', orderId).find((p) => p.event === 'order.created');
        const m = events('/merchant', orderId).find((p) => p.event === 'order.created');
        return c && m && ([c, m] as const);
      });
      assert.ok(
        priceKeysIn(toMerchant).includes('$.data.shipping_price'),
        `${family}: the merchant is sent the price, ${JSON.stringify(toMerchant)}`,
      );
      for (const payload of events('/customer', orderId)) {
        assert.deepEqual(priceKeysIn(payload), [], `${family}: ${JSON.stringify(payload)}`);
        assert.equal(payload.data.price_hidden, true, `${family}: ${JSON.stringify(payload)}`);
      }
      assert.equal(toCustomer.data.order.id, orderId);
    }
  });
});
