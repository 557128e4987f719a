import type { Rule, RuleDetail, RuleServiceLevel } from '@soc/contracts';
import { SIGMA_LICENCE, isRuleLinkUrl } from '@soc/contracts';
import type { RuleListRow, RuleRow } from './rules.repository.ts';

/** Row → API shape (product §B3 Rule field names). */
export function presentRule(r: RuleListRow): Rule {
  return {
    id: r.id,
    rule_id: r.ruleId,
    name: r.name,
    rule_caption_rus: r.captionRu,
    rule_caption_eng: r.captionEn,
    description_rus: r.descriptionRu,
    description_eng: r.descriptionEn,
    created: r.created.toISOString(),
    severity: r.severity,
    confidence: r.confidence,
    category: r.categories,
    available_for_services: r.availableForServices as RuleServiceLevel[],
    activation_mode: r.activationMode,
    is_requested: r.isRequested,
    mitre_cov: r.mitreCov,
    mitre_tactic: r.tactics,
    mitre_technique: r.techniques,
    mitre_platform: r.platforms,
    // never a javascript: or data: link, even one stored before the import refused them
    links: r.links.filter((l) => isRuleLinkUrl(l.url)),
    sensor_tuples: r.sensorTuples,
    source: r.source,
    author: r.author,
    source_status: r.sourceStatus,
    authored_on: r.authoredOn,
    modified_on: r.modifiedOn,
    false_positives: r.falsePositives,
    licence: r.source === 'sigma' ? SIGMA_LICENCE : null,
  };
}

/** A rule's page: the list shape and the imported YAML. */
export function presentRuleDetail(r: RuleRow): RuleDetail {
  return { ...presentRule(r), source_yaml: r.sourceYaml };
}
