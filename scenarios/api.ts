/**
 * The public REST API as a scenario calls it: JSON in and out, each call expecting one status, and an answer of
 * any other status ending the scenario with the service's own error.
 */

export interface Credentials {
  email: string;
  password: string;
}

export class ScenarioError extends Error {}

export interface Api {
  readonly base: string;
  call<T = any>(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; expect?: number | number[] },
  ): Promise<{ status: number; body: T }>;
  login(who: Credentials): Promise<string>;
}

export function api(base: string): Api {
  async function call(
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; expect?: number | number[] } = {},
  ) {
    const headers: Record<string, string> = { 'accept-language': 'en' };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    const body = text ? JSON.parse(text) : undefined;
    const expected = [opts.expect ?? (method === 'POST' ? [200, 201, 202] : 200)].flat();
    if (!expected.includes(res.status))
      throw new ScenarioError(`${method} /api${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return { status: res.status, body };
  }
  return {
    base,
    call,
    async login(who) {
      return (await call('POST', '/v1/user/login', { body: who, expect: 200 })).body.access_token as string;
    },
  };
}
