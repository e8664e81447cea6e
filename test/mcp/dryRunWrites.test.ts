// Every write an agent can reach, run under X-MCP-Dry-Run: 1, writes nothing (docs/mcp.md, Dry runs). The write tools
// are those the two servers list as not read-only; GraphQL mutations are reached through run_graphql_query. Each call
// runs as a role that may make it, with arguments that pass every check, in a world made through the REST API.
// Afterwards every table, the outbox included, and every Temporal workflow of the file's namespace are as they were.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { buildSchema, graphqlKind } from '../../api/graphql/schema.ts';
import { agentCatalog } from '../../api/mcp/developerOperations.ts';
import { CATALOG } from '../../src/modules/index.ts';
import { aiToolNames, operationOfTool } from '../../src/platform/catalog/tools.ts';
import type { DryRunReport } from '../../src/platform/catalog/dryRun.ts';
import type { Operation } from '../../src/platform/catalog/types.ts';
import type { Role } from '../../src/platform/roles.ts';
import { JOURNEY } from '../fixtures/otepJourney.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import {
  makeBusiness,
  makeOrder,
  makeProvider,
  orderArguments as order,
  PASSWORD,
  priceModel,
} from '../helpers/factories.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { awaitDeviceOrderDelivery } from '../helpers/retryWorkflow.ts';
import { makeDriver, makePlanOrder } from '../modules/routes/fixtures.ts';
import { connectSandboxCarriers } from '../../src/modules/labels/index.ts';
import { rateBody, RECIPIENT, SHIPPER } from '../modules/labels/world.ts';
import { customerWorld, shipout, shippingOrder, storageOrder, type CustomerWorld } from './customerWorld.ts';

/** The roles of the world's accounts: the business's people and one provider of each kind. */
type As = Exclude<Role, 'platform_admin'>;
interface Fixture {
  as: As;
  args: Record<string, unknown>;
}

/**
 * Every write tool, with a caller and arguments that pass all its checks in the world below, so that its preview
 * reaches its writes. A write tool missing here fails the test: add it.
 */
