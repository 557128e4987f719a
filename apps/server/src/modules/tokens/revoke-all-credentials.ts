import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { createTokensRepository } from './tokens.repository.ts';

/** Why every credential of a user ends at once. */
export type RevokeAllReason = 'password_change' | 'password_reset';

export interface RevokeAllBy {
  /** Who caused it: the user themselves, an administrator, or null for the CLI. */
  actorId: number | null;
  reason: RevokeAllReason;
  ip: string;
  userAgent?: string;
}

/**
 * Ends every session (refresh-token family) and revokes every personal API token of a user, and
 * records one `token.revoke_all` entry. Call it inside the transaction that stores the new
 * password, so that the password and the end of the old credentials commit together; after the
 * commit, tell the auth cache (the `users` trigger notifies other instances). Service tokens stay:
 * an administrator issued them for an integration, not the user with their password.
 */
export async function revokeAllCredentials(
  tx: Db,
  userId: number,
  by: RevokeAllBy,
): Promise<{ sessions: number; tokens: number }> {
  const now = new Date();
  const { families, tokens } = await createTokensRepository(tx).revokeUserCredentials(userId, now);
  const counts = { sessions: new Set(families.map((f) => f.familyId)).size, tokens: tokens.length };
  await audit(tx, {
    userId: by.actorId,
    action: 'token.revoke_all',
    objectType: 'user',
    objectId: userId,
    ip: by.ip,
    userAgent: by.userAgent,
    details: { reason: by.reason, sessions: counts.sessions, personal_tokens: counts.tokens },
  });
  return counts;
}
