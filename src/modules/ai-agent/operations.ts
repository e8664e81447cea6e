/**
 * The Operations AI Agent (issue 35 section 4, docs/opt-in-families.md): a person of a business asks, a model answers,
 * calling the MCP user server's tools the person may use; writes wait in the approval queue. Built around the catalog
 * whose tools it offers, as the approval queue is.
 */
import { offsetOf, pageOf } from '../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext, type Operation } from '../../platform/catalog/types.ts';
import { AppError, errors } from '../../platform/errors.ts';
import { aiAgentDailyTurnCap, FAMILY_FAILURES, requireFamily } from '../platform-admin/index.ts';
import { AGENT_ROLES, HISTORY_TURNS } from './domain.ts';
import { fail } from './errorCodes.ts';
import { modelReachable } from './model.ts';
import * as repo from './repo.ts';
import { runTurn, TurnFailed } from './turn.ts';
import { conversationInput, conversationOutput, conversationView, turnInput, turnOutput, turnView } from './views.ts';

const TAG = 'Operations AI Agent';

/** The family's guard, then its model: every operation refuses in this order (docs/opt-in-families.md). */
async function agentReady(ctx: BusinessContext) {
  await requireFamily(ctx, 'ai_agent');
  const model = ctx.config.aiAgentModel;
  if (!model) throw fail('AI_AGENT_NOT_CONFIGURED', 'ai_agent.not_configured');
  if (!modelReachable(model)) {
    ctx.log.warn('AI_AGENT_MODEL_URL names a private address and AI_AGENT_MODEL_ALLOW_PRIVATE is off');
    throw fail('AI_AGENT_NOT_CONFIGURED', 'ai_agent.not_configured');
  }
  return model;
}

const dailyCapReached = (cap: number, seconds: number) =>
  new AppError(429, 'DAILY_CAP_REACHED', 'ai_agent.daily_cap_reached', {
    params: { cap, seconds },
    extra: { error_code: 'DAILY_CAP_REACHED', retry_after: seconds },
    headers: { 'Retry-After': String(seconds) },
  });

const FAILURES = {
  ...FAMILY_FAILURES,
  AI_AGENT_NOT_CONFIGURED: true,
} as const;