const fixtures = (w: World): Record<string, Fixture> => ({
  create_order: { as: 'employee', args: order('DRY-CREATE') },
  assign_orders_to_broker: { as: 'client_admin', args: { order_ids: [w.unassignedOrder], broker_id: w.broker } },
  revoke_broker_order_assignments: { as: 'client_admin', args: { order_ids: [w.assignedOrder], reason: 'dry run' } },
  release_broker_order_assignment: { as: 'contractor', args: { order_id: w.assignedOrder, reason: 'dry run' } },
  device_order_store: {
    as: 'driver',
    args: { kind: 'delivery', device_id: w.device, grid_code: 'A03', reference_number: 'DRY-STORE', due_at: w.dueAt },
  },
  device_order_collect: { as: 'customer', args: { id: w.deviceOrder, pickup_code: w.pickupCode } },
  device_order_remove: { as: 'client_admin', args: { id: w.deviceOrder, removal_reason: 'handover' } },
  device_order_exception_open: { as: 'employee', args: { id: w.deviceOrder, type: 'item_missing' } },
  device_order_exception_resolve: {
    as: 'employee',
    args: { id: w.deviceOrder, exception_id: w.exception, status: 'resolved', resolution_action: 'parcel_replaced' },
  },
  driver_location_report: { as: 'driver', args: { lat: 48.85, lng: 2.35 } },
  propose_write: { as: 'employee', args: { tool: 'create_order', arguments: order('DRY-PROPOSED') } },
  approve_pending_write: { as: 'client_admin', args: { id: w.approval } },
  reject_pending_write: { as: 'client_admin', args: { id: w.approval, reason: 'dry run' } },
  validate_otep_payload: { as: 'client_admin', args: { ...JOURNEY } },
  update_webhook_settings: { as: 'client_admin', args: { order_create_webhook_url: `${w.receiver}/orders` } },
  replay_webhook_delivery: { as: 'client_admin', args: { id: w.deliveredDelivery } },
  webhook_delivery_resend: { as: 'client_admin', args: { delivery_ids: [w.deadDelivery] } },
  test_webhook_delivery: { as: 'client_admin', args: {} },
  provider_webhook_settings_update: { as: 'locker_provider', args: { sandbox_url: `${w.receiver}/sandbox` } },
  provider_webhook_secret_rotate: { as: 'locker_provider', args: {} },
  provider_webhook_test: { as: 'locker_provider', args: {} },
  ohp_subscription_create: {
    as: 'client_admin',
    args: { url: `${w.receiver}${OHP_PREVIEW}`, events: ['handoff.rejected'] },
  },
  ohp_subscription_revoke: { as: 'client_admin', args: { id: w.ohpSubscription } },
  update_delivery_instruction: { as: 'employee', args: { id: w.unassignedOrder, delivery_instruction: 'dry run' } },
  update_order_note: { as: 'customer', args: { id: w.customerOrder, note: 'dry run' } },
  update_time_window_by_refs: {
    as: 'employee',
    args: { order_refs: ['WORLD-1'], time_window: { start: '2026-12-24T09:00:00Z', end: '2026-12-24T11:00:00Z' } },
  },
  reroute_to_address: {
    as: 'client_admin',
    args: {
      id: w.unassignedOrder,
      address: { line1: '1 Dry Run Way', city: 'Leeds', postal_code: 'LS1 1AA', country: 'GB' },
    },
  },
  hold_order: { as: 'client_admin', args: { id: w.unassignedOrder } },
  release_order: { as: 'employee', args: { id: w.heldOrder } },
  cancel_order: { as: 'employee', args: { id: w.unassignedOrder, reason: 'dry run' } },
  bulk_create_orders: { as: 'employee', args: { orders: [order('DRY-BULK-1'), order('DRY-BULK-2')] } },
  bulk_create_orders_async: { as: 'client_admin', args: { orders: [order('DRY-ASYNC-1')] } },
  // Would write the build and start its process build-route-<id>: the preview shows both, and neither happens.
  build_route: {
    as: 'employee',
    args: { date: '2026-12-24', order_ids: [w.plannableOrder], driver_ids: [w.driver] },
  },
  // The probe's call: a mutation inside a GraphQL document.
  run_graphql_query: {
    as: 'employee',
    args: { query: `mutation { clientOrderCreate${parenthesised(order('DRY-GRAPHQL'))} { order_id } }` },
  },
  // Labels (docs/labels.md): rates are stored, so rating writes; a rate buys one label, and a preview rolls its use back.
  get_shipping_rate: { as: 'employee', args: labelRate('DRY-RATE') },
  compare_all_carriers: { as: 'customer', args: labelRate('DRY-COMPARE') },
  create_shipping_label: { as: 'employee', args: { rate_id: w.labelRate } },
  quote_and_ship: { as: 'employee', args: { ...labelRate('DRY-QUOTE-AND-SHIP'), choose: 'cheapest' } },
  cancel_shipping_label: { as: 'employee', args: { order_id: w.labelOrder } },
  submit_shipping_information: { as: 'employee', args: { order_ids: [w.labelOrder] } },
  // Puts the world's open labels on a manifest per carrier account, under the business's end-of-day lock.
  end_of_day: { as: 'client_admin', args: {} },
  // Uniorder (docs/uniorder.md): both kinds of rate; an order at each; a label order voided; a refused label bought.
  uniorder_rate: { as: 'employee', args: uniorderRate('DRY-UO-RATE') },
  uniorder_rate_batch: {
    as: 'customer',
    args: { items: [uniorderRate('DRY-UO-RATE-1'), uniorderRate('DRY-UO-RATE-2')] },
  },
  uniorder_rate_batch_async: { as: 'employee', args: { items: [uniorderRate('DRY-UO-ASYNC')] } },
  uniorder_create: { as: 'employee', args: { rate_id: w.selfRate } },
  // Its label item is bought as any batch buys one, beside the local item.
  uniorder_create_batch: {
    as: 'employee',
    args: { items: [{ rate_id: w.selfRate }, { rate_id: w.uniorderLabelRate }] },
  },
  uniorder_create_batch_async: {
    as: 'client_admin',
    args: { items: [{ rate_id: w.selfRate }, { rate_id: w.uniorderLabelRate }] },
  },
  uniorder_cancel: { as: 'employee', args: { id: w.labelOrder, reason: 'dry run' } },
  uniorder_purchase_label: { as: 'employee', args: { id: w.refusedLabelOrder } },
  // Customer services (docs/customer-services.md), as the business's customer: each order is paid from its wallet.
  create_shipping_order: { as: 'customer', args: shippingOrder('DRY-SHIPPING') },
  pay_shipping_order: { as: 'customer', args: { id: w.customerServices.shippingOrder } },
  cancel_shipping_order: { as: 'customer', args: { id: w.customerServices.shippingOrder } },
  create_storage_order: { as: 'customer', args: storageOrder('DRY-STORAGE') },
  pay_storage_order: { as: 'customer', args: { id: w.customerServices.storageOrder } },
  cancel_storage_order: { as: 'customer', args: { id: w.customerServices.storageOrder } },
  create_shipout: { as: 'customer', args: shipout([w.customerServices.freePackage]) },
  pay_shipout: { as: 'customer', args: { id: w.customerServices.shipout } },
  cancel_shipout: { as: 'customer', args: { id: w.customerServices.shipout } },
});

