import type { Misconfig, MisconfigGroup, MisconfigHistoryEntry, MisconfigSeverity } from '@soc/contracts';
import { MisconfigActionSchema, MisconfigStatusSchema, misconfigActions } from '@soc/contracts';
import type { MisconfigGroupRow, MisconfigRow } from './misconfigs.repository.ts';

/** A recommendation as the API shows it (the list, the detail and the incident's tab). */
export function presentMisconfig(r: MisconfigRow): Misconfig {
  const m = r.m;
  return {
    id: m.id,
    title: m.title,
    description: m.description,
    recommendation: m.recommendation,
    severity: m.severity,
    status: m.status,
    affected_assets: m.affectedAssets,
    system: { id: r.system.id, is_id: r.system.isId, full_name: r.system.fullName },
    created: m.created.getTime(),
    updated: m.updated.getTime(),
    incidents: r.incidents,
    status_comment: m.statusComment,
    status_changed_by: m.statusChangedAt ? r.changedBy : null,
    status_changed_at: m.statusChangedAt ? m.statusChangedAt.getTime() : null,
    available_actions: misconfigActions(m.status),
  };
}

/** An audit entry of a status change; entries that do not read as one are left out. */
export function presentHistoryEntry(e: {
  at: Date;
  action: string;
  details: Record<string, unknown>;
  user: string | null;
}): MisconfigHistoryEntry | null {
  const action = MisconfigActionSchema.safeParse(e.action.replace(/^misconfig\./, ''));
  const from = MisconfigStatusSchema.safeParse(e.details.from);
  const to = MisconfigStatusSchema.safeParse(e.details.to);
  if (!action.success || !from.success || !to.success) return null;
  return {
    action: action.data,
    from: from.data,
    to: to.data,
    comment: typeof e.details.comment === 'string' ? e.details.comment : '',
    user: e.user ?? '',
    at: e.at.getTime(),
  };
}

/** severity_rank back to its severity (the column is generated from it: critical 4 … low 1). */
const SEVERITY_OF_RANK: Record<number, MisconfigSeverity> = {
  4: 'critical',
  3: 'high',
  2: 'medium',
  1: 'low',
};

/** A group of recommendations sharing a title (GET /soc/misconfigs/groups/). */
export function presentMisconfigGroup(r: MisconfigGroupRow): MisconfigGroup {
  return {
    title: r.title,
    severity: SEVERITY_OF_RANK[r.rank] ?? 'low',
    total: r.total,
    open: r.open,
    accepted_risk: r.acceptedRisk,
    fixed: r.fixed,
    assets: r.assets,
    asset_sample: r.assetSample,
    updated: r.updated.getTime(),
  };
}