export function aiAgentOperations(catalog: () => readonly Operation[]) {
  const turn = defineOperation({
    name: 'ai_agent_turn',
    summary:
      "Ask the Operations AI Agent: a model answers, reading through the MCP tools the caller may use; writes it wants wait for a person's approval.",
    description:
      "The model sees the MCP user server's tools the caller's role may use (docs/mcp.md). A read tool runs as the caller; a write tool never runs from a turn: it becomes a proposal in the approval queue (list_pending_approvals), which another person of the business approves or rejects, and the answer names each with its approval id. Send `conversation_id` to continue one of the caller's own conversations (NOT_FOUND otherwise). Each turn counts against the business's daily turn cap (its day in its time zone); past it the answer is DAILY_CAP_REACHED (429, with `error_code` and Retry-After until the business's next day). A model that fails or does not answer in time answers AI_MODEL_FAILED (502) and gives the turn back. For client admins and employees (FORBIDDEN otherwise); FEATURE_DISABLED (409, `feature_enabled: false`) while the family is switched off for the business; AI_AGENT_NOT_CONFIGURED (503) while the service has no model.",
    tag: TAG,
    roles: AGENT_ROLES,
    business: true,
    rest: { method: 'POST', path: '/v1/ai-agent/turns' },
    failures: {
      ...FAILURES,
      NOT_FOUND: 'No such conversation of the caller',
      DAILY_CAP_REACHED: true,
      AI_MODEL_FAILED: true,
    },
    input: turnInput,
    output: turnOutput,
    examples: {
      input: { message: 'Which orders are still waiting for pickup today?' },
      output: {
        result: true,
        conversation_id: 12,
        turn_id: 40,
        status: 'answered',
        answer:
          'Two orders are waiting for pickup: TMS-1001 and TMS-1002.\n\nWaiting for approval (nothing is changed until a person of the business approves it): create_order (approval 7).',
        tool_calls: [
          { tool: 'get_orders', arguments: { status: 'pending' }, outcome: 'ran', approval_id: null, error_code: null },
          {
            tool: 'create_order',
            arguments: { reference: 'R-1' },
            outcome: 'proposed',
            approval_id: 7,
            error_code: null,
          },
        ],
        usage: { prompt_tokens: 1830, completion_tokens: 96 },
        turns_used_today: 3,
        daily_cap: 200,
      },
    },
    async handler(input, ctx) {
      const model = await agentReady(ctx);
      const businessId = ctx.caller.businessId;
      const conversation =
        input.conversation_id === undefined
          ? null
          : await repo.conversationOf(ctx.em, businessId, input.conversation_id);
      if (input.conversation_id !== undefined && conversation?.user_id !== ctx.caller.id) throw errors.notFound();
      const cap = await aiAgentDailyTurnCap(ctx, businessId);
      // Counted first, outside any transaction of the call's, by one statement: the last slot goes to one turn only.
      const counted = await repo.countTurn(ctx.countsEm, businessId, cap);
      if (!counted) throw dailyCapReached(cap, await repo.secondsToNextDay(ctx.countsEm, businessId));
      const history = conversation ? await repo.historyOf(ctx.em, conversation.id, HISTORY_TURNS) : [];
      const base = {
        conversationId: conversation?.id ?? null,
        businessId,
        userId: ctx.caller.id,
        question: input.message,
      };
      let outcome;
      try {
        outcome = await runTurn(ctx, catalog(), model, input.message, history);
      } catch (err) {
        // The business got no answer: its slot is given back, and what the turn did (proposals made) is kept.
        await repo.giveTurnBack(ctx.countsEm, businessId, counted.day);
        if (!(err instanceof TurnFailed)) throw err;
        ctx.log.warn({ reason: err.failure.reason }, 'Operations AI Agent model call failed');
        const saved = await repo.saveTurn(ctx.em, {
          ...base,
          answer: null,
          status: 'failed',
          toolCalls: err.toolCalls,
          usage: err.usage,
        });
        throw new AppError(502, 'AI_MODEL_FAILED', 'ai_agent.model_failed', {
          extra: { conversation_id: saved.conversationId, turn_id: saved.turnId },
        });
      }
      const saved = await repo.saveTurn(ctx.em, {
        ...base,
        answer: outcome.answer,
        status: outcome.status,
        toolCalls: outcome.toolCalls,
        usage: outcome.usage,
      });
      return {
        result: true as const,
        conversation_id: saved.conversationId,
        turn_id: saved.turnId,
        status: outcome.status,
        answer: outcome.answer,
        tool_calls: outcome.toolCalls,
        usage: outcome.usage,
        turns_used_today: counted.turns,
        daily_cap: cap,
      };
    },
  });

  const conversationGet = defineOperation({
    name: 'ai_agent_conversation_get',
    summary: 'Read an Operations AI Agent conversation: its turns, oldest first, with their answers and tool calls.',
    description:
      "Each turn has the question, the answer (null where the model failed), its status (answered, step_limit, failed), the tool calls with their outcome (ran, proposed with the approval id, refused with the code) and the model's token counts. An employee reads only its own conversations; a client admin reads any of the business's. Another's, or another business's, is NOT_FOUND. 50 turns a page by default (`page`, `per_page` up to 200) with the `total`. For client admins and employees (FORBIDDEN otherwise); FEATURE_DISABLED (409) while the family is off; AI_AGENT_NOT_CONFIGURED (503) while the service has no model.",
    tag: TAG,
    roles: AGENT_ROLES,
    business: true,
    rest: { method: 'GET', path: '/v1/ai-agent/conversations/{id}' },
    failures: { ...FAILURES, NOT_FOUND: 'No such conversation the caller may read' },
    input: conversationInput,
    output: conversationOutput,
    async handler(input, ctx) {
      await agentReady(ctx);
      const conversation = await repo.conversationOf(ctx.em, ctx.caller.businessId, input.id);
      // A conversation holds what its person's tools read: the business's client admin may read it, no other employee.
      if (!conversation || (conversation.user_id !== ctx.caller.id && ctx.caller.role !== 'client_admin'))
        throw errors.notFound();
      const [total, rows] = await Promise.all([
        repo.countTurns(ctx.em, conversation.id),
        repo.turnsOf(ctx.em, conversation.id, input.per_page, offsetOf(input)),
      ]);
      return { ...pageOf(input, 'turns', total, rows.map(turnView)), conversation: conversationView(conversation) };
    },
  });

  return [turn, conversationGet];
}