/** A label rate request (labelservice_rate's input), one parcel from Paris to Lyon. */
const labelRate = (reference: string) => rateBody(reference);
/** A uniorder rate request of both kinds: the recipient's coordinates price the local delivery per km. */
const uniorderRate = (reference: string) => ({
  type: 'D',
  shipper: SHIPPER,
  recipient: { ...RECIPIENT, address: { ...RECIPIENT.address, lat: 45.76, lng: 4.83 } },
  parcels: [{ weight_grams: 1200, length_mm: 300, width_mm: 200, height_mm: 100 }],
  reference,
  quote_labels: true,
});

/** Write tools that compute their answer from their arguments alone: their previews have no write to show. */
const COMPUTE_ONLY = ['validate_otep_payload'];

/**
 * Tools that are neither a REST GET nor a GraphQL query and still read only: they answer from the catalog and the
 * documents (api/mcp/developerOperations.ts). Any other read-only tool must be a GET or a query.
 */
const DESCRIBE_THE_SERVICE = [
  'get_capabilities',
  'get_api_endpoints',
  'get_graphql_operations',
  'check_skill_update',
  'get_integration_guide',
  'get_otep_guide',
  'get_webhook_guide',
];

/**
 * Tables that change under a dry run although no tool writes them.
 * - rate_limit_window: a dry run counts against the rate limits, as any call does (docs/mcp.md); only the quota
 *   counter writes this table (src/platform/db/rateLimits.ts).
 * - code_attempt: a dry run's pickup code counts toward the code's lock (codeChecks.ts through countsEm), so that a
 *   preview is no free guess; test/mcp/dryRunCounts.test.ts checks that it does.
 */
const NOT_WRITES = ['rate_limit_window', 'code_attempt'];

/** Where ohp_subscription_create's preview subscribes: its challenge is the one request a dry run sends (below). */
const OHP_PREVIEW = '/ohp-preview';
const SECRET = 'dry-run-secret-0123456789';

