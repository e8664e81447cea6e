// Writes a person can stop, end to end (docs/mcp.md, Approvals and Dry runs): agents propose through the official SDK
// client, people decide through the SDK, REST and the /mcp-approvals page in a real headless Chromium, and the
// approved write runs once, in the approval's workflow on the real Temporal server; a dry run shows what a write
// would do and leaves PostgreSQL, the outbox and Temporal untouched.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { User } from '../../src/modules/identity/index.ts';
import { hashPassword } from '../../src/platform/secrets.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { makeBusiness, orderArguments as order, PASSWORD } from '../helpers/factories.ts';
import { waitFor } from '../helpers/wait.ts';

describe('MCP approvals and dry runs', () => {
  let app: TestApp;
  let b: Awaited<ReturnType<typeof makeBusiness>>;
  let admin: string;
  let admin2: string;
  let employee: string;
  let broker: string;
  let admin2Email: string;
  const clients: Client[] = [];

  async function connect(path: string, token: string, headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'tms-approvals-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}${path}`), {
        requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
      }),
    );
    clients.push(client);
    return client;
  }
  const text = (result: { content?: unknown }) => JSON.parse((result.content as { text: string }[])[0]!.text);
  const ordersWithRef = async (ref: string) =>
    Number(
      (
        await app
          .em()
          .execute<{ n: number }[]>(
            'select count(*)::int as n from delivery_order where business_id = ? and order_ref = ?',
            [b.business.id, ref],
          )
      )[0]!.n,
    );
  const proposalCount = async () =>
    Number(
      (
        await app
          .em()
          .execute<{ n: number }[]>('select count(*)::int as n from mcp_approval where business_id = ?', [
            b.business.id,
          ])
      )[0]!.n,
    );

  before(async () => {
    // 24 hours x 0.001: a proposal of the default waits 86 s; one of a 1-hour business 3.6 s.
    app = await startApp({ APPROVAL_TIMER_SCALE: '0.001' });
    b = await makeBusiness(app.em());
    const em = app.em();
    admin2Email = `admin2-${b.tag}@test.example`;
    em.create(User, {
      businessId: b.business.id,
      email: admin2Email,
      name: `Second admin ${b.tag}`,
      role: 'client_admin',
      passwordHash: await hashPassword(PASSWORD),
    });
    await em.flush();
    [admin, admin2, employee, broker] = (await Promise.all(
      [b.users.admin.email, admin2Email, b.users.employee.email, b.users.broker.email].map((e) =>
        app.login(e, PASSWORD),
      ),
    )) as [string, string, string, string];
  });
  after(async () => {
    for (const c of clients) await c.close();
    await app.running.close();
  });

  test('round trip: an agent proposes, another person lists and approves with confirm, the write runs once as the proposer', async () => {
    const agent = await connect('/mcp', employee, { 'x-mcp-profile': 'ops-write' });
    const before = await proposalCount();
    const bad = text(
      await agent.callTool({ name: 'propose_write', arguments: { tool: 'create_order', arguments: { type: 'X' } } }),
    );
    assert.equal(bad.code, 'VALIDATION_FAILED', 'the arguments are checked when proposed');
    assert.ok(
      bad.errors.some((e: { field: string }) => e.field === 'arguments.type'),
      JSON.stringify(bad.errors),
    );
    assert.equal(
      text(await agent.callTool({ name: 'propose_write', arguments: { tool: 'get_orders' } })).code,
      'VALIDATION_FAILED',
      'a read is not proposed',
    );
    const support = await connect('/mcp', employee, { 'x-mcp-profile': 'support' });
    assert.equal(
      text(
        await support.callTool({
          name: 'propose_write',
          arguments: { tool: 'create_order', arguments: order('NOPE') },
        }),
      ).code,
      'MISSING_SCOPE',
      "a proposer without the tool's scope cannot have it run by someone else",
    );
    const brokerProposer = await connect('/mcp', broker, { 'x-mcp-profile': 'ops-write' });
    assert.equal(
      text(
        await brokerProposer.callTool({
          name: 'propose_write',
          arguments: { tool: 'create_order', arguments: order('NOPE') },
        }),
      ).code,
      'FORBIDDEN',
      'a proposer whose role may not use the tool cannot propose it',
    );
    assert.equal(
      text(await agent.callTool({ name: 'propose_write', arguments: { tool: 'no_such_tool' } })).errors[0].field,
      'tool',
    );
    assert.equal(await proposalCount(), before, 'refused proposals write nothing');

    const proposed = await agent.callTool({
      name: 'propose_write',
      arguments: { tool: 'create_order', arguments: order('APPROVE-1'), reason: 'restock' },
    });
    assert.notEqual(proposed.isError, true, JSON.stringify(proposed));
    const { approval } = text(proposed);
    assert.deepEqual(
      [approval.status, approval.tool, approval.workflow_id, approval.proposed_by.name],
      ['pending', 'create_order', `approval-${approval.id}`, b.users.employee.name],
    );
    assert.equal(await ordersWithRef('APPROVE-1'), 0, 'nothing is done while pending');

    const reviewer = await connect('/mcp', admin, { 'x-mcp-profile': 'ops-write' });
    const pending = text(await reviewer.callTool({ name: 'list_pending_approvals', arguments: {} }));
    const listed = pending.approvals.find((a: { id: number }) => a.id === approval.id);
    assert.deepEqual(listed.arguments, order('APPROVE-1'), 'the reviewer sees the arguments');

    assert.equal(
      text(await agent.callTool({ name: 'approve_pending_write', arguments: { id: approval.id, confirm: true } })).code,
      'SELF_APPROVAL',
    );
    assert.equal(
      text(await reviewer.callTool({ name: 'approve_pending_write', arguments: { id: approval.id } })).code,
      'CONFIRMATION_REQUIRED',
    );
    const brokerAgent = await connect('/mcp', broker, { 'x-mcp-profile': 'ops-write' });
    assert.equal(
      text(await brokerAgent.callTool({ name: 'approve_pending_write', arguments: { id: approval.id, confirm: true } }))
        .code,
      'NOT_FOUND',
      'a reviewer whose role may not use the tool does not find it',
    );
    const readonly = await connect('/mcp', admin, { 'x-mcp-scopes': 'approvals:write' });
    assert.equal(
      text(await readonly.callTool({ name: 'approve_pending_write', arguments: { id: approval.id, confirm: true } }))
        .code,
      'NOT_FOUND',
      "an agent reviewer without the tool's scopes does not find it",
    );

    const approved = await reviewer.callTool({
      name: 'approve_pending_write',
      arguments: { id: approval.id, confirm: true },
    });
    assert.notEqual(approved.isError, true, JSON.stringify(approved));
    const done = text(approved).approval;
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.equal(done.reviewed_by.name, b.users.admin.name);
    assert.equal(done.result.result, true, JSON.stringify(done.result));
    assert.deepEqual(
      done.history.map((h: { step: string }) => h.step),
      ['proposed', 'approved', 'done'],
    );
    assert.equal(await ordersWithRef('APPROVE-1'), 1);
    const [kept] = await app
      .em()
      .execute<{ proposer_scopes: string[] }[]>('select proposer_scopes from mcp_approval where id = ?', [approval.id]);
    assert.ok(
      kept!.proposer_scopes.includes('orders:write') && !kept!.proposer_scopes.includes('webhooks:write'),
      "the run is granted the proposer's scopes, not the reviewer's",
    );

    assert.equal(
      text(await reviewer.callTool({ name: 'approve_pending_write', arguments: { id: approval.id, confirm: true } }))
        .code,
      'APPROVAL_DECIDED',
    );
    assert.equal(await ordersWithRef('APPROVE-1'), 1, 'approved twice, done once');

    const handle = app.running.temporal.workflow.getHandle(`approval-${approval.id}`);
    assert.equal(await handle.result(), 'done');
    const described = await handle.describe();
    assert.deepEqual(
      [
        described.typedSearchAttributes
          .getAll()
          .filter((p) => p.key.name !== 'BuildIds')
          .map((p) => [p.key.name, p.value])
          .sort(),
      ],
      [
        [
          ['ApprovalStatus', 'done'],
          ['BusinessId', b.business.id],
          ['McpTool', 'create_order'],
        ],
      ],
    );
  });

  test('reject ends a proposal with its reason and does nothing; another business sees none of it', async () => {
    const proposed = await app.http.post(
      '/v1/mcp/approvals',
      { tool: 'create_order', arguments: order('REJECT-1') },
      { token: employee },
    );
    assert.equal(proposed.status, 201, JSON.stringify(proposed.body));
    const id = proposed.body.approval.id;
    const other = await makeBusiness(app.em());
    const stranger = await app.login(other.users.admin.email, PASSWORD);
    assert.equal((await app.http.get(`/v1/mcp/approvals/${id}`, { token: stranger })).status, 404);
    assert.equal((await app.http.post(`/v1/mcp/approvals/${id}/approve`, {}, { token: stranger })).status, 404);
    const rejected = await app.http.post(
      `/v1/mcp/approvals/${id}/reject`,
      { reason: 'not this week' },
      { token: admin, lang: 'de' },
    );
    assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
    assert.equal(rejected.body.approval.status, 'rejected');
    assert.deepEqual(rejected.body.approval.history.at(-1).reason, 'not this week');
    const again = await app.http.post(`/v1/mcp/approvals/${id}/approve`, {}, { token: admin2, lang: 'de' });
    assert.equal(again.status, 409);
    assert.equal(again.body.message, 'Dieser Vorschlag ist nicht mehr offen: er ist rejected.');
    assert.equal(await ordersWithRef('REJECT-1'), 0);
    assert.equal(await app.running.temporal.workflow.getHandle(`approval-${id}`).result(), 'rejected');
  });

  test("a person lists, reads and decides only the proposals of tools it may use; a URL's keys are masked", async () => {
    const keyed = 'https://example.com/hooks/keyed?access_key=k-0123456789';
    const adminOnly = await app.http.post(
      '/v1/mcp/approvals',
      { tool: 'update_webhook_settings', server: 'developer', arguments: { device_order_webhook_url: keyed } },
      { token: admin },
    );
    assert.equal(adminOnly.status, 201, JSON.stringify(adminOnly.body));
    const hidden = adminOnly.body.approval;
    assert.equal(hidden.arguments.device_order_webhook_url, 'https://example.com/hooks/keyed?[secret]');
    const staffs = (
      await app.http.post(
        '/v1/mcp/approvals',
        { tool: 'create_order', arguments: order('SEEN-1') },
        { token: employee },
      )
    ).body.approval;
    const ids = async (token: string, headers: Record<string, string> = {}) => {
      const agent = Object.keys(headers).length > 0 ? await connect('/mcp', token, headers) : null;
      const page = agent
        ? text(await agent.callTool({ name: 'list_pending_approvals', arguments: { per_page: 100 } }))
        : (await app.http.get('/v1/mcp/approvals?per_page=100', { token })).body;
      return page.approvals.map((a: { id: number }) => a.id);
    };

    // A contractor may use neither tool: it sees neither, and reads, rejects or approves neither.
    assert.deepEqual(
      (await ids(broker)).filter((id: number) => [hidden.id, staffs.id].includes(id)),
      [],
    );
    for (const [method, path] of [
      ['get', `/v1/mcp/approvals/${hidden.id}`],
      ['post', `/v1/mcp/approvals/${hidden.id}/reject`],
      ['post', `/v1/mcp/approvals/${staffs.id}/reject`],
      ['post', `/v1/mcp/approvals/${staffs.id}/approve`],
    ] as const) {
      const res =
        method === 'get'
          ? await app.http.get(path, { token: broker })
          : await app.http.post(path, {}, { token: broker });
      assert.deepEqual([res.status, res.body.code], [404, 'NOT_FOUND'], `${method} ${path} as a contractor`);
    }
    // An employee may create orders but not change the webhook settings.
    const employeeSees = await ids(employee);
    assert.ok(employeeSees.includes(staffs.id) && !employeeSees.includes(hidden.id), JSON.stringify(employeeSees));
    assert.equal((await app.http.post(`/v1/mcp/approvals/${hidden.id}/reject`, {}, { token: employee })).status, 404);
    // Over MCP, the connection's scopes narrow it further.
    assert.ok(!(await ids(admin2, { 'x-mcp-scopes': 'approvals:read' })).includes(hidden.id));
    assert.ok((await ids(admin2, { 'x-mcp-scopes': 'approvals:read,webhooks:write' })).includes(hidden.id));

    const [stored] = await app
      .em()
      .execute<{ arguments: string }[]>('select arguments::text as arguments from mcp_approval where id = ?', [
        hidden.id,
      ]);
    assert.ok(!stored!.arguments.includes('k-0123456789'), 'the key is kept sealed, not shown');
    const approved = await app.http.post(`/v1/mcp/approvals/${hidden.id}/approve`, {}, { token: admin2 });
    assert.equal(approved.body.approval.status, 'done', JSON.stringify(approved.body));
    assert.ok(!JSON.stringify(approved.body).includes('k-0123456789'), 'nor shown in the answer kept');
    assert.equal(
      (await app.http.get('/v1/webhook-settings', { token: admin })).body.settings.device_order_webhook_url,
      keyed,
      'the approved write ran with the whole URL',
    );
    assert.equal(
      (await app.http.post(`/v1/mcp/approvals/${staffs.id}/reject`, { reason: 'test' }, { token: admin })).status,
      200,
    );
  });

  test("a secret in the tool's answer (a pickup code shown once) is not kept or shown with the proposal", async () => {
    const args = {
      kind: 'delivery',
      device_id: b.device.code,
      grid_code: 'A04',
      reference_number: 'APPROVAL-1',
      due_at: new Date(Date.now() + 86_400_000).toISOString(),
    };
    const id = (
      await app.http.post('/v1/mcp/approvals', { tool: 'device_order_store', arguments: args }, { token: employee })
    ).body.approval.id;
    const approved = await app.http.post(`/v1/mcp/approvals/${id}/approve`, {}, { token: admin });
    assert.equal(approved.body.approval.status, 'done', JSON.stringify(approved.body));
    assert.equal(approved.body.approval.result.pickup_code, '[secret]');
    const [kept] = await app
      .em()
      .execute<{ result: string }[]>('select result::text as result from mcp_approval where id = ?', [id]);
    assert.doesNotMatch(kept!.result, /"pickup_code": "\d/);
  });

  test("a proposal nobody decides expires after the business's setting, and can then not be approved", async () => {
    const other = await makeBusiness(app.em());
    const [owner, staff] = await Promise.all(
      [other.users.admin.email, other.users.employee.email].map((e) => app.login(e, PASSWORD)),
    );
    assert.equal(
      (await app.http.put('/v1/mcp/approval-settings', { expire_after_hours: 0 }, { token: owner })).status,
      422,
    );
    assert.equal(
      (await app.http.put('/v1/mcp/approval-settings', { expire_after_hours: 1 }, { token: staff })).status,
      403,
    );
    assert.equal(
      (await app.http.put('/v1/mcp/approval-settings', { expire_after_hours: 1 }, { token: owner })).body
        .expire_after_hours,
      1,
    );
    const proposed = await app.http.post(
      '/v1/mcp/approvals',
      { tool: 'create_order', arguments: order('EXPIRE-1') },
      { token: staff },
    );
    const id = proposed.body.approval.id;
    assert.ok(Date.parse(proposed.body.approval.expires_at) - Date.now() < 4_000, 'one hour, scaled by 0.001');
    assert.equal(await app.running.temporal.workflow.getHandle(`approval-${id}`).result(), 'expired');
    const read = await app.http.get(`/v1/mcp/approvals/${id}`, { token: owner });
    assert.deepEqual(
      read.body.approval.history.map((h: { step: string; by: number | null }) => [h.step, h.by]),
      [
        ['proposed', other.users.employee.id],
        ['expired', null],
      ],
    );
    assert.equal((await app.http.post(`/v1/mcp/approvals/${id}/approve`, {}, { token: owner })).status, 409);
  });

  test('X-MCP-Require-Approval queues a high-risk call instead of running it; the page approves it in Chromium', async () => {
    const url = 'https://example.com/hooks/approved';
    const settings = async () =>
      (await app.http.get('/v1/webhook-settings', { token: admin })).body.settings.device_order_webhook_url;
    const dev = await connect('/mcp/developer', admin, { 'x-mcp-require-approval': '1' });
    const listed = (await dev.listTools()).tools.find((t) => t.name === 'update_webhook_settings')!;
    assert.equal(listed.outputSchema, undefined, "a queued call answers a proposal, not the tool's output");
    const secret = 'approval-secret-0123456789';
    const queued = await dev.callTool({
      name: 'update_webhook_settings',
      arguments: { device_order_webhook_url: url, webhook_sign_secret: secret },
    });
    assert.notEqual(queued.isError, true, JSON.stringify(queued));
    const { approval } = text(queued);
    assert.deepEqual(
      [approval.status, approval.server, approval.tool],
      ['pending', 'developer', 'update_webhook_settings'],
    );
    assert.ok(!JSON.stringify(queued).includes(secret), 'a secret argument is never echoed');
    const [stored] = await app
      .em()
      .execute<{ arguments: object; sealed_arguments: string | null }[]>(
        'select arguments, sealed_arguments from mcp_approval where id = ?',
        [approval.id],
      );
    assert.deepEqual(stored!.arguments, { device_order_webhook_url: url, webhook_sign_secret: '[secret]' });
    assert.ok(stored!.sealed_arguments && !stored!.sealed_arguments.includes(secret), 'it is kept sealed');
    assert.match((queued.content as { text: string }[])[1]!.text, /^Queued for human approval/);
    assert.notEqual(await settings(), url, 'nothing was written');
    const bad = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-mcp-require-approval': 'yes',
      },
      body: '{}',
    });
    assert.equal(bad.status, 400);

    const browser: Browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const failures: string[] = [];
      page.on('pageerror', (err) => failures.push(err.message));
      page.on('console', (m) => {
        if (m.type() === 'error') failures.push(m.text());
      });
      const res = await page.goto(`${app.url}/mcp-approvals`);
      assert.equal(res?.status(), 200);
      assert.match(res?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
      await page.fill('input[name=email]', admin2Email);
      await page.fill('input[name=password]', PASSWORD);
      await page.click('#sign-in button[type=submit]');
      const card = page.locator(`li[data-id="${approval.id}"]`);
      await card.waitFor();
      const shown = async () => [await page.locator('#sign-in').isVisible(), await page.locator('#queue').isVisible()];
      assert.deepEqual(await shown(), [false, true], 'signed in, the queue replaces the form');
      assert.equal(await card.locator('.tool').textContent(), 'update_webhook_settings');
      assert.deepEqual(JSON.parse((await card.locator('.arguments').textContent())!), {
        device_order_webhook_url: url,
        webhook_sign_secret: '[secret]',
      });
      assert.ok(!(await page.content()).includes(secret));
      await card.locator('.approve').click();
      await page.locator('#message', { hasText: `#${approval.id} done.` }).waitFor();
      await card.waitFor({ state: 'detached' });
      assert.equal(
        await settings(),
        url,
        'the approved write ran, with the real secret (the shown one is too short to pass)',
      );
      const [ended] = await app
        .em()
        .execute<{ sealed_arguments: string | null }[]>('select sealed_arguments from mcp_approval where id = ?', [
          approval.id,
        ]);
      assert.equal(ended!.sealed_arguments, null, 'the secret goes once the proposal has ended');

      // A rejected one, with its reason, through the page as well.
      const second = text(
        await dev.callTool({ name: 'update_webhook_settings', arguments: { device_order_webhook_url: `${url}/2` } }),
      ).approval;
      await page.click('#reload');
      const next = page.locator(`li[data-id="${second.id}"]`);
      await next.locator('.reject-reason').fill('wrong endpoint');
      await next.locator('.reject').click();
      await page.locator('#message', { hasText: `#${second.id} rejected.` }).waitFor();
      assert.equal(await settings(), url);
      await page.selectOption('#status', 'rejected');
      await page.locator(`li[data-id="${second.id}"] .outcome`, { hasText: 'rejected by' }).waitFor();
      await page.click('#sign-out');
      await page.locator('#message', { hasText: 'Signed out.' }).waitFor();
      assert.deepEqual(await shown(), [true, false], 'signed out, the form replaces the queue');
      assert.deepEqual(failures, []);
    } finally {
      await browser.close();
    }
    await waitFor(
      async () =>
        (await app.running.temporal.workflow.getHandle(`approval-${approval.id}`).describe()).status.name ===
        'COMPLETED',
    );
  });

  test('X-MCP-Dry-Run shows the rows, events and workflows a write would make, and makes none of them', async () => {
    const counts = async () =>
      (
        await app.em().execute<{ orders: number; events: number; approvals: number }[]>(
          `select (select count(*)::int from delivery_order where business_id = ?1) as orders, (select count(*)::int from outbox_event where business_id = ?1) as events,
              (select count(*)::int from mcp_approval where business_id = ?1) as approvals`.replace(
            /\?1/g,
            String(b.business.id),
          ),
        )
      )[0]!;
    const before = await counts();
    const preview = await connect('/mcp', employee, { 'x-mcp-profile': 'ops-write', 'x-mcp-dry-run': '1' });
    assert.equal(
      (await preview.listTools()).tools.find((t) => t.name === 'create_order')!.outputSchema,
      undefined,
      'a previewed write answers a preview',
    );

    const created = text(await preview.callTool({ name: 'create_order', arguments: order('DRY-1') }));
    assert.deepEqual(
      [created.dry_run, created.complete, created.answer.result],
      [true, true, true],
      JSON.stringify(created),
    );
    assert.equal(created.rows.find((r: { table: string }) => r.table === 'delivery_order')?.inserted, 1);
    assert.deepEqual(
      created.events.map((e: { event_type: string }) => e.event_type),
      ['order.created'],
    );
    assert.equal(
      text(await preview.callTool({ name: 'create_order', arguments: { type: 'X' } })).code,
      'VALIDATION_FAILED',
      'a call that would fail says so',
    );

    const proposal = text(
      await preview.callTool({ name: 'propose_write', arguments: { tool: 'create_order', arguments: order('DRY-2') } }),
    );
    const started = proposal.workflows.find((w: { action: string }) => w.action === 'start');
    assert.deepEqual(
      [started.name, proposal.rows.find((r: { table: string }) => r.table === 'mcp_approval')?.inserted],
      ['approvalWorkflow', 1],
    );
    await assert.rejects(
      app.running.temporal.workflow.getHandle(started.workflow_id).describe(),
      WorkflowNotFoundError,
      'no workflow was started',
    );

    // A high-risk tool is previewed without confirm; a step a running workflow decides ends the preview there.
    const pending = (
      await app.http.post('/v1/mcp/approvals', { tool: 'create_order', arguments: order('DRY-3') }, { token: employee })
    ).body.approval;
    const reviewer = await connect('/mcp', admin, { 'x-mcp-dry-run': '1' });
    const approval = text(await reviewer.callTool({ name: 'approve_pending_write', arguments: { id: pending.id } }));
    assert.deepEqual(
      [approval.complete, approval.workflows],
      [false, [{ action: 'update', workflow_id: pending.workflow_id, name: 'decide' }]],
    );
    assert.equal(
      (await app.http.get(`/v1/mcp/approvals/${pending.id}`, { token: admin })).body.approval.status,
      'pending',
    );

    const after = await counts();
    assert.deepEqual(
      after,
      { ...before, approvals: before.approvals + 1 },
      'only the proposal made without a dry run was written',
    );
    assert.equal(await ordersWithRef('DRY-1'), 0);
    const bad = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-mcp-dry-run': 'true',
      },
      body: '{}',
    });
    assert.equal(bad.status, 400);
  });
});
