import type { LogSource, LogSourceListQuery, LogSourceSummary, LogSourceSummaryQuery } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import type { LogSourcesRepository } from './logsources.repository.ts';
import { createLogSourcesRepository } from './logsources.repository.ts';

type ListRow = Awaited<ReturnType<LogSourcesRepository['list']>>['rows'][number];

/** EPS with two decimals: enough for a table, stable in JSON. */
const round = (v: number) => Math.round(Number(v) * 100) / 100;

export const presentLogSource = (r: ListRow): LogSource => ({
  id: r.source.id,
  name: r.source.name,
  source_type: r.source.sourceType,
  host: r.source.host,
  system: { id: r.system.id, is_id: r.system.isId, full_name: r.system.fullName },
  status: r.status,
  last_event: r.source.lastEventAt ? r.source.lastEventAt.getTime() : null,
  silence_threshold_minutes: r.source.silenceThresholdMinutes,
  eps_last_hour: round(r.epsHour),
  eps_last_day: round(r.epsDay),
});

/** Log sources of the caller's systems, read-only. */
export function createLogSourcesService(db: Db) {
  const repo = createLogSourcesRepository(db);
  return {
    async list(auth: AuthContext, q: LogSourceListQuery): Promise<{ total: number; results: LogSource[] }> {
      const { rows, total } = await repo.list(systemScope(auth), q);
      return { total, results: rows.map(presentLogSource) };
    },

    async summary(auth: AuthContext, q: LogSourceSummaryQuery): Promise<LogSourceSummary> {
      const { byType, epsHour, epsDay } = await repo.summary(systemScope(auth), q);
      const sum = (k: 'total' | 'active' | 'silent' | 'disabled') => byType.reduce((n, r) => n + r[k], 0);
      return {
        total: sum('total'),
        active: sum('active'),
        silent: sum('silent'),
        disabled: sum('disabled'),
        by_type: byType.map((r) => ({
          source_type: r.sourceType,
          total: r.total,
          active: r.active,
          silent: r.silent,
          disabled: r.disabled,
        })),
        eps_last_hour: round(epsHour),
        eps_last_day: round(epsDay),
      };
    },
  };
}
export type LogSourcesService = ReturnType<typeof createLogSourcesService>;
