/**
 * The bad-input matrix, derived from the catalog so a new operation is covered the day it is added: for every
 * REST operation, no token, a wrong role, every field with a wrong type, every string one character over its
 * limit, every required field missing, an unknown id and another business's id, every text with a NUL, a control
 * character or a lone surrogate, every time and date in year 0. Each gets its 4xx, and the whole matrix writes no row anywhere.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { CATALOG } from '../../src/modules/index.ts';
import { inputJsonSchema } from '../../api/graphql/schema.ts';
import type { Operation } from '../../src/platform/catalog/types.ts';
import { ROLES, type Role } from '../../src/platform/roles.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { makeBusiness, makeOrder, makeProvider, PASSWORD } from '../helpers/factories.ts';

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  format?: string;
  maxLength?: number;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  default?: unknown;
  items?: JsonSchema;
}

const restOps = CATALOG.filter((op) => op.rest && op.roles !== 'public') as (Operation & {
  rest: NonNullable<Operation['rest']>;
  roles: readonly Role[];
})[];
const pathParams = (op: Operation) => [...op.rest!.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
/** The schema without its null branch, so an optional field is judged by its real type. */
const nonNull = (s: JsonSchema): JsonSchema => s.anyOf?.find((b) => b.type !== 'null') ?? s;

/** A value of the wrong type for the schema, or undefined when a query string cannot carry one. */
function wrongType(s: JsonSchema, inQuery: boolean): unknown {
  const t = nonNull(s);
  if (t.enum) return 'not-a-listed-value';
  if (t.type === 'integer' || t.type === 'number') return 'abc';
  if (inQuery) return undefined;
  if (t.type === 'string') return 12345;
  if (t.type === 'array') return 'not-an-array';
  if (t.type === 'object') return 'not-an-object';
  if (t.type === 'boolean') return 'not-a-boolean';
  return undefined;
}

/** Every string field with a limit, nested objects included, as [dotted path, over-long value]. */
function overLong(props: Record<string, JsonSchema>, prefix = ''): [string, string][] {
  return Object.entries(props).flatMap(([k, s]): [string, string][] => {
    const t = nonNull(s);
    if (t.type === 'object' && t.properties) return overLong(t.properties, `${prefix}${k}.`);
    return t.type === 'string' && t.maxLength !== undefined ? [[`${prefix}${k}`, 'x'.repeat(t.maxLength + 1)]] : [];
  });
}

function nest(dotted: string, value: unknown): Record<string, unknown> {
  return dotted.split('.').reduceRight<unknown>((acc, key) => ({ [key]: acc }), value) as Record<string, unknown>;
}

