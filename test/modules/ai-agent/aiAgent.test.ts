/**
 * The Operations AI Agent (docs/opt-in-families.md) through the real HTTP API, with the worker (approved writes run in
 * their workflow), against a scripted chat-completions server on the loopback: a turn that reads, a turn whose write
 * becomes a proposal that runs only once approved, the conversation read back, the family's 403, 409 and 503, the
 * model's failure, and the daily cap: 429 DAILY_CAP_REACHED past it, and one success among parallel turns for the
 * last slot.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../../src/platform/config.ts';
import { cacheCaughtUp, startApp, type TestApp } from '../../helpers/app.ts';
import { makeBusiness, makeOrder, orderArguments, PASSWORD } from '../../helpers/factories.ts';
import { startScriptedModel } from './scriptedModel.ts';

type Business = Awaited<ReturnType<typeof makeBusiness>>;

const KEY = 'sk-test-ai-agent-0123456789';

describe('the Operations AI Agent', () => {
  let app: TestApp;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  let platform: string;
  let biz: Business;
  const tokens = {} as Record<'admin' | 'employee' | 'broker' | 'driver' | 'customer', string>;

  const turn = (body: unknown, token: string, lang?: string) =>
    app.http.post('/v1/ai-agent/turns', body, { token, lang });
  const switchOn = async (b: Business) => {
    const res = await app.http.put(
      `/v1/platform/businesses/${b.business.code}/families/ai_agent`,
      { enabled: true },
      { token: platform },
    );
    assert.equal(res.status, 200);
  };
  const setCap = async (b: Business, cap: number) => {
    const res = await app.http.put(
      `/v1/platform/businesses/${b.business.code}/ai-agent/daily-turn-cap`,
      { daily_turn_cap: cap },
      { token: platform },
    );
    assert.equal(res.status, 200);
  };
  const turnsToday = async (b: Business) =>
    (
      await app
        .em()
        .execute<{ turns: number }[]>(
          'select coalesce(sum(turns), 0)::int as turns from ai_agent_daily_turns where business_id = ?',
          [b.business.id],
        )
    )[0]!.turns;
  const ordersWithRef = async (ref: string) =>
    (
      await app
        .em()
        .execute<{ n: number }[]>('select count(*)::int as n from delivery_order where order_ref = ?', [ref])
    )[0]!.n;
  const offered = (i: number) => (model.requests[i]!.body.tools ?? []).map((t) => t.function.name).sort();

  before(async () => {
    model = await startScriptedModel();
    app = await startApp({
      AI_AGENT_MODEL_URL: model.url,
      AI_AGENT_MODEL_KEY: KEY,
      AI_AGENT_MODEL: 'scripted-model',
      AI_AGENT_MODEL_ALLOW_PRIVATE: '1',
    });
    platform = await app.login('platform@demo.example', 'demo-password');
    biz = await makeBusiness(app.em());
    tokens.admin = await app.login(biz.users.admin.email, PASSWORD);
    tokens.employee = await app.login(biz.users.employee.email, PASSWORD);
    tokens.broker = await app.login(biz.users.broker.email, PASSWORD);
    tokens.driver = await app.login(biz.users.driver.email, PASSWORD);
    tokens.customer = await app.login(biz.users.customer.email, PASSWORD);
    await switchOn(biz);
    await cacheCaughtUp(app, app);
  });
  after(async () => {
    await app.running.close();
    await model.close();
  });

  test('a turn that reads: the model is offered the tools the person may use, the read runs as the person, the key goes as Bearer', async () => {
    const order = await makeOrder(app.em(), biz.business.id, { orderRef: `READ-${biz.tag}` });
    const first = model.requests.length;
    model.script(
      { call: 'get_order_detail', arguments: { id: order.id } },
      { answer: `Order READ-${biz.tag} is new.` },
    );
    const res = await turn({ message: 'What is the state of my order?' }, tokens.admin);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'answered');
    assert.equal(res.body.answer, `Order READ-${biz.tag} is new.`);
    assert.deepEqual(res.body.tool_calls, [
      { tool: 'get_order_detail', arguments: { id: order.id }, outcome: 'ran', approval_id: null, error_code: null },
    ]);
    assert.deepEqual(res.body.usage, { prompt_tokens: 200, completion_tokens: 20 });
    assert.equal(res.body.turns_used_today, 1);
    assert.equal(res.body.daily_cap, app.config.aiAgentDailyTurnCap);

    assert.equal(model.requests.length, first + 2);
    const [ask, followUp] = [model.requests[first]!, model.requests[first + 1]!];
    assert.equal(ask.path, '/v1/chat/completions');
    assert.equal(ask.headers.authorization, `Bearer ${KEY}`);
    assert.equal(ask.body.model, 'scripted-model');
    assert.equal(ask.body.messages.at(-1)!.content, 'What is the state of my order?');
    // The client admin's tools: reads and proposable writes its role may use; never the approval queue's own tools,
    // nor another role's (a driver's location report, a contractor's release).
    const adminTools = offered(first);
    for (const name of ['get_orders', 'get_order_detail', 'create_order', 'assign_orders_to_broker', 'track_package'])
      assert.ok(adminTools.includes(name), name);
    for (const name of [
      'propose_write',
      'approve_pending_write',
      'reject_pending_write',
      'driver_location_report',
      'release_broker_order_assignment',
    ])
      assert.ok(!adminTools.includes(name), name);
    const create = ask.body.tools!.find((t) => t.function.name === 'create_order')!;
    assert.ok(create.function.parameters.properties, 'the JSON Schema of its input');
    // The read's answer went back to the model.
    const toolMessage = followUp.body.messages.find((m) => m.role === 'tool')!;
    assert.ok(toolMessage.content!.includes(`READ-${biz.tag}`));

    // An employee is offered the same reads, but not the client admin's writes.
    const before = model.requests.length;
    const mine = await turn({ message: 'Hello' }, tokens.employee);
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    const employeeTools = offered(before);
    assert.ok(employeeTools.includes('create_order'));
    assert.ok(!employeeTools.includes('assign_orders_to_broker'));
    assert.ok(!employeeTools.includes('revoke_broker_order_assignments'));
  });

  test('a turn whose write becomes a proposal: nothing is written until another person approves it', async () => {
    const ref = `AI-${biz.tag}`;
    model.script({ call: 'create_order', arguments: orderArguments(ref) }, { answer: 'I have asked for the order.' });
    const res = await turn({ message: `Create an order ${ref} for Ada` }, tokens.admin, 'fr');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [call] = res.body.tool_calls;
    assert.equal(call.tool, 'create_order');
    assert.equal(call.outcome, 'proposed');
    assert.equal(typeof call.approval_id, 'number');
    assert.ok(res.body.answer.startsWith('I have asked for the order.'));
    assert.ok(res.body.answer.includes(`create_order (approbation ${call.approval_id})`), res.body.answer);
    assert.equal(await ordersWithRef(ref), 0, 'nothing written by the turn');

    const pending = await app.http.get(`/v1/mcp/approvals/${call.approval_id}`, { token: tokens.employee });
    assert.equal(pending.status, 200);
    assert.equal(pending.body.approval.status, 'pending');
    assert.equal(pending.body.approval.proposed_by.id, biz.users.admin.id);
    const self = await app.http.post(`/v1/mcp/approvals/${call.approval_id}/approve`, {}, { token: tokens.admin });
    assert.equal(self.body.code, 'SELF_APPROVAL');
    const approved = await app.http.post(
      `/v1/mcp/approvals/${call.approval_id}/approve`,
      {},
      { token: tokens.employee },
    );
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.approval.status, 'done', JSON.stringify(approved.body));
    assert.equal(await ordersWithRef(ref), 1, 'written once approved');
  });

  test('a write the tool refuses is recorded as refused, and a conversation goes on and is read back', async () => {
    model.script({ call: 'create_order', arguments: { order_ref: 'x' } }, { answer: 'That did not work.' });
    const first = await turn({ message: 'Create a bad order' }, tokens.employee);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(
      first.body.tool_calls.map((c: { outcome: string; error_code: string }) => [c.outcome, c.error_code]),
      [['refused', 'VALIDATION_FAILED']],
    );
    const id = first.body.conversation_id;

    const before = model.requests.length;
    const second = await turn({ message: 'And now?', conversation_id: id }, tokens.employee);
    assert.equal(second.status, 200);
    assert.equal(second.body.conversation_id, id);
    const sent = model.requests[before]!.body.messages.map((m) => [m.role, m.content]);
    assert.deepEqual(sent.slice(1), [
      ['user', 'Create a bad order'],
      ['assistant', 'That did not work.'],
      ['user', 'And now?'],
    ]);

    const other = await turn({ message: 'Hi', conversation_id: id }, tokens.admin);
    assert.equal(other.status, 404, "another person's conversation is not continued");

    const read = await app.http.get(`/v1/ai-agent/conversations/${id}`, { token: tokens.employee });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.equal(read.body.total, 2);
    assert.equal(read.body.conversation.started_by.id, biz.users.employee.id);
    assert.deepEqual(
      read.body.turns.map((t: { question: string; status: string }) => [t.question, t.status]),
      [
        ['Create a bad order', 'answered'],
        ['And now?', 'answered'],
      ],
    );
    assert.equal((await app.http.get(`/v1/ai-agent/conversations/${id}`, { token: tokens.admin })).status, 200);
    assert.equal((await app.http.get('/v1/ai-agent/conversations/2000000000', { token: tokens.admin })).status, 404);
    const stranger = await makeBusiness(app.em());
    await switchOn(stranger);
    await cacheCaughtUp(app, app);
    const strangerToken = await app.login(stranger.users.admin.email, PASSWORD);
    const leaked = await app.http.get(`/v1/ai-agent/conversations/${id}`, { token: strangerToken });
    assert.equal(leaked.status, 404, "another business's conversation is not found");
  });

  test('only client admins and employees: 403 for a driver, a customer and a contractor', async () => {
    for (const who of ['driver', 'customer', 'broker'] as const) {
      const res = await turn({ message: 'Hi' }, tokens[who]);
      assert.equal(res.status, 403, who);
      assert.equal(res.body.code, 'FORBIDDEN');
    }
  });

  test('while the family is off for the business: 409 {result: false, feature_enabled: false}, nothing counted', async () => {
    const off = await makeBusiness(app.em());
    const token = await app.login(off.users.admin.email, PASSWORD);
    const asked = model.requests.length;
    for (const res of [
      await turn({ message: 'Hi' }, token),
      await app.http.get('/v1/ai-agent/conversations/1', { token }),
    ]) {
      assert.equal(res.status, 409);
      assert.equal(res.body.result, false);
      assert.equal(res.body.feature_enabled, false);
      assert.equal(res.body.code, 'FEATURE_DISABLED');
    }
    assert.equal(model.requests.length, asked, 'the model was not asked');
    assert.equal(await turnsToday(off), 0);
  });

  test('bad input is refused before anything is counted', async () => {
    const before = await turnsToday(biz);
    for (const body of [{}, { message: '' }, { message: 'x'.repeat(4001) }, { message: 'hi', extra: 1 }]) {
      const res = await turn(body, tokens.admin, 'de');
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.code, 'VALIDATION_FAILED');
    }
    assert.equal((await turn({ message: 'hi', conversation_id: 999999999 }, tokens.admin)).status, 404);
    assert.equal(await turnsToday(biz), before);
  });

  test("a failing model answers 502 AI_MODEL_FAILED and gives the turn's slot back", async () => {
    const b = await makeBusiness(app.em());
    await switchOn(b);
    await cacheCaughtUp(app, app);
    const token = await app.login(b.users.admin.email, PASSWORD);
    model.script({ status: 500 });
    const res = await turn({ message: 'Hi' }, token, 'es');
    assert.equal(res.status, 502, JSON.stringify(res.body));
    assert.equal(res.body.code, 'AI_MODEL_FAILED');
    assert.ok(!JSON.stringify(res.body).includes(KEY));
    assert.equal(await turnsToday(b), 0, 'the slot was given back');
    const stored = await app.http.get(`/v1/ai-agent/conversations/${res.body.conversation_id}`, { token });
    assert.equal(stored.body.turns[0].status, 'failed');
  });

  test('past the daily cap: 429 with error_code DAILY_CAP_REACHED and Retry-After until the next day', async () => {
    const b = await makeBusiness(app.em());
    await switchOn(b);
    await setCap(b, 2);
    await cacheCaughtUp(app, app);
    const token = await app.login(b.users.employee.email, PASSWORD);
    const used = [];
    for (let i = 0; i < 2; i++) {
      const res = await turn({ message: `Turn ${i}` }, token);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      used.push([res.body.turns_used_today, res.body.daily_cap]);
    }
    assert.deepEqual(used, [
      [1, 2],
      [2, 2],
    ]);
    const asked = model.requests.length;
    const refused = await turn({ message: 'One more' }, token, 'de');
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assert.equal(refused.body.result, false);
    assert.equal(refused.body.code, 'DAILY_CAP_REACHED');
    assert.equal(refused.body.error_code, 'DAILY_CAP_REACHED');
    assert.match(refused.body.message, /2/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 86_400, String(retryAfter));
    assert.equal(refused.body.retry_after, retryAfter);
    assert.equal(model.requests.length, asked, 'the model was not asked');
    assert.equal(await turnsToday(b), 2);
  });

  test('with one slot left, parallel turns yield exactly one success', async () => {
    const b = await makeBusiness(app.em());
    await switchOn(b);
    await setCap(b, 3);
    await cacheCaughtUp(app, app);
    const [admin, employee] = [
      await app.login(b.users.admin.email, PASSWORD),
      await app.login(b.users.employee.email, PASSWORD),
    ];
    for (let i = 0; i < 2; i++) assert.equal((await turn({ message: `Warm-up ${i}` }, admin)).status, 200);
    const racing = await Promise.all(
      Array.from({ length: 8 }, (_, i) => turn({ message: `Race ${i}` }, i % 2 ? admin : employee)),
    );
    const statuses = racing.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 429, 429, 429, 429, 429, 429, 429], JSON.stringify(racing.map((r) => r.body)));
    assert.equal(racing.find((r) => r.status === 200)!.body.turns_used_today, 3);
    assert.equal(await turnsToday(b), 3);
  });

  test("503 AI_AGENT_NOT_CONFIGURED while the service has no model, in the caller's language", async () => {
    const bare = await startApp(
      { AI_AGENT_MODEL_URL: '', AI_AGENT_MODEL_KEY: '', AI_AGENT_MODEL: '' },
      { worker: false },
    );
    try {
      assert.equal(bare.config.aiAgentModel, null);
      const token = await bare.login(biz.users.admin.email, PASSWORD);
      const before = await turnsToday(biz);
      const res = await bare.http.post('/v1/ai-agent/turns', { message: 'Hi' }, { token, lang: 'de' });
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.code, 'AI_AGENT_NOT_CONFIGURED');
      assert.match(res.body.message, /KI-Agent/);
      assert.equal((await bare.http.get('/v1/ai-agent/conversations/1', { token })).status, 503);
      assert.equal(await turnsToday(biz), before);
    } finally {
      await bare.running.close();
    }
  });
});

test("the model's configuration: http(s) only, a name with the URL, the key kept apart", () => {
  assert.equal(loadConfig({}).aiAgentModel, null);
  assert.throws(
    () => loadConfig({ AI_AGENT_MODEL_URL: 'ftp://models.example/v1', AI_AGENT_MODEL: 'm' }),
    /AI_AGENT_MODEL_URL/,
  );
  assert.throws(() => loadConfig({ AI_AGENT_MODEL_URL: 'https://models.example/v1' }), /AI_AGENT_MODEL/);
  assert.deepEqual(
    loadConfig({ AI_AGENT_MODEL_URL: 'https://models.example/v1/', AI_AGENT_MODEL: 'm', AI_AGENT_MODEL_KEY: 'k' })
      .aiAgentModel,
    { url: 'https://models.example/v1', key: 'k', model: 'm', timeoutMs: 60_000, allowPrivate: false },
  );
});
