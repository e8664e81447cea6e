/**
 * A real OpenID Connect provider on the loopback (panva's oidc-provider), for the app sign-in tests: ID tokens are
 * obtained the way a native app obtains them, by the authorization code flow with PKCE through the provider's own
 * development login and consent pages, and signed with an RS256 key published in its JWKS.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

const REDIRECT = 'http://127.0.0.1/callback';

export interface IdentityProvider {
  issuer: string;
  jwksUrl: string;
  /** The people the provider knows, by subject. */
  accounts: Map<string, { email: string; name: string }>;
  /** An ID token for `subject` whose audience is `clientId` (one of the clients the provider was started with). */
  idToken(clientId: string, subject: string): Promise<string>;
  /** Seconds an ID token is valid (3600 unless a test shortens it). */
  idTokenTtl: number;
  close(): Promise<void>;
}

export async function startIdentityProvider(clientIds: string[]): Promise<IdentityProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key-1', alg: 'RS256', use: 'sig' };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state = { idTokenTtl: 3600 };
  const accounts = new Map<string, { email: string; name: string }>();

  const provider = new Provider(issuer, {
    clients: clientIds.map((client_id) => ({
      client_id,
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    jwks: { keys: [jwk] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    // The email and name go into the ID token itself, as the big providers do, not only to the userinfo endpoint.
    conformIdTokenClaims: false,
    ttl: { IdToken: () => state.idTokenTtl, AccessToken: 600, Grant: 600, Interaction: 600, Session: 600 },
    async findAccount(_ctx, sub) {
      const person = accounts.get(sub);
      if (!person) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: person.email, email_verified: true, name: person.name }),
      };
    },
  });
  server.on('request', provider.callback());

  const idToken = async (clientId: string, subject: string): Promise<string> => {
    const verifier = randomBytes(32).toString('base64url');
    const cookies = new Map<string, string>();
    const request = async (url: string, body?: URLSearchParams) => {
      const res = await fetch(new URL(url, issuer), {
        method: body ? 'POST' : 'GET',
        body,
        redirect: 'manual',
        headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair!.indexOf('=');
        cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
      }
      await res.arrayBuffer();
      return res.headers.get('location');
    };
    const auth = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: REDIRECT,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      nonce: randomBytes(8).toString('hex'),
    });
    let location = await request(`/auth?${auth}`);
    // The development pages ask for the login, then the consent; each answer leads back through /auth.
    for (const prompt of ['login', 'consent']) {
      if (!location?.includes('/interaction/')) break;
      location = await request(location, new URLSearchParams({ prompt, login: subject, password: 'any' }));
      location = await request(location!);
    }
    const code = location && new URL(location).searchParams.get('code');
    if (!code) throw new Error(`the provider gave no code (last location ${location})`);
    const res = await fetch(`${issuer}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: verifier,
      }),
    });
    const tokens = (await res.json()) as { id_token?: string; error?: string };
    if (!tokens.id_token) throw new Error(`the provider refused the code: ${tokens.error}`);
    return tokens.id_token;
  };

  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    accounts,
    idToken,
    get idTokenTtl() {
      return state.idTokenTtl;
    },
    set idTokenTtl(v: number) {
      state.idTokenTtl = v;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