/** A JSON value as a GraphQL literal: the schema has only String, Int, Float, Boolean and JSON scalars, no enums. */
const literal = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(literal).join(', ')}]`
    : v !== null && typeof v === 'object'
      ? `{${fields(v as Record<string, unknown>)}}`
      : JSON.stringify(v);
const fields = (args: Record<string, unknown>) =>
  Object.entries(args)
    .map(([k, v]) => `${k}: ${literal(v)}`)
    .join(', ');
const parenthesised = (args: Record<string, unknown>) => (Object.keys(args).length > 0 ? `(${fields(args)})` : '');
/** A document calling one mutation field, selecting `__typename` where it answers an object. */
const mutation = (field: GraphQLField<unknown, unknown>, args: Record<string, unknown>) =>
  `mutation { ${field.name}${parenthesised(args)}${isObjectType(getNamedType(field.type)) ? ' { __typename }' : ''} }`;

/** A value GraphQL accepts for a required argument; the runner refuses the call before it reads it. */
function placeholder(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return placeholder(type.ofType);
  if (isListType(type)) return [];
  if (isInputObjectType(type))
    return Object.fromEntries(
      Object.values(type.getFields())
        .filter((f) => isNonNullType(f.type))
        .map((f) => [f.name, placeholder(f.type)]),
    );
  return { String: 'x', Int: 1, Float: 1, Boolean: true }[type.name] ?? {};
}

interface World {
  device: string;
  dueAt: string;
  receiver: string;
  broker: number;
  unassignedOrder: number;
  assignedOrder: number;
  /** An order on HOLD, for release_order. */
  heldOrder: number;
  /** An order of the customer account, which may edit its note. */
  customerOrder: number;
  deviceOrder: number;
  pickupCode: string;
  exception: number;
  approval: number;
  deliveredDelivery: number;
  deadDelivery: number;
  ohpSubscription: number;
  /** A driver and an order with coordinates, for build_route. */
  driver: number;
  plannableOrder: number;
  /** A label rate of labelservice_rate, not used. */
  labelRate: string;
  /** A label order whose label is bought (state purchased), for void, submit, end of day and uniorder_cancel. */
  labelOrder: number;
  /** A label order whose purchase the carrier refused once (status 60), for uniorder_purchase_label. */
  refusedLabelOrder: number;
  /** A self delivery rate (sr_) and a label rate (lr_) of uniorder_rate, not used. */
  selfRate: string;
  uniorderLabelRate: string;
  /** A pending shipping order, storage order and ship-out of the customer, and a stored package of it. */
  customerServices: CustomerWorld;
}

/** run_graphql_query's own answer, inside its preview. */
interface GraphQLAnswer {
  data: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string; dry_run?: boolean } }[];
}

/** What PostgreSQL and Temporal hold: a digest per table, and each workflow run's status and history length. */
interface Snapshot {
  tables: Record<string, string>;
  workflows: Record<string, string>;
}

describe('X-MCP-Dry-Run: every write an agent can reach writes nothing', () => {
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let w: World;
  let table: Record<string, Fixture>;
  let untouched: Snapshot;
  let sentBefore: number;
  const tokens = {} as Record<As, string>;
  const clients = new Map<string, Client>();
  const schema = buildSchema(CATALOG);
  const operations = agentCatalog(CATALOG, 'http://localhost', 'test', () => schema).operations;
  const mutations = Object.values(schema.getMutationType()!.getFields()).map((field) => ({
    field,
    op: CATALOG.find((op) => op.graphql?.name === field.name) as Operation,
  }));

  /** A dry-run connection to `/mcp` or `/mcp/developer` as `as`; without `as`, with no token and full access. */
  async function client(path: string, as?: As): Promise<Client> {
    const key = `${path} ${as}`;
    if (!clients.has(key)) {
      const c = new Client({ name: 'tms-dry-run-test', version: '1.0.0' });
      const headers = { 'x-mcp-dry-run': '1', ...(as && { authorization: `Bearer ${tokens[as]}` }) };
      await c.connect(new StreamableHTTPClientTransport(new URL(`${app.url}${path}`), { requestInit: { headers } }));
      clients.set(key, c);
    }
    return clients.get(key)!;
  }
  /** Calls a tool under the dry run: its answer must be a preview, else the failure names the tool and its error. */
  async function preview(path: string, tool: string, f: Fixture): Promise<DryRunReport> {
    const result = await (await client(path, f.as)).callTool({ name: tool, arguments: f.args });
    const body = JSON.parse((result.content as { text: string }[])[0]!.text) as DryRunReport;
    assert.ok(!result.isError && body.dry_run === true, `${path} ${tool} answers a preview: ${JSON.stringify(body)}`);
    return body;
  }
  /** Runs a GraphQL document through run_graphql_query under the dry run. */
  async function previewGraphQL(as: As, query: string) {
    return (await preview('/mcp/developer', 'run_graphql_query', { as, args: { query } })) as DryRunReport & {
      answer: GraphQLAnswer;
    };
  }
  /** Whether a preview shows a write: a row, an event or a workflow. */
  const showsWrites = (p: DryRunReport) =>
    p.rows.some((r) => !NOT_WRITES.includes(r.table)) || p.events.length + p.workflows.length > 0;

  async function snapshot(): Promise<Snapshot> {
    const em = app.em();
    const names = await em.execute<{ name: string }[]>(
      "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
    );
    const tables: Record<string, string> = {};
    for (const { name } of names.filter((n) => !NOT_WRITES.includes(n.name))) {
      const [row] = await em.execute<{ digest: string }[]>(
        `select md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as digest from "${name}" t`,
      );
      tables[name] = row!.digest;
    }
    const workflows: Record<string, string> = {};
    // A schedule's own runs (the sweeps every few minutes) come whatever the test does: only other runs count.
    for await (const run of app.running.temporal.workflow.list({ query: 'TemporalScheduledById IS NULL' })) {
      const d = await app.running.temporal.workflow.getHandle(run.workflowId, run.runId).describe();
      workflows[`${run.workflowId} ${run.runId}`] = `${d.status.name}, ${d.historyLength} events`;
    }
    return { tables, workflows };
  }
  /** A snapshot once nothing moves any more: the relay, the webhook retries and the workflows have done their part. */
  async function stillSnapshot(): Promise<Snapshot> {
    let last = await snapshot();
    for (let i = 0; i < 30; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const next = await snapshot();
      if (JSON.stringify(next) === JSON.stringify(last)) return next;
      last = next;
    }
    assert.fail('the world never stood still');
  }

  before(async () => {
    // Five attempts of a failing webhook take a few seconds at this scale. A sandbox day as long as a real one: the
    // tracking processes of the world's labels read their labels once a day, so none moves while the test runs.
    app = await startApp({ WEBHOOK_RETRY_SCALE: '0.001', SANDBOX_TRACKING_DAY_SECONDS: '86400' });
    // Answers OHP challenges, fails the webhooks of device orders whose reference says so, and takes the rest.
    receiver = await startReceiver((_n, req) => {
      const body = JSON.parse(req.body || '{}');
      if (body.type === 'challenge') return { status: 200, json: { challenge: body.challenge } };
      return req.body.includes('DEAD-') ? 500 : 200;
    });
    const b = await makeBusiness(app.em());
    const accounts = {
      ...Object.fromEntries(Object.values(b.users).map((u) => [u.role, u])),
      contractor: b.users.broker,
      locker_provider: (await makeProvider(app.em(), 'locker_provider')).user,
      delivery_provider: (await makeProvider(app.em(), 'delivery_provider')).user,
    };
    for (const [as, user] of Object.entries(accounts)) tokens[as as As] = await app.login(user.email, PASSWORD);
    const rest = async (method: 'post' | 'put', path: string, body: unknown, as: As = 'client_admin') => {
      const res = await app.http[method](path, body, { token: tokens[as] });
      assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };

    await rest('put', '/v1/webhook-settings', {
      webhook_sign_secret: SECRET,
      device_order_webhook_url: `${receiver.url}/device-orders`,
      device_order_events: 'device_order.stored',
    });
    await rest('put', '/v1/provider/webhook-settings', { url: `${receiver.url}/provider` }, 'locker_provider');
    const dueAt = new Date(Date.now() + 24 * 3600_000).toISOString();
    const store = (grid: string, ref: string) =>
      rest('post', '/v1/device-orders', {
        kind: 'delivery',
        device_id: b.device.code,
        grid_code: grid,
        reference_number: ref,
        due_at: dueAt,
      });
    const kept = await store('A01', 'KEEP-1');
    const dead = await store('A02', 'DEAD-1');
    const exception = await rest('post', `/v1/device-orders/${kept.device_order.id}/exceptions`, {
      type: 'item_damaged',
    });
    const unassigned = await rest('post', '/v1/client/orderCreate', order('WORLD-1'));
    const assigned = await rest('post', '/v1/client/orderCreate', order('WORLD-2'));
    await rest('post', '/v1/broker-order-assignments', {
      order_ids: [assigned.order_id],
      broker_id: b.users.broker.id,
    });
    const held = await rest('post', '/v1/client/orderCreate', order('WORLD-HELD'));
    await rest('post', `/v1/orders/${held.order_id}/hold`, {});
    const customerOrder = await makeOrder(app.em(), b.business.id, { customerId: b.users.customer.id });
    const proposed = { tool: 'create_order', arguments: order('WORLD-3') };
    const approval = await rest('post', '/v1/mcp/approvals', proposed, 'employee');
    const ohp = await rest('post', '/v1/ohp/subscriptions', { url: `${receiver.url}/ohp`, secret: SECRET });
    // Labels and uniorder: both sandbox carriers connected, a local price model, a label bought, one refused.
    await connectSandboxCarriers(app.em(), b.business.id);
    await rest('put', '/v1/client/delivery-price-model', priceModel({ lat: 48.8566, lng: 2.3522 }));
    const labelRates = async (reference: string) =>
      (await rest('post', '/v1/labelservice/rate', labelRate(reference), 'employee')).rates as { rate_id: string }[];
    const bought = await rest(
      'post',
      '/v1/labelservice/submitOrder',
      { rate_id: (await labelRates('WORLD-LABEL'))[0]!.rate_id },
      'employee',
    );
    // SBX-REFUSE-ONCE: the sandbox refuses the first purchase of the reference, and the order stays in 60.
    const refused = await app.http.post(
      '/v1/labelservice/submitOrder',
      { rate_id: (await labelRates(`SBX-REFUSE-ONCE-${b.tag}`))[0]!.rate_id },
      { token: tokens.employee },
    );
    assert.equal(refused.status, 424, JSON.stringify(refused.body));
    const uniorderRates = (await rest('post', '/v1/uniorder/rate', uniorderRate('WORLD-UO'), 'employee')).rates as {
      rate_id: string;
      kind: string;
    }[];
    const delivery = (id: number, status: string) =>
      awaitDeviceOrderDelivery(app, id, (d) => d.status === status, 60_000).then((d) => d.id);
    w = {
      device: b.device.code,
      dueAt,
      receiver: receiver.url,
      broker: b.users.broker.id,
      unassignedOrder: unassigned.order_id,
      assignedOrder: assigned.order_id,
      heldOrder: held.order_id,
      customerOrder: customerOrder.id,
      deviceOrder: kept.device_order.id,
      pickupCode: kept.pickup_code,
      exception: exception.exception.id,
      approval: approval.approval.id,
      deliveredDelivery: await delivery(kept.device_order.id, 'delivered'),
      deadDelivery: await delivery(dead.device_order.id, 'dead'),
      ohpSubscription: ohp.subscription.id,
      driver: await makeDriver(app.em(), b.business.id),
      plannableOrder: await makePlanOrder(app.em(), b.business.id),
      labelRate: (await labelRates('WORLD-RATE'))[0]!.rate_id,
      labelOrder: bought.order_id,
      refusedLabelOrder: refused.body.order_id,
      selfRate: uniorderRates.find((r) => r.kind === 'self_delivery')!.rate_id,
      uniorderLabelRate: uniorderRates.find((r) => r.kind === 'label')!.rate_id,
      customerServices: await customerWorld(app, {
        admin: tokens.client_admin,
        employee: tokens.employee,
        customer: tokens.customer,
        customerId: b.users.customer.id,
      }),
    };
    table = fixtures(w);
    untouched = await stillSnapshot();
    sentBefore = receiver.received.length;
  });
  after(async () => {
    for (const c of clients.values()) await c.close();
    await receiver.close();
    await app.running.close();
  });

  test('each write tool of both servers, as listed with full access, previews its writes', async (t) => {
    const previewed = new Set<string>();
    for (const [path, server] of [
      ['/mcp', 'user'],
      ['/mcp/developer', 'developer'],
    ] as const) {
      const { tools } = await (await client(path)).listTools();
      // A read-only tool must be a GET or a query: a tool that runs other operations is not (the probe's case).
      await t.test(`${path} lists as read-only only GETs and queries`, () => {
        for (const tool of tools.filter((x) => x.annotations?.readOnlyHint === true)) {
          const op = operationOfTool(operations, server, tool.name)!;
          assert.ok(
            op.rest?.method === 'GET' ||
              (op.graphql && graphqlKind(op) === 'query' && !op.mcp?.runsOperations) ||
              DESCRIBE_THE_SERVICE.includes(tool.name),
            `${tool.name} is listed as read-only, and it is neither a GET nor a GraphQL query`,
          );
        }
        if (server === 'developer')
          assert.equal(tools.find((x) => x.name === 'run_graphql_query')?.annotations?.readOnlyHint, false);
      });
      for (const tool of tools.filter((x) => x.annotations?.readOnlyHint === false)) {
        await t.test(`${path} ${tool.name}`, async () => {
          const f = table[tool.name];
          assert.ok(f, `${tool.name} is a write tool without a fixture: add one to the table`);
          const p = await preview(path, tool.name, f);
          if (!COMPUTE_ONLY.includes(tool.name)) assert.ok(showsWrites(p), JSON.stringify(p));
          // A call that judges each item passes every check only when each item does (a batch's label item included).
          const { failed, results } = (p.answer ?? {}) as { failed?: unknown; results?: { result?: unknown }[] };
          if (failed !== undefined) assert.equal(failed, 0, JSON.stringify(p.answer));
          assert.ok(!results?.some((r) => r.result === false), JSON.stringify(p.answer));
        });
        previewed.add(tool.name);
      }
    }
    assert.deepEqual(
      Object.keys(table).filter((name) => !previewed.has(name)),
      [],
      'every fixture is a write tool',
    );
  });

  test('each GraphQL mutation of a tool previews its writes through run_graphql_query', async (t) => {
    const ofTools = mutations.filter(({ op }) => op.mcp);
    assert.equal(ofTools.length, CATALOG.filter((op) => op.mcp && op.graphql && graphqlKind(op) === 'mutation').length);
    for (const { field, op } of ofTools) {
      await t.test(field.name, async () => {
        const f = table[Object.values(aiToolNames(op))[0]!]!;
        const p = await previewGraphQL(f.as, mutation(field, f.args));
        const errors = p.answer.errors ?? [];
        // The one error allowed is a step a running workflow decides, where the preview stops.
        assert.deepEqual(
          errors.filter((e) => e.extensions?.dry_run !== true),
          [],
        );
        assert.ok(p.answer.data?.[field.name] || errors.length > 0, JSON.stringify(p.answer));
        assert.equal(p.complete, errors.length === 0);
        assert.ok(showsWrites(p), JSON.stringify(p));
      });
    }
  });

  test('GraphQL mutations that are no tool are refused to agents', async (t) => {
    for (const { field, op } of mutations.filter(({ op }) => !op.mcp)) {
      await t.test(field.name, async () => {
        // A role the operation admits, so that the refusal is the agent's.
        const as = op.roles === 'public' ? 'client_admin' : (op.roles.find((r) => r in tokens) as As);
        const args = Object.fromEntries(
          field.args.filter((a) => isNonNullType(a.type)).map((a) => [a.name, placeholder(a.type)]),
        );
        const { answer } = await previewGraphQL(as, mutation(field, args));
        assert.equal(answer.errors?.[0]?.extensions?.code, 'FORBIDDEN', JSON.stringify(answer));
      });
    }
  });

  test('nothing was written, started, signalled or sent', async () => {
    // Settled, so that whatever a write would have set off (a relayed event, a workflow's next step) shows too.
    const now = await stillSnapshot();
    assert.ok('outbox_event' in now.tables);
    const differ = (a: Record<string, string>, b: Record<string, string>) =>
      [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]);
    assert.deepEqual(
      {
        tables: differ(untouched.tables, now.tables),
        workflows: differ(untouched.workflows, now.workflows).map(
          (run) => `${run}: ${untouched.workflows[run] ?? 'none'} -> ${now.workflows[run] ?? 'none'}`,
        ),
        sent: receiver.received.slice(sentBefore).map((r) => {
          const body = JSON.parse(r.body) as { type?: string; event?: string; event_type?: string };
          return `${r.url} ${body.type ?? body.event ?? body.event_type}`;
        }),
      },
      {
        tables: [],
        workflows: [],
        // ohp_subscription_create checks that its URL answers a challenge before it writes anything, and a dry run
        // runs every check: that request is the one sent, once for the tool and once through GraphQL.
        sent: [`${OHP_PREVIEW} challenge`, `${OHP_PREVIEW} challenge`],
      },
      'no table (the outbox included) changed, no workflow was started, updated or signalled, no webhook was sent',
    );
  });
});
