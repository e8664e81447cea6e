import http from 'node:http';
import https from 'node:https';
import { guardedLookup, isPrivateUrl } from './targetPolicy.ts';

/** The specification's request timeout: a receiver that has not answered in 3 s has failed this attempt. */
export const REQUEST_TIMEOUT_MS = 3_000;
/** What is read of an answer when the caller needs it (the OHP challenge echo); the rest is dropped. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface OutboundResult {
  status: number | null;
  error: string | null;
  /** The answer's body, when asked for. */
  body?: string;
}

export interface OutboundOptions {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: local and private receivers are allowed (development and tests). */
  allowPrivate: boolean;
  readBody?: boolean;
}

// Keep-alive per scheme; the guarded pair resolves names with guardedLookup, so only public addresses are dialled.
const agents = {
  open: { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) },
  guarded: {
    'http:': new http.Agent({ keepAlive: true, lookup: guardedLookup }),
    'https:': new https.Agent({ keepAlive: true, lookup: guardedLookup }),
  },
};

/** The reason a POST is ended when its time is up; one object, so that no stack is captured per request. */
const TIMED_OUT = Object.assign(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`), { name: 'TimeoutError' });

/** Kept-alive connections a POST may find closed by the receiver in turn before it opens a new one. */
const STALE_SOCKET_TRIES = 4;

/**
 * The one way webhooks leave this service: a POST that never follows redirects, ends after 3 s, and, unless
 * private targets are allowed, never reaches a loopback, private or link-local address.
 * A receiver may close an idle kept-alive connection just as a POST is written on it; the POST then fails at once
 * (reset or broken pipe) without the receiver having read it, and is sent again on another connection.
 */
export function postOutbound(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: OutboundOptions,
  triesLeft = STALE_SOCKET_TRIES,
): Promise<OutboundResult> {
  const target = new URL(url);
  // An address literal is dialled without a lookup, so guardedLookup never sees it: it is judged here instead.
  if (!opts.allowPrivate && isPrivateUrl(url))
    return Promise.resolve({ status: null, error: 'refused: a private address' });
  const client = target.protocol === 'https:' ? https : http;
  const agent = (opts.allowPrivate ? agents.open : agents.guarded)[target.protocol as 'http:' | 'https:'];
  return new Promise((resolve) => {
    let answered = false;
    const req = client.request(
      target,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        answered = true;
        const status = res.statusCode ?? null;
        const error = status !== null && status >= 200 && status < 300 ? null : `HTTP ${status}`;
        if (!opts.readBody) {
          res.resume();
          res.on('close', () => resolve({ status, error }));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(c);
        });
        // 'close' comes after 'end', and also when the answer is cut off (timeout, reset): what arrived is kept.
        res.on('close', () => resolve({ status, error, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      // Cut off while the answer was read: its 'close' resolves with the status and what arrived.
      if (answered) return;
      if (req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE') && triesLeft > 1) {
        resolve(postOutbound(url, headers, body, opts, triesLeft - 1));
        return;
      }
      const timedOut = err.name === 'AbortError' || err.name === 'TimeoutError';
      resolve({
        status: null,
        error: timedOut
          ? `no answer within ${REQUEST_TIMEOUT_MS} ms`
          : err.code === 'EPRIVATETARGET'
            ? 'refused: a private address'
            : (err.code ?? err.message),
      });
    });
    // The whole exchange, answer included, ends after 3 s. A plain timer, not AbortSignal.timeout: that one builds
    // an abort reason (an exception with its stack) for every request when its 3 s are up, answered or not.
    const timer = setTimeout(() => req.destroy(TIMED_OUT), REQUEST_TIMEOUT_MS);
    req.once('close', () => clearTimeout(timer));
    req.end(body);
  });
}
