/**
 * A scripted OpenAI-compatible chat-completions server on the loopback, for the Operations AI Agent's tests: real
 * HTTP, answering `POST /v1/chat/completions` from a queue of scripted steps (a tool call, a final answer, a failure)
 * and, once the queue is empty, a plain final answer. It records every request (headers and parsed body), so a test
 * sees the tools offered, the messages sent and the key.
 */
import http from 'node:http';

export interface ModelRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: {
    model: string;
    messages: { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }[];
    tools?: { type: string; function: { name: string; description: string; parameters: Record<string, unknown> } }[];
    tool_choice?: string;
  };
}

export type Step = { call: string; arguments: Record<string, unknown> } | { answer: string } | { status: number };

export async function startScriptedModel() {
  const requests: ModelRequest[] = [];
  const script: Step[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      const step = script.shift() ?? { answer: 'Nothing else to report.' };
      if ('status' in step) {
        res.writeHead(step.status, { 'content-type': 'application/json' }).end('{"error":{"message":"scripted"}}');
        return;
      }
      const message =
        'call' in step
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: `call_${++n}`,
                  type: 'function',
                  function: { name: step.call, arguments: JSON.stringify(step.arguments) },
                },
              ],
            }
          : { role: 'assistant', content: step.answer };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${n}`,
          object: 'chat.completion',
          model: 'scripted',
          choices: [{ index: 0, message, finish_reason: 'call' in step ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    /** The base URL the service is configured with (AI_AGENT_MODEL_URL). */
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`,
    requests,
    /** Queues the next steps the model answers, in order. */
    script: (...steps: Step[]) => script.push(...steps),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
