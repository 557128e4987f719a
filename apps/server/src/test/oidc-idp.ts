import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { ClientMetadata } from 'oidc-provider';
import type { JWK } from 'jose';

/** An account of the test identity provider. */
export interface IdpAccount {
  email: string;
  /** The `email_verified` claim (default true); null leaves the claim out. */
  emailVerified?: boolean | null;
  name?: string;
}

export interface TestIdpOptions {
  clients: ClientMetadata[];
  /** Accounts by subject; an unknown subject signs in without an e-mail. */
  accounts?: Record<string, IdpAccount>;
  /** ID token lifetime per client id, in seconds (default 3600). */
  idTokenTtl?: Record<string, number>;
  /** Signing keys (private JWKs), so that a test can sign tokens as the IdP would. */
  jwks?: { keys: JWK[] };
  port?: number;
}

export interface TestIdp {
  issuer: string;
  provider: Provider;
  stop(): Promise<void>;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) on 127.0.0.1 for tests: development
 * interactions (any login name, no password check), consent granted without asking.
 */
export async function startTestIdp(options: TestIdpOptions): Promise<TestIdp> {
  const accounts = options.accounts ?? {};
  const listening = await new Promise<{ port: number; srv: Server }>((resolve) => {
    // reserve the port first: the issuer URL must be known before the provider is built
    const srv = createServer();
    srv.listen(options.port ?? 0, '127.0.0.1', () =>
      resolve({ port: (srv.address() as AddressInfo).port, srv }),
    );
  });
  const issuer = `http://127.0.0.1:${listening.port}`;
  const provider = new Provider(issuer, {
    clients: options.clients,
    ...(options.jwks ? { jwks: options.jwks } : {}),
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => {
        const account = accounts[sub];
        if (!account) return { sub };
        const verified = account.emailVerified === undefined ? true : account.emailVerified;
        return {
          sub,
          email: account.email,
          ...(verified === null ? {} : { email_verified: verified }),
          name: account.name,
        };
      },
    }),
    ttl: {
      IdToken: (_ctx, _token, client) => options.idTokenTtl?.[client.clientId] ?? 3600,
    },
    // consent is implied for the test clients
    loadExistingGrant: async (ctx) => {
      const clientId = ctx.oidc.client?.clientId;
      const accountId = ctx.oidc.session?.accountId;
      if (!clientId || !accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const handle = provider.callback();
  const server = listening.srv;
  server.on('request', (req, res) => {
    void handle(req, res);
  });
  return {
    issuer,
    provider,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Signs in at the test IdP like a browser would (cookies, redirects, the development login
 * form) and returns the URL the IdP sends the browser back to: the portal's callback.
 */
export async function signInAtIdp(issuer: string, authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = authorizationUrl;
  let body: string | undefined;
  for (let step = 0; step < 12; step++) {
    const res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      body,
      redirect: 'manual',
      headers: { cookie: cookie(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    });
    for (const set of res.headers.getSetCookie()) {
      const pair = set.split(';')[0]!;
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = res.headers.get('location');
    body = undefined;
    if (location) {
      const next = new URL(location, url);
      if (!next.href.startsWith(issuer)) return next;
      url = next.href;
      continue;
    }
    const html = await res.text();
    if (res.status === 200 && url.includes('/interaction/')) {
      const prompt = html.includes('name="login"') ? 'login' : 'consent';
      body = new URLSearchParams(
        prompt === 'login' ? { prompt, login, password: 'any' } : { prompt },
      ).toString();
      continue;
    }
    throw new Error(`unexpected answer of the IdP: ${res.status} at ${url}`);
  }
  throw new Error('the IdP sign-in did not end');
}
