import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getIntrospectionQuery } from 'graphql';
import { translate } from '../../src/platform/i18n/messages.ts';
import { startApp, type Reply, type TestApp } from '../helpers/app.ts';
import { makeBusiness, makeOrder, PASSWORD } from '../helpers/factories.ts';

// Issue 17: one request of 2,000 aliased pages stalled every tenant. A refused query answers one error and no
// `data` entry at all: per the GraphQL specification, `data` is absent only when nothing was executed.
const ORDER_FIELDS =
  'total page per_page orders { id type order_ref tracking_number status scheduled_date note created_at }';
const aliases = (n: number, field: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => `a${i}: ${field(i)}`).join(' ');

function refused(res: Reply, code: string) {
  assert.equal(res.body.errors?.length, 1, JSON.stringify(res.body).slice(0, 500));
  assert.equal(res.body.errors[0].extensions.code, code);
  assert.equal('data' in res.body, false, 'nothing was executed');
}

describe('GraphQL limits', () => {
  let app: TestApp;
  let token: string;
  let business: Awaited<ReturnType<typeof makeBusiness>>;
  before(async () => {
    app = await startApp({}, { worker: false });
    business = await makeBusiness(app.em());
    for (let i = 0; i < 3; i++) await makeOrder(app.em(), business.business.id);
    token = await app.login(business.users.admin.email, PASSWORD);
  });
  after(() => app.running.close());

  test('the 2,000-alias probe is refused before any resolver runs, and so is each smaller form of it', async () => {
    const probe = `{ ${aliases(2000, () => `orders(per_page: 200) { ${ORDER_FIELDS} }`)} }`;
    assert.ok(probe.length > 200_000);
    refused(await app.http.graphql(probe, {}, { token }), 'QUERY_TOO_LARGE');
    // Under the size limit: 1,000 small aliases; then 25 aliases, each a page of 200 orders.
    refused(
      await app.http.graphql(`{ ${aliases(1000, () => 'orders { total }')} }`, {}, { token }),
      'TOO_MANY_ALIASES',
    );
    const costly = await app.http.graphql(
      `{ ${aliases(25, () => `orders(per_page: 200) { ${ORDER_FIELDS} }`)} }`,
      {},
      { token },
    );
    refused(costly, 'QUERY_TOO_COMPLEX');
    assert.equal(costly.body.errors[0].extensions.status, 400);
    // Without per_page the page counts at its declared maximum (200), not at the default of 50.
    refused(
      await app.http.graphql(`{ ${aliases(25, () => `orders { ${ORDER_FIELDS} }`)} }`, {}, { token }),
      'QUERY_TOO_COMPLEX',
    );
  });

  test('50 aliased sign-ins are refused and sign nobody in', async () => {
    const { email, id } = business.users.employee;
    const res = await app.http.graphql(
      `mutation { ${aliases(50, () => `userLogin(email: "${email}", password: "${PASSWORD}") { access_token }`)} }`,
    );
    refused(res, 'TOO_MANY_MUTATIONS');
    const [tokens] = await app.em().execute('select count(*)::int as n from auth_token where user_id = ?', [id]);
    assert.equal(tokens!.n, 0);
  });

  test('a query nested deeper than the introspection query is refused', async () => {
    const nested = (depth: number): string => (depth === 0 ? 'name' : `name ofType { ${nested(depth - 1)} }`);
    refused(await app.http.graphql(`{ __type(name: "Query") { ${nested(20)} } }`), 'QUERY_TOO_DEEP');
  });

  test('brackets nested thousands deep in the text are refused before the parser recurses into them', async () => {
    const deep = `{ orders(per_page: ${'['.repeat(3000)}1${']'.repeat(3000)}) { total } }`;
    const res = await app.http.graphql(deep, undefined, { token });
    refused(res, 'QUERY_TOO_DEEP');
    assert.match(res.body.errors[0].message, /3002 levels deep; at most 64/);
    // Brackets in strings and comments are no nesting: this one is refused for its argument's type, as usual.
    const quoted = `{ orders(per_page: 1, status: "${'['.repeat(100)}") { total } } # ${'{'.repeat(100)}`;
    assert.notEqual(
      (await app.http.graphql(quoted, undefined, { token })).body.errors?.[0]?.extensions?.code,
      'QUERY_TOO_DEEP',
    );
  });

  test('each limit sits just past what legitimate queries need: they answer, one step more is refused', async () => {
    const intro = await app.http.graphql(
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        inputValueDeprecation: true,
      }),
    );
    assert.equal(intro.body.errors, undefined);
    assert.ok(intro.body.data.__schema.types.length > 50);
    refused(await app.http.graphql(getIntrospectionQuery({ typeDepth: 10 })), 'QUERY_TOO_DEEP');

    const pages = await app.http.graphql(
      `{ ${aliases(2, () => `orders(per_page: 200) { ${ORDER_FIELDS} }`)} }`,
      {},
      { token },
    );
    assert.equal(pages.body.errors, undefined, JSON.stringify(pages.body.errors));
    assert.equal(pages.body.data.a0.orders.length, 3);
    const pool = await app.http.graphql(
      '{ planningPool { orders { id order_ref status recipient { name address { line1 city postal_code country } } } } }',
      {},
      { token },
    );
    assert.equal(pool.body.errors, undefined, JSON.stringify(pool.body.errors));
    const readme = await app.http.graphql(
      '{ brokerOrderAssignments { total assignments { order_id broker_name status } } }',
      {},
      { token },
    );
    assert.equal(readme.body.data.brokerOrderAssignments.total, 0);

    assert.equal(Object.keys((await app.http.graphql(`{ ${aliases(30, () => '__typename')} }`)).body.data).length, 30);
    refused(await app.http.graphql(`{ ${aliases(31, () => '__typename')} }`), 'TOO_MANY_ALIASES');

    const { email } = business.users.driver;
    const signIns = (n: number) =>
      app.http.graphql(
        `mutation { ${aliases(n, () => `userLogin(email: "${email}", password: "${PASSWORD}") { token_type }`)} }`,
      );
    const five = await signIns(5);
    assert.equal(five.body.errors, undefined, JSON.stringify(five.body.errors));
    assert.equal(Object.keys(five.body.data).length, 5);
    refused(await signIns(6), 'TOO_MANY_MUTATIONS');
  });

  test("a refusal speaks the caller's language", async () => {
    const res = await app.http.graphql(
      `mutation { ${aliases(6, () => 'userLogin(email: "nobody@test.example", password: "x") { token_type }')} }`,
      {},
      { lang: 'fr' },
    );
    refused(res, 'TOO_MANY_MUTATIONS');
    assert.equal(res.body.errors[0].message, translate('error.too_many_mutations', 'fr', { count: 6, limit: 5 }));
    assert.match(res.body.errors[0].message, /au plus/);
    const big = await app.http.graphql(`{ ${'a'.repeat(40_000)} }`, {}, { lang: 'de' });
    refused(big, 'QUERY_TOO_LARGE');
    assert.equal(big.body.errors[0].message, translate('error.query_too_large', 'de', { limit: 32 * 1024 }));
  });
});

describe('GraphQL answer size', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ GRAPHQL_MAX_RESPONSE_BYTES: '2000' }, { worker: false });
  });
  after(() => app.running.close());

  test('an answer larger than the limit is replaced by one error, translated', async () => {
    const res = await app.http.graphql(getIntrospectionQuery(), {}, { lang: 'es' });
    assert.deepEqual(res.body.data, null);
    assert.equal(res.body.errors.length, 1);
    assert.equal(res.body.errors[0].extensions.code, 'RESPONSE_TOO_LARGE');
    assert.equal(res.body.errors[0].message, translate('error.response_too_large', 'es', { limit: 2000 }));
    const small = await app.http.graphql('{ __typename }');
    assert.deepEqual(small.body, { data: { __typename: 'Query' } });
  });
});
