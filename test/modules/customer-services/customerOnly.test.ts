/**
 * The clear 403 for a client account on a customer's operation (docs/customer-services.md, "Modules"): a client
 * admin or employee calling get_account_credits or a customer-services tool over REST, GraphQL or MCP gets 403
 * FORBIDDEN saying that only customer accounts can use it, in the caller's language; an operation open to staff too
 * keeps the plain FORBIDDEN message for a role it does not name.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, PASSWORD } from '../../helpers/factories.ts';
import { callTool } from '../../helpers/mcp.ts';

const CUSTOMER_ONLY = {
  en: 'Only customer accounts can use this operation: sign in with a customer account.',
  de: 'Nur Kundenkonten können diesen Vorgang nutzen: Melden Sie sich mit einem Kundenkonto an.',
};
const PLAIN_FORBIDDEN = 'You are not authorized to perform this operation.';

/** Customer operations a client account may try: REST path, GraphQL field, MCP tool. */
const CUSTOMER_OPERATIONS = [
  { rest: '/v1/customer/credits', graphql: 'accountCredits', tool: 'get_account_credits' },
  {
    rest: '/v1/customer/shipping-orders/services',
    graphql: 'customerShippingServices',
    tool: 'list_shipping_services',
  },
  { rest: '/v1/customer/storage-orders', graphql: 'storageOrders', tool: 'list_storage_orders' },
  { rest: '/v1/customer/shipout-orders', graphql: 'shipouts', tool: 'list_shipouts' },
];

describe('a customer operation called by a client account', () => {
  let app: TestApp;
  let staff: { role: string; token: string }[];
  let customer: string;
  let customerId: number;

  before(async () => {
    app = await startApp();
    const b = await makeBusiness(app.em());
    staff = [
      { role: 'client_admin', token: await app.login(b.users.admin.email, PASSWORD) },
      { role: 'employee', token: await app.login(b.users.employee.email, PASSWORD) },
    ];
    customer = await app.login(b.users.customer.email, PASSWORD);
    customerId = b.users.customer.id;
  });
  after(() => app.running.close());

  /** One MCP tools/call in a language (Accept-Language), its tool answer parsed. */
  const tool = (token: string, name: string, lang: string) =>
    callTool(app.url, token, name, {}, '/mcp', { 'accept-language': lang });

  test('REST: 403 FORBIDDEN saying only customer accounts may use it, in English and in German', async () => {
    for (const { role, token } of staff)
      for (const op of CUSTOMER_OPERATIONS)
        for (const lang of ['en', 'de'] as const) {
          const res = await app.http.get(op.rest, { token, lang });
          const what = `${role} GET ${op.rest} (${lang}): ${JSON.stringify(res.body)}`;
          assert.equal(res.status, 403, what);
          assert.deepEqual(
            [res.body.result, res.body.code, res.body.message],
            [false, 'FORBIDDEN', CUSTOMER_ONLY[lang]],
            what,
          );
        }
    const mine = await app.http.get('/v1/customer/credits', { token: customer });
    assert.equal(mine.status, 200, 'the customer itself is answered');
  });

  test('MCP and GraphQL: the same code and message, in the caller’s language', async () => {
    for (const { role, token } of staff)
      for (const op of CUSTOMER_OPERATIONS)
        for (const lang of ['en', 'de'] as const) {
          const called = await tool(token, op.tool, lang);
          const what = `${role} ${op.tool} (${lang}): ${JSON.stringify(called.body)}`;
          assert.equal(called.isError, true, what);
          assert.deepEqual([called.body.code, called.body.message], ['FORBIDDEN', CUSTOMER_ONLY[lang]], what);

          const gql = await app.http.graphql(`query { ${op.graphql} { result } }`, {}, { token, lang });
          const [error] = gql.body.errors ?? [];
          const gwhat = `${role} ${op.graphql} (${lang}): ${JSON.stringify(gql.body)}`;
          assert.equal(error?.extensions?.code, 'FORBIDDEN', gwhat);
          assert.equal(error?.message, CUSTOMER_ONLY[lang], gwhat);
        }
    const mine = await tool(customer, 'get_account_credits', 'en');
    assert.equal(mine.isError, false, JSON.stringify(mine.body));
  });

  test('an operation open to staff roles keeps the plain FORBIDDEN message for a customer', async () => {
    const res = await app.http.get(`/v1/client/customers/${customerId}/wallet`, { token: customer });
    assert.equal(res.status, 403, JSON.stringify(res.body));
    assert.deepEqual([res.body.code, res.body.message], ['FORBIDDEN', PLAIN_FORBIDDEN]);
  });
});
