import type {
  Alert,
  AlertDetail,
  AlertTree,
  AlertTreeNode,
  GroupedAlertData,
  Snapshot,
} from '@soc/contracts';
import type { AlertEvent, incidentSnapshots } from '../../db/schema/index.ts';
import type { AlertRow } from './alerts.repository.ts';

/** A row of an alert table. */
export function presentAlert(row: AlertRow): Alert {
  return {
    uuid: row.id,
    severity: row.severity,
    title: row.title,
    affected_assets: row.affectedAssets.map((a) => ({
      cmdb_id: a.cmdb_id,
      name: a.name,
      ip_address: a.ip_address ?? '',
    })),
    created_time: row.createdTime.getTime(),
    updated_time: row.updatedTime.getTime(),
    tags: row.tags,
    response_team:
      row.teamId !== null && row.teamName !== null ? { id: row.teamId, name: row.teamName } : null,
    status: row.status,
    priority: row.priority,
    state: row.state,
    group: row.groupNo,
    platform: row.platform,
    incident: row.incidentKey,
    grouped: row.incidentId !== null,
    system: { id: row.systemId, is_id: row.systemIsId, full_name: row.systemName },
    assignee:
      row.assigneeId !== null && row.assigneeUsername !== null
        ? { id: row.assigneeId, username: row.assigneeUsername }
        : null,
    source_tag: row.sourceTag,
  };
}

export function presentAlertDetail(
  row: AlertRow & { description: string; rule: string; classificationDetails: string; eventsCount: number },
): AlertDetail {
  return {
    ...presentAlert(row),
    description: row.description,
    rule: row.rule,
    classification_details: row.classificationDetails,
    events_count: row.eventsCount,
  };
}

/** Event fields the detail panel groups, in the order shown. */
const GROUPED_FIELDS = [
  'host',
  'user',
  'process',
  'action',
  'src_ip',
  'dst_ip',
  'domain',
  'file_hash',
] as const;

/** Values of an event field across the alert's events, most frequent first. */
export function eventValues(events: AlertEvent[], field: string): { value: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const e of events) {
    const v = (e as unknown as Record<string, unknown>)[field];
    if (typeof v === 'string' && v) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
}

export function presentGroupedData(events: AlertEvent[]): GroupedAlertData {
  return {
    events_count: events.length,
    results: GROUPED_FIELDS.map((field) => ({ field, values: eventValues(events, field) })).filter(
      (g) => g.values.length > 0,
    ),
  };
}

/**
 * The process tree of an alert's events: each event hangs under its `parent`; events whose
 * parent is missing (or that would close a cycle) are roots. Null when there are no process events.
 */
export function buildProcessTree(events: AlertEvent[], created: Date): AlertTree | null {
  const processEvents = events.filter((e) => typeof e.pid === 'number' && e.process);
  if (!processEvents.length) return null;
  const nodes = new Map<string, AlertTreeNode>();
  for (const e of processEvents) {
    nodes.set(e.id, {
      id: e.id,
      process: e.process,
      pid: e.pid,
      cmdline: e.cmdline ?? '',
      user: e.user ?? '',
      host: e.host ?? '',
      time: created.getTime() + (e.dt ?? 0),
      matched: e.matched === true,
      children: [],
    });
  }
  const parentOf = new Map(processEvents.map((e) => [e.id, e.parent]));
  const reachesItself = (id: string): boolean => {
    const seen = new Set<string>();
    let at: string | null | undefined = id;
    while (at) {
      if (seen.has(at)) return true;
      seen.add(at);
      at = parentOf.get(at) ?? null;
    }
    return false;
  };
  const roots: AlertTreeNode[] = [];
  for (const e of processEvents) {
    const node = nodes.get(e.id)!;
    const parent = e.parent ? nodes.get(e.parent) : undefined;
    if (parent && parent !== node && !reachesItself(e.id)) parent.children.push(node);
    else roots.push(node);
  }
  return { roots };
}

export function presentSnapshot(
  row: typeof incidentSnapshots.$inferSelect & { alertsCount: number },
): Snapshot {
  return {
    id: row.id,
    cmdb_id: row.cmdbId,
    name: row.name,
    asset_type: row.assetType,
    os: row.os,
    ip_address: row.ipAddress,
    fqdn: row.fqdn,
    criticality: row.criticality,
    created: row.createdAt.getTime(),
    alerts_count: row.alertsCount,
  };
}
