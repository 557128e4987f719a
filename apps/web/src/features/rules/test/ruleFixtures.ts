import type { Rule } from '@soc/contracts';

/** A detection rule as GET /soc/rules/{id}/ returns it; `id` also seeds its names. */
export function makeRule(id: number, overrides: Partial<Rule> = {}): Rule {
  return {
    id,
    rule_id: `SOC-R-${id}`,
    name: `Rule ${id}`,
    rule_caption_rus: `Правило ${id}`,
    rule_caption_eng: `Rule ${id}`,
    description_rus: '',
    description_eng: '',
    created: new Date(Date.UTC(2026, 0, id)).toISOString(),
    severity: 'High',
    confidence: 'Medium',
    category: ['Malware'],
    available_for_services: ['Vision'],
    activation_mode: 'auto',
    is_requested: false,
    mitre_cov: {},
    mitre_tactic: [],
    mitre_technique: [],
    mitre_platform: ['Windows'],
    links: [],
    sensor_tuples: [],
    source: null,
    author: '',
    source_status: null,
    authored_on: null,
    modified_on: null,
    false_positives: [],
    licence: null,
    ...overrides,
  };
}
