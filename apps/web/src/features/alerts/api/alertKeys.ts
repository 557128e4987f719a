/** Query keys of alerts: the alerts screen's list, and an incident's alerts under its key. */
export const alertKeys = {
  /** The alerts screen's list, by its filters. */
  list: (filters: string) => ['alerts', 'list', filters] as const,
  incident: (key: number) => ['incident', key] as const,
  alerts: (key: number, search: string) => [...alertKeys.incident(key), 'alerts', { search }] as const,
  alertsAll: (key: number) => [...alertKeys.incident(key), 'alerts'] as const,
  alert: (key: number, uuid: string) => [...alertKeys.incident(key), 'alert', uuid] as const,
  grouped: (key: number, uuid: string) => [...alertKeys.alert(key, uuid), 'grouped'] as const,
  tree: (key: number, uuid: string) => [...alertKeys.alert(key, uuid), 'tree'] as const,
  symptomatic: (key: number, uuid: string) => [...alertKeys.alert(key, uuid), 'symptomatic'] as const,
  links: (uuid: string) => ['alert-links', uuid] as const,
  tags: (q: string) => ['tags', { q }] as const,
  teams: (system: number, search: string) => ['response-teams', system, { search }] as const,
};