describe('bad input on every REST operation gets the right 4xx and writes nothing', () => {
  let app: TestApp;
  const tokens = {} as Record<Role | 'otep_key' | 'device_key', string>;
  let foreign: { orderId: number; deviceOrderId: number };
  let before_: Record<string, number>;

  async function rowCounts(): Promise<Record<string, number>> {
    // The rate limits count every request, refused ones first of all: their windows are not state a request wrote.
    const tables = await app
      .em()
      .execute<{ t: string }[]>(
        "select tablename as t from pg_tables where schemaname = 'public' and tablename not in ('mikro_orm_migrations', 'rate_limit_window') order by 1",
      );
    const [row] = await app
      .em()
      .execute<Record<string, string>[]>(
        `select ${tables.map(({ t }) => `(select count(*) from ${t}) as ${t}`).join(', ')}`,
      );
    return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
  }

  async function call(
    op: Operation,
    input: Record<string, unknown>,
    role: Role | 'otep_key' | 'device_key' | null,
    pathValues: Record<string, unknown> = {},
  ) {
    let path = op.rest!.path;
    for (const p of pathParams(op))
      path = path.replace(`{${p}}`, encodeURIComponent(String(pathValues[p] ?? 2_000_000_000)));
    const headers: Record<string, string> = role ? { authorization: `Bearer ${tokens[role]}` } : {};
    // An operation whose body is a file (rest.rawBody) takes its other input in the query string too.
    if (op.rest!.method === 'GET' || op.rest!.method === 'DELETE' || op.rest!.rawBody) {
      const qs = new URLSearchParams(Object.entries(input).map(([k, v]): [string, string] => [k, String(v)]));
      const url = `${path}${qs.size ? `?${qs}` : ''}`;
      if (op.rest!.method === 'POST') return app.http.post(url, {}, { headers });
      if (op.rest!.method === 'PUT') return app.http.put(url, {}, { headers });
      return op.rest!.method === 'GET' ? app.http.get(url, { headers }) : app.http.del(url, { headers });
    }
    return op.rest!.method === 'PUT' ? app.http.put(path, input, { headers }) : app.http.post(path, input, { headers });
  }

  /** A credential the operation accepts: an ingest key for ingest, otherwise a session of a role it allows. */
  const allowedRole = (op: (typeof restOps)[number]): Role | 'otep_key' | 'device_key' => {
    const kinds = [op.auth ?? 'session'].flat();
    return kinds.includes('session')
      ? // The platform admin belongs to no business: a business role where one is allowed, else the platform admin.
        (op.roles.find((r) => r !== 'platform_admin') ?? op.roles[0]!)
      : (kinds[0] as 'otep_key' | 'device_key');
  };
  const fieldsNamed = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field);

  before(async () => {
    // The Operations AI Agent's reads get as far as their 404 only with a model configured (it is never called here)
    // and the family on for the business; SMS Marketing's only switched on and migrated.
    app = await startApp(
      { AI_AGENT_MODEL_URL: 'http://127.0.0.1:9/v1', AI_AGENT_MODEL: 'none', AI_AGENT_MODEL_ALLOW_PRIVATE: '1' },
      { worker: false },
    );
    const b = await makeBusiness(app.em());
    await app
      .em()
      .execute(
        'insert into business_switch (business_id, ai_agent, sms_marketing, sms_marketing_migrated) values (?, true, true, true) on conflict (business_id) do update set ai_agent = true, sms_marketing = true, sms_marketing_migrated = true',
        [b.business.id],
      );
    const accounts: Record<Role, string> = {
      client_admin: b.users.admin.email,
      employee: b.users.employee.email,
      contractor: b.users.broker.email,
      driver: b.users.driver.email,
      customer: b.users.customer.email,
      platform_admin: 'platform@demo.example',
      locker_provider: (await makeProvider(app.em(), 'locker_provider')).user.email,
      delivery_provider: (await makeProvider(app.em(), 'delivery_provider')).user.email,
    };
    for (const role of ROLES)
      tokens[role] = await app.login(accounts[role], role === 'platform_admin' ? 'demo-password' : PASSWORD);
    tokens.otep_key = (
      await app.http.post('/v1/otep/credentials', { name: 'bad input' }, { token: tokens.delivery_provider })
    ).body.credential.secret;
    tokens.device_key = (
      await app.http.post(`/v1/devices/${b.device.code}/keys`, { name: 'bad input' }, { token: tokens.client_admin })
    ).body.key.secret;
    const other = await makeBusiness(app.em());
    const order = await makeOrder(app.em(), other.business.id);
    const [dor] = await app.em().execute<{ id: number }[]>(
      `insert into device_order (business_id, kind, status, next_actor, device_id, grid_code, compartment_id, reference_number, due_at, pickup_code_hash)
       select ?, 'delivery', 'stored', 'recipient', device_id, grid_code, id, 'FOREIGN', now() + interval '1 day', 'x' from compartment where device_id = ? and grid_code = 'A01'
       returning id`,
      [other.business.id, other.device.id],
    );
    foreign = { orderId: order.id, deviceOrderId: dor!.id };
    before_ = await rowCounts();
  });
  after(() => app.running.close());

  test('no token: 401', async () => {
    for (const op of restOps) {
      const res = await call(op, {}, null);
      assert.equal(res.status, 401, op.name);
      assert.equal(res.body.code, 'UNAUTHENTICATED', op.name);
    }
  });

  test('a role the operation does not allow: 403', async () => {
    for (const op of restOps) {
      const wrong = ROLES.find((r) => !op.roles.includes(r));
      if (!wrong) continue;
      const res = await call(op, {}, wrong);
      assert.equal(res.status, 403, `${op.name} as ${wrong}`);
    }
  });

  test('every field with a wrong type: 422 naming it', async () => {
    let checked = 0;
    for (const op of restOps) {
      const schema = inputJsonSchema(op) as JsonSchema;
      for (const [field, s] of Object.entries(schema.properties ?? {})) {
        const isPath = pathParams(op).includes(field);
        const value = wrongType(s, isPath || op.rest.method === 'GET');
        if (value === undefined) continue;
        const res = isPath
          ? await call(op, {}, allowedRole(op), { [field]: value })
          : await call(op, { [field]: value }, allowedRole(op));
        assert.equal(res.status, 422, `${op.name}.${field} = ${JSON.stringify(value)}`);
        assert.ok(
          fieldsNamed(res.body).includes(field),
          `${op.name}.${field} named in ${JSON.stringify(res.body.errors)}`,
        );
        checked++;
      }
    }
    assert.ok(checked >= 20, `checked ${checked}`);
  });

  // A boolean is no number: `true` read as 1 once let a resend name delivery 1 (found by the long fuzz run).
  test('every integer of a body, alone or in a list, refuses true and [5]: 422 naming it', async () => {
    let checked = 0;
    for (const op of restOps.filter((o) => o.rest.method !== 'GET' && o.rest.method !== 'DELETE')) {
      for (const [field, s] of Object.entries((inputJsonSchema(op) as JsonSchema).properties ?? {})) {
        if (pathParams(op).includes(field)) continue;
        const t = nonNull(s);
        const values =
          t.type === 'integer' ? [true, [5]] : t.type === 'array' && t.items?.type === 'integer' ? [[true]] : [];
        for (const value of values) {
          const res = await call(op, { [field]: value }, allowedRole(op));
          assert.equal(res.status, 422, `${op.name}.${field} = ${JSON.stringify(value)}`);
          assert.ok(
            fieldsNamed(res.body).some((f) => f === field || f.startsWith(`${field}.`)),
            `${op.name}.${field} named in ${JSON.stringify(res.body.errors)}`,
          );
          checked++;
        }
      }
    }
    assert.ok(checked >= 8, `checked ${checked}`);
  });

  test('every string one character over its limit: 422 naming it', async () => {
    let checked = 0;
    for (const op of restOps) {
      for (const [field, value] of overLong((inputJsonSchema(op) as JsonSchema).properties ?? {})) {
        const res = pathParams(op).includes(field)
          ? await call(op, {}, allowedRole(op), { [field]: value })
          : await call(op, nest(field, value), allowedRole(op));
        assert.equal(res.status, 422, `${op.name}.${field}`);
        assert.ok(
          fieldsNamed(res.body).includes(field),
          `${op.name}.${field} named in ${JSON.stringify(res.body.errors)}`,
        );
        checked++;
      }
    }
    assert.ok(checked >= 10, `checked ${checked}`);
  });

  test('every required field missing: 422 naming each', async () => {
    for (const op of restOps) {
      const schema = inputJsonSchema(op) as JsonSchema;
      const required = (schema.required ?? []).filter((f) => !pathParams(op).includes(f));
      if (required.length === 0) continue;
      const res = await call(op, {}, allowedRole(op), { id: 1 });
      assert.equal(res.status, 422, op.name);
      // A document judged by its own parser (OTEP and EPCIS ingest) names the first field it misses.
      const named = op.input instanceof z.ZodObject ? required : required.slice(0, 1);
      for (const f of named)
        assert.ok(fieldsNamed(res.body).includes(f), `${op.name}: ${f} named in ${JSON.stringify(res.body.errors)}`);
    }
  });

  test("an unknown id and another business's id: 404, never the other row", async () => {
    const foreignId = (op: Operation) =>
      op.rest!.path.startsWith('/v1/device-orders') ? foreign.deviceOrderId : foreign.orderId;
    const validBody: Record<string, Record<string, unknown>> = {
      device_order_collect: { pickup_code: '123456' },
      device_order_remove: { removal_reason: 'anomaly' },
      locker_delivery_fail: { parcels: [{ reference: 'P-1', code: 'other' }] },
      locker_delivery_correction: { compartment_numbers: [1] },
      locker_delivery_rotate_code: { code: 'pickup' },
      device_order_exception_open: { type: 'other' },
      device_order_exception_resolve: { status: 'resolved', resolution_action: 'other' },
      customer_price_hiding_set: { families: [] },
      update_delivery_instruction: { delivery_instruction: 'back door' },
      update_order_note: { note: 'fragile' },
      reroute_to_address: { address: { line1: '1 Main St', city: 'Paris', postal_code: '75001', country: 'FR' } },
      order_intercept_request: { outcome: 'return_to_sender' },
      replace_route_board_claimant: { claim_id: 1 },
      assign_route_board_driver: { driver_id: 1 },
      pod_file_upload: { type: 'photo', service_type: 1 },
      driver_reject: { reason: 'No licence' },
      driver_order_report: { step: 'completed' },
      remove_route_orders: { order_ids: [1] },
      credit_customer_wallet: { amount: '1.00', idempotency_key: 'bad-input-404' },
      price_shipout: { total: '1.00' },
    };
    let checked = 0;
    for (const op of restOps.filter((o) => pathParams(o).includes('id'))) {
      for (const id of [2_000_000_000, foreignId(op)]) {
        const res = await call(op, validBody[op.name] ?? {}, allowedRole(op), { id });
        assert.equal(res.status, 404, `${op.name} id ${id}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.code, 'NOT_FOUND');
        checked++;
      }
    }
    assert.ok(checked >= 8, `checked ${checked}`);
  });

  /** Every operation with a REST route, anonymous ones included, called as a role it allows. */
  const everyRestOp = CATALOG.filter((op) => op.rest).map((op) => ({
    op,
    role: op.roles === 'public' ? null : allowedRole(op as (typeof restOps)[number]),
  }));
  const topFields = (op: Operation, pick: (s: JsonSchema) => boolean): [string, JsonSchema][] =>
    Object.entries((inputJsonSchema(op) as JsonSchema).properties ?? {})
      .map(([field, s]): [string, JsonSchema] => [field, nonNull(s)])
      .filter(([, s]) => pick(s));
  const ODD_TEXT = { nul: 'A\u0000B', bell: 'A\u0007B', 'lone surrogate': 'A\ud800B' };

  test('every text field with a NUL, a control character or a lone surrogate: 422 naming it, anonymous operations too', async () => {
    let checked = 0;
    for (const { op, role } of everyRestOp) {
      for (const [field] of topFields(op, (s) => s.type === 'string' && !s.enum)) {
        const inUrl = pathParams(op).includes(field) || op.rest!.method === 'GET' || op.rest!.method === 'DELETE';
        for (const [name, value] of Object.entries(ODD_TEXT)) {
          // A URL cannot carry a lone surrogate: percent-encoding is of UTF-8.
          if (inUrl && name === 'lone surrogate') continue;
          const res = pathParams(op).includes(field)
            ? await call(op, {}, role, { [field]: value })
            : await call(op, { [field]: value }, role);
          assert.equal(res.status, 422, `${op.name}.${field} with a ${name}: ${JSON.stringify(res.body)}`);
          assert.ok(
            fieldsNamed(res.body).includes(field),
            `${op.name}.${field} named in ${JSON.stringify(res.body.errors)}`,
          );
          checked++;
        }
      }
    }
    assert.ok(checked >= 60, `checked ${checked}`);
  });

  test('odd text anywhere in a body counts: nested values, list items, keys, and bodies the catalog does not describe', async () => {
    const create = CATALOG.find((op) => op.name === 'client_order_create')!;
    for (const [body, field] of [
      [{ recipient: { name: 'A\u0000B' } }, 'recipient.name'],
      [{ ['note\u0000']: 'x' }, 'note\u0000'],
    ] as const) {
      const res = await call(create, body, 'client_admin');
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.deepEqual(fieldsNamed(res.body), [field]);
    }
    const batch = await app.http.post('/v1/otep/trackings/batch', { tracking_numbers: ['fine', 'A\ud800B'] });
    assert.equal(batch.status, 422);
    assert.deepEqual(fieldsNamed(batch.body), ['tracking_numbers.1']);
    const fine = await call(create, { note: 'Tab\there, lines\r\nand 📦 are text' }, 'client_admin');
    assert.ok(!fieldsNamed(fine.body).includes('note'), 'tab, line breaks and astral characters pass');
  });

  test('every time and date in year 0: 422 naming it', async () => {
    let checked = 0;
    const yearZero: Record<string, string> = { 'date-time': '0000-01-01T00:00:00Z', date: '0000-01-01' };
    for (const { op, role } of everyRestOp) {
      for (const [field, { format }] of topFields(op, (s) => s.format !== undefined && s.format in yearZero)) {
        const res = await call(op, { [field]: yearZero[format!] }, role);
        assert.equal(res.status, 422, `${op.name}.${field}`);
        assert.ok(
          fieldsNamed(res.body).includes(field),
          `${op.name}.${field} named in ${JSON.stringify(res.body.errors)}`,
        );
        checked++;
      }
    }
    assert.ok(checked >= 4, `checked ${checked}`);
  });

  test('the whole matrix wrote no row in any table', async () => {
    assert.deepEqual(await rowCounts(), before_);
  });
});
