/**
 * One turn of the Operations AI Agent: the person's question, answered by the model, which may call the MCP user
 * server's tools the person may use (docs/mcp.md). The tools are the MCP server's own (platform/catalog/mcpTools.ts),
 * filtered as its tools/list filters them, and every call goes through the one runner as the person, marked as an
 * agent's call. A read tool runs; a write tool never runs from a turn: it is proposed to the approval queue through
 * `propose_write`, the operation MCP agents propose with, and runs once a person of the business approves it.
 */
import { toolsOf, CONFIRM, type Tool } from '../../platform/catalog/mcpTools.ts';
import { holdsScope, runOperation } from '../../platform/catalog/run.ts';
import { isRead } from '../../platform/catalog/tools.ts';
import type { BusinessContext, Operation, OperationContext } from '../../platform/catalog/types.ts';
import { errorBody } from '../../platform/errorBody.ts';
import { AppError } from '../../platform/errors.ts';
import { translate } from '../../platform/i18n/messages.ts';
import { isObject } from '../../platform/json.ts';
import { proposable, withSecretsMasked } from '../approvals/index.ts';
import {
  BAD_ARGUMENTS,
  MAX_MODEL_CALLS,
  MAX_TOOL_CALLS_PER_STEP,
  MAX_TOOL_RESULT_CHARS,
  TOO_MANY_CALLS,
  UNKNOWN_TOOL,
  type ToolCallRecord,
  type TurnStatus,
  type Usage,
} from './domain.ts';
import { chatCompletion, ModelFailure, type ChatMessage, type ChatTool, type ModelConfig } from './model.ts';

/** The approval queue's operation a write is proposed through. */
const PROPOSE_WRITE = 'propose_write';

/**
 * The tools offered to the model for this caller: the user server's tools its role may use and its grant's scopes
 * hold (a person signed in holds every scope; an agent's connection its own), reads and the writes a proposal may
 * name. Never the approval queue's own tools, nor one that runs other operations.
 */
export function offeredTools(catalog: readonly Operation[], ctx: BusinessContext): Tool[] {
  const scopes = ctx.agent?.scopes ?? '*';
  const offered = (op: Tool['op']) => isRead(op) || proposable(op);
  return toolsOf(catalog, 'user').filter(
    (t) =>
      (t.op.roles === 'public' || t.op.roles.includes(ctx.caller.role)) &&
      holdsScope(scopes, t.op.mcp.scope) &&
      offered(t.op),
  );
}

/** A tool in the chat-completions declaration; `confirm` is left out, since a write is proposed, never confirmed. */
function declared(tool: Tool): ChatTool {
  const { [CONFIRM]: _confirm, ...properties } = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: { ...tool.inputSchema, properties } },
  };
}

export interface TurnOutcome {
  status: Exclude<TurnStatus, 'failed'>;
  answer: string;
  toolCalls: ToolCallRecord[];
  usage: Usage | null;
}

/** A model failure with what the turn did before it, for the record. */
export class TurnFailed extends Error {
  readonly failure: ModelFailure;
  readonly toolCalls: ToolCallRecord[];
  readonly usage: Usage | null;
  constructor(failure: ModelFailure, toolCalls: ToolCallRecord[], usage: Usage | null) {
    super(failure.message);
    this.failure = failure;
    this.toolCalls = toolCalls;
    this.usage = usage;
  }
}

const shown = (value: unknown): string => {
  const text = JSON.stringify(withSecretsMasked(value) ?? null);
  return text.length > MAX_TOOL_RESULT_CHARS ? `${text.slice(0, MAX_TOOL_RESULT_CHARS)}… [cut]` : text;
};

function systemPrompt(ctx: BusinessContext): string {
  return [
    `You are the operations assistant of a transport management service, helping ${ctx.caller.name} (role: ${ctx.caller.role}) of their business.`,
    `Today is ${new Date().toISOString().slice(0, 10)} (UTC). Answer in the language whose tag is "${ctx.lang}", briefly and factually.`,
    'Use the tools to look things up; the tools offered are exactly those this person may use.',
    'A tool that changes something is never carried out by you: calling it files a proposal that a person of the business must approve, and the tool answers the approval id. Say so plainly, with the id.',
    'Never invent data you did not read through a tool.',
  ].join('\n');
}

