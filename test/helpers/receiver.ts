import http from 'node:http';

export interface Received {
  /** The request's path and query. */
  url: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** What the receiver answers to the n-th request (0-based): a status, a status with a JSON body, or 'hang' to answer only after 5 s. */
export type Behaviour = (n: number, req: Received) => number | { status: number; json: unknown } | 'hang';

/** A real HTTP webhook receiver on a free port that records raw bodies and headers. */
export async function startReceiver(behaviour: Behaviour = () => 200, port = 0) {
  const received: Received[] = [];
  let behave = behaviour;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Received = {
        url: req.url ?? '',
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const n = received.push(entry) - 1;
      const answer = behave(n, entry);
      const reply = (status: number) => {
        if (!res.writableEnded) res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      };
      if (answer === 'hang') setTimeout(() => reply(200), 5_000).unref();
      else if (typeof answer === 'number') reply(answer);
      else res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    received,
    behave(b: Behaviour) {
      behave = b;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
