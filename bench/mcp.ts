/**
 * Section 10: an MCP `tools/call` of a read tool (get_orders, a page of 50) against the same operation over REST
 * (GET /api/v1/orders?per_page=50), with the same client, token and concurrency, timed in alternating rounds. The
 * aim is at least 0.8 of REST's throughput: the MCP layer (JSON-RPC, the scopes, the output-schema check, an answer
 * that carries the result twice) should cost little beside the operation itself.
 */
import { load, type LoadRun } from './load.ts';
import { merged } from './reads.ts';

export const MCP_IN_FLIGHT = 64;
const WARMUP = 300;
const ROUNDS = 3;

export async function mcpBench(appUrl: string, token: string, calls: number): Promise<{ rest: LoadRun; mcp: LoadRun }> {
  const rest = async () => {
    const res = await fetch(`${appUrl}/api/v1/orders?per_page=50`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET orders ${res.status}`);
  };
  const mcp = async (i: number) => {
    const res = await fetch(`${appUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-mcp-profile': 'ops-readonly',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'get_orders', arguments: { per_page: 50 } },
      }),
    });
    const text = await res.text();
    if (!res.ok || !text.includes('"result"') || text.includes('"isError":true'))
      throw new Error(`tools/call get_orders ${res.status}: ${text.slice(0, 200)}`);
  };
  for (const task of [rest, mcp]) await load(WARMUP, MCP_IN_FLIGHT, task);
  const runs: Record<'rest' | 'mcp', LoadRun[]> = { rest: [], mcp: [] };
  for (let round = 0; round < ROUNDS; round++) {
    runs.rest.push(await load(Math.ceil(calls / ROUNDS), MCP_IN_FLIGHT, rest));
    runs.mcp.push(await load(Math.ceil(calls / ROUNDS), MCP_IN_FLIGHT, mcp));
  }
  return { rest: merged(runs.rest), mcp: merged(runs.mcp) };
}
