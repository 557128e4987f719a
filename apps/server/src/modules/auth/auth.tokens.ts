import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';

const ISSUER = 'soc-portal';
const AUDIENCE = 'soc-portal';

export interface AccessClaims {
  userId: number;
  /** The sign-in session (refresh-token family) the token belongs to. */
  sessionId: string;
}

const kids = new WeakMap<Uint8Array, string>();

/**
 * The key id (`kid` header) of a signing secret: the first 16 characters of the base64url SHA-256
 * of the secret, under a label, so that it names the key without telling anything about it. It
 * lets a token signed with JWT_SECRET_PREVIOUS be verified with that key after a rotation.
 */
export function keyId(secret: Uint8Array): string {
  let kid = kids.get(secret);
  if (!kid) {
    kid = createHash('sha256').update('soc-portal-kid:').update(secret).digest('base64url').slice(0, 16);
    kids.set(secret, kid);
  }
  return kid;
}

/**
 * The key a token names by its `kid`, among the current and the previous signing secret. A token
 * without `kid` (signed before key ids existed) is tried with the current key, then the previous
 * one; a token naming any other key gets none and is refused.
 */
export function keysForToken(token: string, current: Uint8Array, previous?: Uint8Array): Uint8Array[] {
  const keys = previous ? [current, previous] : [current];
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return [];
  }
  if (kid === undefined) return keys;
  return keys.filter((key) => keyId(key) === kid);
}

/** Signs with the current key and names it in the `kid` header. */
export async function signAccessToken(
  claims: AccessClaims,
  secret: Uint8Array,
  ttlSeconds: number,
): Promise<string> {
  return new SignJWT({ sid: claims.sessionId, typ: 'access' })
    .setProtectedHeader({ alg: 'HS256', kid: keyId(secret) })
    .setSubject(String(claims.userId))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(secret);
}

/** How many verified access tokens are kept per signing secret. */
export const VERIFIED_TOKENS_MAX = 10_000;

/**
 * Access tokens already verified, by signing secret, until they expire. A client repeats its
 * token on every request, and each verification is an HMAC on WebCrypto's thread pool; a kept
 * token's claims are what verifying it again would give (the token is immutable and signed),
 * so only its expiry is checked again. Whether its session is still alive is not kept here.
 */
const verified = new WeakMap<Uint8Array, Map<string, { claims: AccessClaims; exp: number }>>();

/**
 * Returns the claims of a valid, unexpired access token, or null. The token is checked with the
 * key its `kid` names: the current one or, after a rotation, the previous one (JWT_SECRET_PREVIOUS).
 */
export async function verifyAccessToken(
  token: string,
  secret: Uint8Array,
  previous?: Uint8Array,
): Promise<AccessClaims | null> {
  for (const key of keysForToken(token, secret, previous)) {
    const claims = await verifyWith(token, key);
    if (claims) return claims;
  }
  return null;
}

async function verifyWith(token: string, secret: Uint8Array): Promise<AccessClaims | null> {
  let known = verified.get(secret);
  if (!known) verified.set(secret, (known = new Map<string, { claims: AccessClaims; exp: number }>()));
  const kept = known.get(token);
  // jose refuses a token whose exp is not after the current second
  if (kept && kept.exp > Math.floor(Date.now() / 1000)) return kept.claims;
  if (kept) known.delete(token);
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    const userId = Number(payload.sub);
    if (payload.typ !== 'access' || !Number.isInteger(userId) || typeof payload.sid !== 'string') return null;
    const claims = { userId, sessionId: payload.sid };
    if (typeof payload.exp === 'number') {
      // the oldest kept token makes room
      if (known.size >= VERIFIED_TOKENS_MAX) known.delete(known.keys().next().value as string);
      known.set(token, { claims, exp: payload.exp });
    }
    return claims;
  } catch {
    return null;
  }
}

/** A new opaque refresh token (what the client keeps) and its hash (what the database keeps). */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

export const hashRefreshToken = (token: string): string => createHash('sha256').update(token).digest('hex');
