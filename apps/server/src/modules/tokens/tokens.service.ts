import { createHash, randomBytes } from 'node:crypto';
import type {
  ApiTokenCreated,
  ApiTokenListParams,
  PersonalTokenCreate,
  Role,
  ServiceTokenCreate,
} from '@soc/contracts';
import {
  API_TOKEN_PREFIX,
  API_TOKEN_SHOWN_CHARS,
  PERSONAL_TOKEN_DEFAULT_DAYS,
  PERSONAL_TOKENS_MAX,
  PersonalTokenCreateSchema,
  ServiceTokenCreateSchema,
} from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, forbidden, notFound, tooManyRequests } from '../../lib/http-errors.ts';
import { localized, msg } from '../../lib/messages.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import type { AuthContext } from '../../core/auth.ts';
import { createLoginThrottleRepository } from './login-throttle.repository.ts';
import { presentToken } from './tokens.presenter.ts';
import { createTokensRepository } from './tokens.repository.ts';

const ROLE_RANK: Record<Role, number> = { customer: 0, analyst: 1, admin: 2 };
/** The lower of two roles: a token never acts above its user's current role. */
export const lowerRole = (a: Role, b: Role): Role => (ROLE_RANK[a] <= ROLE_RANK[b] ? a : b);

export const hashApiToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** `last_used_at` is written at most this often per token, so that busy integrations cost no write per call. */
const TOUCH_INTERVAL_MS = 60_000;

/** A new secret: 256 random bits behind the recognisable prefix. */
function newSecret(): { token: string; hash: string; prefix: string } {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashApiToken(token), prefix: token.slice(0, API_TOKEN_SHOWN_CHARS) };
}

const DAY_MS = 86_400_000;

/** The answer to a wrong password when creating a personal token (403, in the caller's language). */
export const WRONG_PASSWORD: Record<'ru' | 'en', string> = {
  ru: 'Неверный пароль. Токен не создан.',
  en: 'The password is incorrect. The token was not created.',
};

/** Who performs an administrative call: a signed-in administrator, or the CLI (no user). */
export interface Actor {
  userId: number | null;
  /** Set when the call itself was made with an API token. */
  tokenId?: string | null;
}

