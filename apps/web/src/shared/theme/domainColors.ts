import type {
  AlertSeverity,
  AssetCriticality,
  IncidentPriority,
  IncidentStatus,
  MisconfigSeverity,
  MisconfigStatus,
  TaskPriority,
  TaskStatus,
} from '@soc/contracts';
import type { GlobalToken } from 'antd';
import type { PresetColorKey } from 'antd/es/theme/interface/presetColors';

/**
 * One colour per value of each domain scale (design §8), for every screen that shows it: tags
 * use the antd preset and status names, which antd adapts to the light and the dark theme;
 * charts take the same preset's hex from the theme's tokens (`presetHex`).
 */

/** antd status colours of tags. */
export type StatusColor = 'processing' | 'success' | 'warning' | 'error' | 'default';

/** Incident priority, hottest first (the reference: IncidentPriorityTag); also the SLA categories. */
export const INCIDENT_PRIORITY_COLORS: Record<IncidentPriority, PresetColorKey> = {
  critical: 'magenta',
  high: 'red',
  medium: 'orange',
  low: 'blue',
};

/** Incident status: open work stands out, finished work is muted. */
export const INCIDENT_STATUS_COLORS: Record<IncidentStatus, StatusColor> = {
  waiting_for_customer: 'warning',
  waiting_for_support: 'processing',
  work_in_progress: 'processing',
  customer_completed: 'success',
  completed: 'success',
  closed: 'default',
  canceled: 'default',
};

/** Misconfiguration severity (the recommendations screen and the incident's tab). */
export const MISCONFIG_SEVERITY_COLORS: Record<MisconfigSeverity, PresetColorKey> = {
  critical: 'magenta',
  high: 'red',
  medium: 'orange',
  low: 'green',
};

export const MISCONFIG_STATUS_COLORS: Record<MisconfigStatus, StatusColor> = {
  open: 'processing',
  accepted_risk: 'warning',
  fixed: 'success',
};

/** Alert severity (the incident's alerts tab and the alert panel). */
export const ALERT_SEVERITY_COLORS: Record<AlertSeverity, PresetColorKey> = {
  High: 'red',
  Medium: 'orange',
  Low: 'blue',
};

/** Asset criticality (the assets screens and the incident's assets tab); low is plain. */
export const ASSET_CRITICALITY_COLORS: Record<AssetCriticality, PresetColorKey | 'default'> = {
  critical: 'red',
  high: 'volcano',
  medium: 'gold',
  low: 'default',
};

/** Task status: open work stands out, finished work is muted. */
export const TASK_STATUS_COLORS: Record<TaskStatus, StatusColor> = {
  open: 'processing',
  in_progress: 'processing',
  waiting_for_customer: 'warning',
  resolved: 'success',
  closed: 'default',
};

export const TASK_PRIORITY_COLORS: Record<TaskPriority, StatusColor> = {
  high: 'error',
  medium: 'warning',
  low: 'default',
};

/** A preset colour's main shade in the current theme (light or dark), for charts. */
export const presetHex = (token: GlobalToken, color: PresetColorKey): string => token[`${color}6`];

/** The colours of a chart of incident priorities: the hues of IncidentPriorityTag. */
export const incidentPriorityChartColors = (token: GlobalToken): Record<IncidentPriority, string> => ({
  critical: presetHex(token, INCIDENT_PRIORITY_COLORS.critical),
  high: presetHex(token, INCIDENT_PRIORITY_COLORS.high),
  medium: presetHex(token, INCIDENT_PRIORITY_COLORS.medium),
  low: presetHex(token, INCIDENT_PRIORITY_COLORS.low),
});

/** The colour of a value that the server sends as plain text (undefined when it is not on the scale). */
export const colorOf = <Value extends string, Color extends string>(
  colors: Record<Value, Color>,
  value: string,
): Color | undefined => (Object.hasOwn(colors, value) ? colors[value as Value] : undefined);
