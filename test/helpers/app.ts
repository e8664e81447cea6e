import { randomUUID } from 'node:crypto';
import { waitFor } from './wait.ts';
import { loadConfig, type Config } from '../../src/platform/config.ts';
import { bootstrap, type BootstrapOptions, type Running } from '../../src/main/bootstrap.ts';
import { createLogger, type Logger } from '../../src/platform/logger.ts';
import type { Em } from '../../src/platform/db/orm.ts';

export interface TestApp {
  running: Running;
  url: string;
  config: Config;
  em(): Em;
  http: Http;
  login(email: string, password?: string): Promise<string>;
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Http {
  get<T = any>(path: string, opts?: RequestOpts): Promise<Reply<T>>;
  post<T = any>(path: string, body?: unknown, opts?: RequestOpts): Promise<Reply<T>>;
  put<T = any>(path: string, body?: unknown, opts?: RequestOpts): Promise<Reply<T>>;
  del<T = any>(path: string, opts?: RequestOpts): Promise<Reply<T>>;
  graphql<T = any>(query: string, variables?: Record<string, unknown>, opts?: RequestOpts): Promise<Reply<T>>;
}

export interface RequestOpts {
  token?: string;
  lang?: string;
  headers?: Record<string, string>;
  /** Send this exact text as the body. */
  raw?: string;
}

export function httpClient(url: string): Http {
  async function call(method: string, path: string, body: unknown, opts: RequestOpts = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.lang) headers['accept-language'] = opts.lang;
    const text = opts.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    if (text !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const res = await fetch(`${url}/api${path}`, { method, headers, body: text });
    const raw = await res.text();
    return { status: res.status, body: raw ? JSON.parse(raw) : undefined, headers: res.headers };
  }
  return {
    get: (path, opts) => call('GET', path, undefined, opts),
    post: (path, body, opts) => call('POST', path, body ?? {}, opts),
    put: (path, body, opts) => call('PUT', path, body ?? {}, opts),
    del: (path, opts) => call('DELETE', path, undefined, opts),
    graphql: (query, variables, opts) => call('POST', '/graphql', { query, variables }, opts),
  };
}

/**
 * The real service in this process (call `running.close()` in the suite's after hook): API on a free port, worker on
 * the shared dev server, real PostgreSQL. `log` replaces its logger, for a test that reads what it logs.
 */
export async function startApp(
  overrides: Record<string, string> = {},
  { log, ...opts }: BootstrapOptions & { log?: Logger } = {},
): Promise<TestApp> {
  const config = loadConfig({ ...process.env, ...overrides });
  const running = await bootstrap(config, log ?? createLogger(config.logLevel), { port: 0, ...opts });
  const http = httpClient(running.url!);
  return {
    running,
    url: running.url!,
    config,
    em: () => running.orm.em.fork(),
    http,
    async login(email, password = 'demo-password') {
      const res = await http.post('/v1/user/login', { email, password });
      if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.access_token as string;
    },
  };
}

/**
 * Waits until `listener`'s read cache has heard every change committed so far: it sends a notification of its own
 * through `writer` and waits for it, since PostgreSQL delivers notifications in commit order. Waiting for the cache
 * to empty once is not enough: a late notification of an earlier change would satisfy it.
 */
export async function cacheCaughtUp(writer: TestApp, listener: TestApp): Promise<void> {
  const barrier = `barrier-${randomUUID()}`;
  await writer.em().execute('select pg_notify(?, ?)', ['read_cache', barrier]);
  await waitFor(async () => listener.running.reads!.lastHeard === barrier, 5_000, 5);
}
