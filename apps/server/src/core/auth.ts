// Who calls and what they may see: the types every layer shares (design §10), and the scope rule.
import type { Role } from '@soc/contracts';

/**
 * The systems a caller may see: a list of system ids, or null for every system (an analyst).
 * An empty list sees nothing.
 */
export type SystemScope = number[] | null;

/** The authenticated caller of a request. */
export interface AuthContext {
  userId: number;
  username: string;
  role: Role;
  /** The portal session (refresh-token family); null for a provider-issued OIDC token. */
  sessionId: string | null;
  /** Systems (tenants) the user belongs to (for a customer, narrowed by the API token if any). */
  systemIds: number[];
  /** The API token the request was made with; null or absent for a session. */
  tokenId?: string | null;
  /** Systems a staff member's API token is limited to; null or absent: no limit. */
  tokenSystemIds?: number[] | null;
  /** The credential allows reading only (personal tokens). */
  readOnly?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** Reachable without signing in. */
    public?: boolean;
    /** Reachable while the caller still has to change an administrator's temporary password. */
    duringPasswordChange?: boolean;
  }
}

/** The user behind a session or token, as the auth check reads it (modules/auth's repository). */
export interface AuthUser {
  id: number;
  username: string;
  role: 'customer' | 'analyst' | 'admin';
  isActive: boolean;
  systemIds: number[];
  sessionAlive: boolean;
  /** For a live session, when its last live refresh token expires (ms since the epoch); else null. */
  sessionExpiresAt: number | null;
  /** The password is an administrator's temporary one: only the password change is allowed. */
  mustChangePassword: boolean;
}

/**
 * Recent answers of the auth check (`loadAuthUser`), so that a request whose credentials were
 * checked a moment ago runs no SQL before its own work. Only an active user with a live session
 * (or an OIDC caller, who has none) is kept, never a refusal, and an entry lives at most
 * `maxAgeMs` and never past the expiry of the session's last live refresh token. It is kept
 * exact by:
 * - the NOTIFYs of migration 0020 on every committed change of a user, their systems or their
 *   refresh tokens, by any instance or by hand, which drop the users named (`*`: everyone);
 * - `invalidateUser`, called by this instance's own writers once they committed, so that the
 *   next request here never waits for the notification.
 * While the LISTEN connection is down (or not yet up) nothing is kept or served; an answer read
 * while a change arrived is returned but not kept (a generation counter, as in lib/cache/versioned-cache.ts).
 */
export interface AuthCache {
  /** The kept answer for (user, session), else `read()`'s, kept when it may be. */
  load(
    userId: number,
    sessionId: string | null,
    read: () => Promise<AuthUser | undefined>,
  ): Promise<AuthUser | undefined>;
  /** Forgets every entry of a user (a change of this instance committed). */
  invalidateUser(userId: number): void;
  /** Applies a payload of `AUTH_CHANNEL`: user ids separated by commas, or `*`. */
  onPayload(payload: string): void;
  /** Whether every change reaches this instance; while false the cache is bypassed. */
  setLive(live: boolean): void;
  readonly size: number;
}

/**
 * The systems a caller may see: a customer's own systems; for the provider's staff all systems
 * (null), unless their API token names some.
 */
export const systemScope = (auth: AuthContext): SystemScope =>
  auth.role === 'customer' ? auth.systemIds : (auth.tokenSystemIds ?? null);

/** Test hooks of the auth service (modules/auth). */
export interface AuthServiceOptions {
  /** Least time a failed sign-in takes (tests shorten it). */
  failureFloorMs?: number;
  /** Extra random delay on failures, to blur timing. */
  failureJitterMs?: number;
}
