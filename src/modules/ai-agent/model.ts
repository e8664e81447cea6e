/**
 * The Operations AI Agent's model: any OpenAI-compatible chat-completions API, at the URL the operator configured
 * (AI_AGENT_MODEL_URL; the call POSTs `{url}/chat/completions` with AI_AGENT_MODEL_KEY as a Bearer key). Like a
 * webhook, the call never follows a redirect, ends after AI_AGENT_MODEL_TIMEOUT_MS, and unless
 * AI_AGENT_MODEL_ALLOW_PRIVATE is on never reaches a loopback, private or link-local address, by literal or after DNS
 * (the webhooks' guard). The key is never logged: a failure says what went wrong, never what was sent.
 */
import http from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import type { Config } from '../../platform/config.ts';
import { guardedLookup, isPrivateUrl } from '../webhooks/index.ts';

export type ModelConfig = NonNullable<Config['aiAgentModel']>;

/** What is read of an answer at most; a longer one is a failure. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** A message as the chat-completions API takes it. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

const Completion = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string().min(1).max(200),
                type: z.literal('function').optional(),
                function: z.object({ name: z.string().max(200), arguments: z.string().default('{}') }),
              }),
            )
            .nullish(),
        }),
      }),
    )
    .min(1),
  usage: z
    .object({ prompt_tokens: z.number().int().nonnegative(), completion_tokens: z.number().int().nonnegative() })
    .partial()
    .nullish(),
});
export type Completion = z.infer<typeof Completion>;

/** A model call that gave no usable answer; `reason` is for the log (never the key or the prompt). */
export class ModelFailure extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`model call failed: ${reason}`);
    this.reason = reason;
  }
}

/** Whether the configured URL is one the service may call: a private address only where the operator allows it. */
export const modelReachable = (model: ModelConfig) => model.allowPrivate || !isPrivateUrl(model.url);

const agents = {
  open: { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) },
  guarded: {
    'http:': new http.Agent({ keepAlive: true, lookup: guardedLookup }),
    'https:': new https.Agent({ keepAlive: true, lookup: guardedLookup }),
  },
};

/** One chat completion: the request's model, messages and tools; the first choice's message and the usage. */
export async function chatCompletion(
  model: ModelConfig,
  request: { messages: ChatMessage[]; tools: ChatTool[]; toolChoice: 'auto' | 'none' },
): Promise<Completion> {
  const body = JSON.stringify({
    model: model.model,
    messages: request.messages,
    ...(request.tools.length > 0 && { tools: request.tools, tool_choice: request.toolChoice }),
  });
  const { status, text } = await post(model, `${model.url}/chat/completions`, body);
  if (status < 200 || status >= 300) throw new ModelFailure(`HTTP ${status}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ModelFailure('the answer is not JSON');
  }
  const parsed = Completion.safeParse(json);
  if (!parsed.success) throw new ModelFailure('the answer is not a chat completion');
  return parsed.data;
}

function post(model: ModelConfig, url: string, body: string): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  // An address literal is dialled without a lookup, so guardedLookup never sees it: it is judged here.
  if (!model.allowPrivate && isPrivateUrl(url)) return Promise.reject(new ModelFailure('refused: a private address'));
  const client = target.protocol === 'https:' ? https : http;
  const agent = (model.allowPrivate ? agents.open : agents.guarded)[target.protocol as 'http:' | 'https:'];
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        agent,
        signal: AbortSignal.timeout(model.timeoutMs),
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          ...(model.key !== null && { authorization: `Bearer ${model.key}` }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new ModelFailure('the answer is too large'));
          else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err) => reject(failureOf(err, model)));
      },
    );
    req.on('error', (err) => reject(failureOf(err, model)));
    req.end(body);
  });
}

function failureOf(err: NodeJS.ErrnoException, model: ModelConfig): ModelFailure {
  if (err instanceof ModelFailure) return err;
  if (err.name === 'AbortError' || err.name === 'TimeoutError')
    return new ModelFailure(`no answer within ${model.timeoutMs} ms`);
  if (err.code === 'EPRIVATETARGET') return new ModelFailure('refused: a private address');
  return new ModelFailure(err.code ?? 'connection failed');
}
