/**
 * One MCP tools/call over HTTP with a session token, as an agent makes it: the answer is read whether the server
 * chose plain JSON or an event stream, and the tool's JSON text is parsed.
 */
export async function callTool(
  baseUrl: string,
  token: string,
  name: string,
  args: object,
  server: '/mcp' | '/mcp/developer' = '/mcp',
  headers: Record<string, string> = {},
): Promise<{ isError: boolean; body: any }> {
  const res = await fetch(`${baseUrl}${server}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await res.text();
  const json = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6);
  const result = JSON.parse(json).result as { isError?: boolean; content: { text: string }[] };
  return { isError: result.isError === true, body: JSON.parse(result.content[0]!.text) };
}