/** Runs the turn: at most MAX_MODEL_CALLS model calls, the last without tools. */
export async function runTurn(
  ctx: BusinessContext,
  catalog: readonly Operation[],
  model: ModelConfig,
  question: string,
  history: readonly { question: string; answer: string }[],
): Promise<TurnOutcome> {
  const tools = offeredTools(catalog, ctx);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const chatTools = tools.map(declared);
  const found = catalog.find((op) => op.name === PROPOSE_WRITE);
  if (!found) throw new Error(`the catalog has no ${PROPOSE_WRITE}`);
  const propose: Operation = found;
  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt(ctx) },
    ...history.flatMap((h): ChatMessage[] => [
      { role: 'user', content: h.question },
      { role: 'assistant', content: h.answer },
    ]),
    { role: 'user', content: question },
  ];
  const toolCalls: ToolCallRecord[] = [];
  let usage: Usage | null = null;

  // Each tool call runs as the person, marked as an agent's call with the person's scopes, on its own unit of work.
  const agentCtx = (): OperationContext => ({
    ...ctx,
    em: ctx.em.fork(),
    agent: { scopes: ctx.agent?.scopes ?? '*', confirmed: false },
  });

  async function call(name: string, rawArguments: string): Promise<string> {
    const tool = byName.get(name);
    let args: unknown;
    try {
      args = JSON.parse(rawArguments || '{}');
    } catch {
      args = undefined;
    }
    const record = (r: Omit<ToolCallRecord, 'tool' | 'arguments'>) =>
      toolCalls.push({ tool: name, arguments: withSecretsMasked(isObject(args) ? args : {}), ...r });
    if (!tool) {
      record({ outcome: 'refused', approval_id: null, error_code: UNKNOWN_TOOL });
      return shown({ result: false, code: UNKNOWN_TOOL, message: `No tool named ${name.slice(0, 100)} is offered.` });
    }
    if (!isObject(args)) {
      record({ outcome: 'refused', approval_id: null, error_code: BAD_ARGUMENTS });
      return shown({ result: false, code: BAD_ARGUMENTS, message: 'The arguments must be a JSON object.' });
    }
    const write = !isRead(tool.op);
    try {
      if (!write) {
        const result = await runOperation(tool.op, args, agentCtx());
        record({ outcome: 'ran', approval_id: null, error_code: null });
        return shown(result);
      }
      const proposal = (await runOperation(
        propose,
        { tool: name, server: 'user', arguments: args, reason: `Operations AI Agent: ${question}`.slice(0, 500) },
        agentCtx(),
      )) as { approval: { id: number } };
      record({ outcome: 'proposed', approval_id: proposal.approval.id, error_code: null });
      return shown({
        result: true,
        proposed: true,
        approval_id: proposal.approval.id,
        status: 'pending',
        note: 'Nothing is changed until a person of the business approves this proposal.',
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      record({ outcome: 'refused', approval_id: null, error_code: err.code });
      return shown(errorBody(err, ctx.lang));
    }
  }

  function tooMany(name: string): string {
    toolCalls.push({ tool: name, arguments: {}, outcome: 'refused', approval_id: null, error_code: TOO_MANY_CALLS });
    return shown({ result: false, code: TOO_MANY_CALLS, message: `At most ${MAX_TOOL_CALLS_PER_STEP} calls a step.` });
  }

  for (let step = 1; step <= MAX_MODEL_CALLS; step++) {
    const last = step === MAX_MODEL_CALLS;
    let completion;
    try {
      completion = await chatCompletion(model, { messages, tools: chatTools, toolChoice: last ? 'none' : 'auto' });
    } catch (err) {
      if (err instanceof ModelFailure) throw new TurnFailed(err, toolCalls, usage);
      throw err;
    }
    if (completion.usage) {
      usage ??= { prompt_tokens: 0, completion_tokens: 0 };
      usage.prompt_tokens += completion.usage.prompt_tokens ?? 0;
      usage.completion_tokens += completion.usage.completion_tokens ?? 0;
    }
    const message = completion.choices[0]!.message;
    const asked = message.tool_calls ?? [];
    if (asked.length === 0) return finished('answered', (message.content ?? '').trim());
    if (last) break;
    messages.push({
      role: 'assistant',
      content: message.content ?? null,
      tool_calls: asked.map((c) => ({ id: c.id, type: 'function' as const, function: c.function })),
    });
    for (const [i, c] of asked.entries()) {
      const content =
        i < MAX_TOOL_CALLS_PER_STEP ? await call(c.function.name, c.function.arguments) : tooMany(c.function.name);
      messages.push({ role: 'tool', tool_call_id: c.id, content });
    }
  }
  return finished('step_limit', translate('ai_agent.step_limit', ctx.lang, { calls: MAX_MODEL_CALLS }));

  /** The answer, naming each proposal with its approval id whatever the model wrote. */
  function finished(status: TurnOutcome['status'], text: string): TurnOutcome {
    const proposals = toolCalls
      .filter((c) => c.outcome === 'proposed')
      .map((c) => translate('ai_agent.proposal', ctx.lang, { tool: c.tool, id: c.approval_id! }));
    const notice = proposals.length
      ? translate('ai_agent.proposed', ctx.lang, { proposals: proposals.join(', ') })
      : '';
    return { status, answer: [text, notice].filter(Boolean).join('\n\n'), toolCalls, usage };
  }
}
