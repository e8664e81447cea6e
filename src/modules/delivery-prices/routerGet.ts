/**
 * One GET to the road router (ROUTER_URL), for the price's route and the route build's table: never redirected (a 3xx
 * is an error status), and unless `allowPrivate` never reaching a loopback, private or link-local address, by literal
 * (judged here, since a literal is dialled without a lookup) or after DNS (the webhooks' guardedLookup). An answer
 * longer than `maxBytes` is a failure.
 */
import http from 'node:http';
import https from 'node:https';
import { guardedLookup, isPrivateUrl } from '../webhooks/index.ts';

const agents = {
  open: { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) },
  guarded: {
    'http:': new http.Agent({ keepAlive: true, lookup: guardedLookup }),
    'https:': new https.Agent({ keepAlive: true, lookup: guardedLookup }),
  },
};

export interface RouterGetOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
  /** Aborts the call; its error is then passed on as it is. */
  signal?: AbortSignal;
}

export function routerGet(url: string, opts: RouterGetOptions): Promise<{ status: number; text: string }> {
  if (!opts.allowPrivate && isPrivateUrl(url)) return Promise.reject(new Error('refused: a private address'));
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const agent = (opts.allowPrivate ? agents.open : agents.guarded)[target.protocol as 'http:' | 'https:'];
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      { method: 'GET', agent, signal, headers: { accept: 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > opts.maxBytes) req.destroy(new Error('the answer is too large'));
          else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      reject(
        opts.signal?.aborted
          ? err
          : err.name === 'AbortError' || err.name === 'TimeoutError'
            ? new Error(`no answer within ${opts.timeoutMs} ms`)
            : err.code === 'EPRIVATETARGET'
              ? new Error('refused: a private address')
              : err,
      ),
    );
    req.end();
  });
}