/** Service tokens (administrators, for integrations) and personal read-only tokens (issue 13). */
export function createTokensService(db: Db) {
  const repo = createTokensRepository(db);
  // wrong passwords count towards the sign-in lock of the user and the address
  const throttle = createLoginThrottleRepository(db);

  /** Refuses calls made with a token: tokens are managed from a signed-in session only. */
  const requireSession = (auth: Actor) => {
    if (auth.tokenId) throw forbidden(msg('tokensCannotManageTokens'));
  };

  async function created(id: string, token: string): Promise<ApiTokenCreated> {
    const row = await repo.find(id);
    return { ...presentToken(row!), token };
  }

  return {
    repo,

    /**
     * The credentials of a presented token, or null when it is unknown, revoked, expired or its
     * user is deactivated. Read on every request, so each of these takes effect at once.
     */
    async authenticate(token: string, ip: string): Promise<AuthContext | null> {
      if (!token.startsWith(API_TOKEN_PREFIX) || token.length > 200) return null;
      const c = await repo.credential(hashApiToken(token));
      if (!c || c.revokedAt || !c.isActive) return null;
      if (c.expiresAt && c.expiresAt.getTime() <= Date.now()) return null;
      if (!c.lastUsedAt || Date.now() - c.lastUsedAt.getTime() > TOUCH_INTERVAL_MS)
        await repo.touch(c.id, ip);
      const role = lowerRole(c.tokenRole, c.userRole);
      const limit = c.tokenSystemIds.length ? c.tokenSystemIds : null;
      let systemIds = c.userSystemIds;
      if (role === 'customer') {
        // a staff account's customer-role token sees the systems it names; a customer's, the
        // customer's own systems narrowed to them
        if (c.userRole !== 'customer') systemIds = limit ?? [];
        else if (limit) systemIds = systemIds.filter((s) => limit.includes(s));
      }
      return {
        userId: c.userId,
        username: c.username,
        role,
        sessionId: null,
        systemIds,
        tokenId: c.id,
        tokenSystemIds: role === 'customer' ? null : limit,
        readOnly: c.readOnly,
      };
    },

    async listPersonal(auth: AuthContext, q: ApiTokenListParams) {
      const { total, rows } = await repo.list(
        { userId: auth.userId, kind: 'personal', includeRevoked: q.include_revoked ?? false },
        q.page_size,
        (q.page - 1) * q.page_size,
      );
      return { total, results: rows.map(presentToken), page: q.page, pageSize: q.page_size };
    },

    /**
     * A read-only token of the caller, limited to some of the caller's systems if asked. The
     * caller's current password is checked first (a wrong one is a 403, audited, and counts
     * towards the sign-in lock, which then answers 429); the token
     * expires after `expires_at` (default 90 days, at most 365).
     */
    async createPersonal(auth: AuthContext, raw: PersonalTokenCreate, ip: string): Promise<ApiTokenCreated> {
      requireSession(auth);
      const input = PersonalTokenCreateSchema.parse(raw);
      const keys = [`u:${auth.username.toLowerCase()}`, `ip:${ip}`];
      const wait = await throttle.lockedFor(keys);
      if (wait > 0) throw tooManyRequests(wait);
      const passwordHash = await repo.passwordHash(auth.userId);
      if (passwordHash === undefined || !(await verifyPassword(passwordHash, input.password))) {
        await Promise.all(keys.map((key) => throttle.recordFailure(key)));
        await audit(db, {
          userId: auth.userId,
          action: 'token.create_denied',
          objectType: 'user',
          objectId: auth.userId,
          ip,
          details: { kind: 'personal', reason: 'wrong_password' },
        });
        throw forbidden(localized(WRONG_PASSWORD));
      }
      const wanted = [...new Set(input.systems ?? [])];
      if (auth.role === 'customer') {
        const foreign = wanted.filter((s) => !auth.systemIds.includes(s));
        if (foreign.length) throw badRequest({ systems: [msg('objectDoesNotExist', foreign[0])] });
      } else {
        const known = await repo.existingSystems(wanted);
        const missing = wanted.filter((s) => !known.includes(s));
        if (missing.length) throw badRequest({ systems: [msg('objectDoesNotExist', missing[0])] });
      }
      if ((await repo.countUsable(auth.userId, 'personal')) >= PERSONAL_TOKENS_MAX) {
        throw badRequest({
          non_field_errors: [msg('tooManyPersonalTokens', PERSONAL_TOKENS_MAX)],
        });
      }
      const secret = newSecret();
      const row = await repo.insert({
        userId: auth.userId,
        createdBy: auth.userId,
        kind: 'personal',
        name: input.name,
        prefix: secret.prefix,
        tokenHash: secret.hash,
        role: auth.role,
        systemIds: wanted,
        readOnly: true,
        expiresAt: input.expires_at
          ? new Date(input.expires_at)
          : new Date(Date.now() + PERSONAL_TOKEN_DEFAULT_DAYS * DAY_MS),
      });
      await audit(db, {
        userId: auth.userId,
        action: 'token.create',
        objectType: 'service_token',
        objectId: row.id,
        ip,
        details: {
          kind: 'personal',
          name: row.name,
          systems: wanted,
          expires_at: row.expiresAt?.toISOString() ?? null,
        },
      });
      return created(row.id, secret.token);
    },

    /** Revokes one of the caller's personal tokens; another user's token is a 404. */
    async revokePersonal(auth: AuthContext, id: string, ip: string): Promise<void> {
      requireSession(auth);
      const row = await repo.find(id);
      if (!row || row.userId !== auth.userId || row.kind !== 'personal') throw notFound();
      if (await repo.revoke(id)) {
        await audit(db, {
          userId: auth.userId,
          action: 'token.revoke',
          objectType: 'service_token',
          objectId: id,
          ip,
          details: { kind: 'personal', name: row.name },
        });
      }
    },

    async listAll(q: ApiTokenListParams & { user_id?: number }) {
      const { total, rows } = await repo.list(
        { userId: q.user_id, includeRevoked: q.include_revoked ?? false },
        q.page_size,
        (q.page - 1) * q.page_size,
      );
      return { total, results: rows.map(presentToken), page: q.page, pageSize: q.page_size };
    },

    /** A service token for an integration (administrators). */
    async createService(actor: Actor, raw: ServiceTokenCreate, ip: string) {
      requireSession(actor);
      const input = ServiceTokenCreateSchema.parse(raw);
      const user = await repo.tokenUser(input.user_id);
      if (!user) throw badRequest({ user_id: [msg('objectDoesNotExist', input.user_id)] });
      if (!user.isActive) throw badRequest({ user_id: [msg('userDeactivated')] });
      const role = input.role ?? user.role;
      if (ROLE_RANK[role] > ROLE_RANK[user.role]) {
        throw badRequest({ role: [msg('tokenRoleTooHigh', user.role)] });
      }
      const wanted = [...new Set(input.systems ?? [])];
      const known = await repo.existingSystems(wanted);
      const missing = wanted.filter((s) => !known.includes(s));
      if (missing.length) throw badRequest({ systems: [msg('objectDoesNotExist', missing[0])] });
      if (role === 'customer' && user.role !== 'customer' && !wanted.length) {
        throw badRequest({ systems: ['A customer-role token of a staff account must name its systems.'] });
      }
      const secret = newSecret();
      const row = await repo.insert({
        userId: user.id,
        createdBy: actor.userId,
        kind: 'service',
        name: input.name,
        prefix: secret.prefix,
        tokenHash: secret.hash,
        role,
        systemIds: wanted,
        readOnly: input.read_only,
        expiresAt: input.expires_at ? new Date(input.expires_at) : null,
      });
      await audit(db, {
        userId: actor.userId,
        action: 'token.create',
        objectType: 'service_token',
        objectId: row.id,
        ip,
        details: {
          kind: 'service',
          name: row.name,
          user: user.id,
          role,
          systems: wanted,
          read_only: input.read_only,
        },
      });
      return created(row.id, secret.token);
    },

    /** Revokes any token (administrators). */
    async revokeAny(actor: Actor, id: string, ip: string): Promise<void> {
      requireSession(actor);
      const row = await repo.find(id);
      if (!row) throw notFound();
      if (await repo.revoke(id)) {
        await audit(db, {
          userId: actor.userId,
          action: 'token.revoke',
          objectType: 'service_token',
          objectId: id,
          ip,
          details: { kind: row.kind, name: row.name },
        });
      }
    },
  };
}

export type TokensService = ReturnType<typeof createTokensService>;
