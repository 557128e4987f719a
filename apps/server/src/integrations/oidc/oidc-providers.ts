import * as client from 'openid-client';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';
import type { OidcProviderConfig } from '../../core/config.ts';

/** Claims of a verified ID token or IdP-issued JWT that the portal uses. */
export interface IdentityClaims {
  /** The provider's issuer URL. */
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  preferredUsername: string | null;
  givenName: string;
  familyName: string;
}

export interface AuthorizationRequest {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

interface Discovered {
  configuration: client.Configuration;
  jwks: ReturnType<typeof createRemoteJWKSet>;
}

const claimsOf = (issuer: string, payload: JWTPayload): IdentityClaims => {
  const text = (key: string): string | null => {
    const value = payload[key];
    return typeof value === 'string' && value.trim() ? value.trim() : null;
  };
  return {
    issuer,
    subject: String(payload.sub),
    email: text('email'),
    emailVerified: payload.email_verified === true,
    preferredUsername: text('preferred_username'),
    givenName: text('given_name') ?? text('name') ?? '',
    familyName: text('family_name') ?? '',
  };
};

/**
 * The configured OIDC providers, discovered lazily (a provider that is down at start-up does
 * not stop the portal; discovery is retried on the next use).
 */
export function createOidcProviders(providers: OidcProviderConfig[]) {
  const discovered = new Map<string, Promise<Discovered>>();

  function discover(provider: OidcProviderConfig): Promise<Discovered> {
    let pending = discovered.get(provider.name);
    if (!pending) {
      pending = (async () => {
        const configuration = await client.discovery(
          new URL(provider.issuer),
          provider.client_id,
          provider.client_secret,
          provider.client_secret ? client.ClientSecretBasic(provider.client_secret) : client.None(),
          provider.allow_http ? { execute: [client.allowInsecureRequests] } : undefined,
        );
        const jwksUri = configuration.serverMetadata().jwks_uri;
        if (!jwksUri) throw new Error(`OIDC provider ${provider.name} publishes no jwks_uri`);
        return { configuration, jwks: createRemoteJWKSet(new URL(jwksUri)) };
      })();
      pending.catch(() => discovered.delete(provider.name));
      discovered.set(provider.name, pending);
    }
    return pending;
  }

  const byName = (name: string) => providers.find((p) => p.name === name);

  return {
    list: () => providers,
    byName,

    /** The authorization-code request with PKCE (S256), state and nonce. */
    async authorizationRequest(
      provider: OidcProviderConfig,
      redirectUri: string,
    ): Promise<AuthorizationRequest> {
      const { configuration } = await discover(provider);
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: provider.scope,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { url, state, nonce, codeVerifier };
    },

    /**
     * Exchanges the code of a callback; openid-client checks state, PKCE, and the ID token
     * (signature, issuer, audience, expiry, nonce).
     */
    async completeAuthorization(
      provider: OidcProviderConfig,
      callbackUrl: URL,
      checks: { state: string; nonce: string; codeVerifier: string },
    ): Promise<IdentityClaims> {
      const { configuration } = await discover(provider);
      const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token in the token response');
      // providers that follow the spec strictly put e-mail and names only into UserInfo
      const needsUserInfo = claims.email === undefined && configuration.serverMetadata().userinfo_endpoint;
      const userInfo = needsUserInfo
        ? await client.fetchUserInfo(configuration, tokens.access_token, claims.sub)
        : {};
      return claimsOf(configuration.serverMetadata().issuer, { ...userInfo, ...claims });
    },

    /**
     * Verifies a JWT issued by one of the providers (an `Authorization: OIDC` token): signature
     * against the provider's JWKS, issuer, audience (our client id) and expiry. Null when no
     * provider issued it or it fails any check.
     */
    async verifyToken(
      token: string,
    ): Promise<{ provider: OidcProviderConfig; claims: IdentityClaims } | null> {
      let unverifiedIssuer: string | undefined;
      try {
        unverifiedIssuer = decodeJwt(token).iss;
      } catch {
        return null;
      }
      // the unverified issuer only picks the key set; jwtVerify then checks everything
      for (const provider of providers) {
        let found: Discovered;
        try {
          found = await discover(provider);
        } catch {
          continue;
        }
        const issuer = found.configuration.serverMetadata().issuer;
        if (issuer !== unverifiedIssuer) continue;
        try {
          const { payload } = await jwtVerify(token, found.jwks, {
            issuer,
            audience: provider.client_id,
            requiredClaims: ['sub', 'exp', 'iat'],
            clockTolerance: 5,
          });
          return { provider, claims: claimsOf(issuer, payload) };
        } catch {
          // another client of the same issuer may be the audience
          continue;
        }
      }
      return null;
    },
  };
}

export type OidcProviders = ReturnType<typeof createOidcProviders>;
