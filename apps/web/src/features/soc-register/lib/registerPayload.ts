import type {
  AlertPlatform,
  AlertPriority,
  AlertSeverity,
  AnalystIncidentCreate,
  IncidentPriority,
  IocType,
} from '@soc/contracts';
import type { Dayjs } from 'dayjs';
import { mapFieldErrors, type FieldMessages } from '@/shared/api/index.ts';
import type { LookupValue } from '../../incidents/index.ts';

/** An IOC row of the form. */
export interface IocRow {
  type?: IocType;
  value?: string;
}

/** An alert row of the form; `uuid` is made when the row is added (crypto.randomUUID). */
export interface AlertRow {
  uuid: string;
  title?: string;
  severity?: AlertSeverity;
  platform?: AlertPlatform;
  priority?: AlertPriority;
  rule?: string;
  description?: string;
}

/** A tactic row of the MITRE coverage. */
export interface MitreRow {
  tactic?: string;
  techniques?: string[];
}

/** Values of the registration form (every field of POST /analyst/incidents/). */
export interface RegisterValues {
  system?: LookupValue;
  service?: number;
  issueType?: LookupValue;
  mainCategory?: LookupValue;
  additionalCategories?: LookupValue[];
  summary?: string;
  priority?: IncidentPriority;
  reporterName?: string;
  description?: string;
  recommendations?: string;
  statusDescription?: string;
  tags?: string[];
  affectedSystems?: string[];
  activityDetectedAt?: Dayjs | null;
  gossopkaPlannedTime?: Dayjs | null;
  detectionRules?: string[];
  mitre?: MitreRow[];
  affectedAssets?: string[];
  iocs?: IocRow[];
  alerts?: AlertRow[];
}

const trimmed = (values: string[] | undefined) =>
  (values ?? []).map((value) => value.trim()).filter((value) => value !== '');

/** The POST /analyst/incidents/ body of validated form values; empty optional fields are left out. */
export function toRegisterPayload(values: RegisterValues): AnalystIncidentCreate {
  const reporter = values.reporterName?.trim();
  const mitre = Object.fromEntries(
    (values.mitre ?? [])
      .filter((row) => row.tactic?.trim())
      .map((row) => [row.tactic!.trim(), trimmed(row.techniques)]),
  );
  return {
    system: values.system?.value ?? 0,
    issuetype: values.issueType?.value ?? 0,
    ...(values.service !== undefined ? { service: values.service } : {}),
    primary_category: values.mainCategory?.value ?? 0,
    secondary_category: (values.additionalCategories ?? []).map((category) => category.value),
    summary: (values.summary ?? '').trim(),
    priority: values.priority ?? 'medium',
    ...(reporter ? { reporter_name: reporter } : {}),
    description: (values.description ?? '').trim(),
    recommendations: (values.recommendations ?? '').trim(),
    status_description: (values.statusDescription ?? '').trim(),
    tags: trimmed(values.tags),
    affected_systems: trimmed(values.affectedSystems),
    activity_detected_at: values.activityDetectedAt ? values.activityDetectedAt.valueOf() : null,
    gossopka_planned_time: values.gossopkaPlannedTime ? values.gossopkaPlannedTime.valueOf() : null,
    detection_rules: trimmed(values.detectionRules),
    mitre_cov: mitre,
    affected_assets: trimmed(values.affectedAssets),
    observed_iocs: (values.iocs ?? []).map((row) => ({
      ioc_type: row.type!,
      ioc: (row.value ?? '').trim(),
    })),
    alerts: (values.alerts ?? []).map((row) => ({
      uuid: row.uuid,
      title: (row.title ?? '').trim(),
      severity: row.severity!,
      platform: row.platform!,
      priority: row.priority ?? 'medium',
      rule: (row.rule ?? '').trim(),
      description: (row.description ?? '').trim(),
    })),
  };
}

/** Payload field → form field (top level). */
const FIELD_BY_SERVER_NAME: Record<string, string> = {
  system: 'system',
  service: 'service',
  issuetype: 'issueType',
  primary_category: 'mainCategory',
  secondary_category: 'additionalCategories',
  summary: 'summary',
  priority: 'priority',
  reporter_name: 'reporterName',
  description: 'description',
  recommendations: 'recommendations',
  status_description: 'statusDescription',
  tags: 'tags',
  affected_systems: 'affectedSystems',
  activity_detected_at: 'activityDetectedAt',
  gossopka_planned_time: 'gossopkaPlannedTime',
  detection_rules: 'detectionRules',
  mitre_cov: 'mitre',
  affected_assets: 'affectedAssets',
  observed_iocs: 'iocs',
  alerts: 'alerts',
};
/** Fields of a row (`observed_iocs.2.ioc`) → the row's form field. */
const ROW_FIELDS: Record<string, Record<string, string>> = {
  iocs: { ioc: 'value', ioc_type: 'type' },
  alerts: {
    title: 'title',
    severity: 'severity',
    platform: 'platform',
    priority: 'priority',
    rule: 'rule',
    description: 'description',
  },
};

/** The form field a server field name (`tags.3`, `observed_iocs.0.ioc`) belongs to, dotted. */
function formFieldOf(serverName: string): string | undefined {
  const [root = '', index, sub] = serverName.split('.');
  const field = FIELD_BY_SERVER_NAME[root];
  if (!field) return undefined;
  const rowField = sub !== undefined ? ROW_FIELDS[field]?.[sub] : undefined;
  if (index !== undefined && /^\d+$/.test(index) && rowField) return `${field}.${index}.${rowField}`;
  return field;
}

/** Server messages split into those under a field (a form name path) and those of the form. */
export interface RegisterErrors {
  fields: Array<{ name: (string | number)[]; errors: string[] }>;
  formErrors: string[];
}

/**
 * Maps a 400 of POST /analyst/incidents/ onto the form: each payload field's messages under its
 * field (a row's under the row's field), non-field messages and unknown fields to the form alert.
 */
export function mapRegisterErrors(fieldErrors: FieldMessages): RegisterErrors {
  const byName: Record<string, string> = {};
  for (const serverName of Object.keys(fieldErrors)) {
    const field = formFieldOf(serverName);
    if (field) byName[serverName] = field;
  }
  const mapped = mapFieldErrors(fieldErrors, byName);
  // several server names (`tags.1`, `tags.4`) may land on one field: their messages join
  const merged = new Map<string, string[]>();
  for (const { name, errors } of mapped.fields) merged.set(name, [...(merged.get(name) ?? []), ...errors]);
  return {
    fields: [...merged].map(([name, errors]) => ({
      name: name.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      errors,
    })),
    formErrors: mapped.formErrors,
  };
}
