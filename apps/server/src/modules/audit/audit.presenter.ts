import type { AuditEntry } from '@soc/contracts';
import type { AuditRow } from './audit.repository.ts';

/** An audit row as the API shows it: no details (they may name other tenants' objects). */
export const presentAuditEntry = (r: AuditRow): AuditEntry => ({
  id: Number(r.id),
  at: Number(r.at_ms),
  user:
    r.user_id === null
      ? null
      : {
          id: r.user_id,
          username: r.username ?? '',
          full_name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim(),
          role: r.role ?? '',
        },
  action: r.action,
  object_type: r.object_type,
  object_id: r.object_id,
  object_name: r.object_name,
  ip: r.ip,
  user_agent: r.user_agent,
});
