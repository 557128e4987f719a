import type { ApiToken } from '@soc/contracts';
import type { TokenWithUser } from './tokens.repository.ts';

/** A token for lists: never its hash. */
export const presentToken = (t: TokenWithUser): ApiToken => ({
  id: t.id,
  name: t.name,
  kind: t.kind,
  prefix: t.prefix,
  user: { id: t.userId, username: t.username },
  role: t.role,
  systems: t.systemIds,
  read_only: t.readOnly,
  expires_at: t.expiresAt?.toISOString() ?? null,
  last_used_at: t.lastUsedAt?.toISOString() ?? null,
  last_used_ip: t.lastUsedIp,
  revoked_at: t.revokedAt?.toISOString() ?? null,
  created_at: t.createdAt.toISOString(),
});
