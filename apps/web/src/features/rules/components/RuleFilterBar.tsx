import {
  RULE_ACTIVATION_MODES,
  RULE_LEVELS,
  type RuleMitreTactic,
  type RuleMitreTechnique,
  type RuleServiceLevel,
} from '@soc/contracts';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { DateRangeFilter } from '@/shared/ui/filters/DateRangeFilter.tsx';
import { FilterField } from '@/shared/ui/filters/FilterField.tsx';
import { FilterRow } from '@/shared/ui/filters/FilterRow.tsx';
import { MultiSelectFilter } from '@/shared/ui/filters/MultiSelectFilter.tsx';
import { useRuleNamesQuery } from '../api/useRuleNamesQuery.ts';
import {
  useRuleServicesQuery,
  useRuleSuggestQuery,
  type RuleSuggestField,
} from '../api/useRuleSuggestQuery.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import type { FilterParamValue } from '@/shared/lib/filters.ts';
import {
  createdRangeChanges,
  readDate,
  readList,
  ruleCaption,
  withParams,
  type RuleParam,
} from '../lib/ruleQuery.ts';
import { SuggestFilter } from './SuggestFilter.tsx';
import '../i18n/texts.ts';

export type RuleFilterBarProps = {
  params: URLSearchParams;
  onChange: (next: URLSearchParams) => void;
  /** The matrix (tactics and techniques are the choices of their filters). */
  tactics: readonly RuleMitreTactic[];
  techniques: readonly RuleMitreTechnique[];
};

const suggestHook = (field: RuleSuggestField) =>
  function useOptions(text: string, open: boolean) {
    const query = useRuleSuggestQuery(field, text, open);
    return { options: (query.data ?? []).map((v) => ({ value: v, label: v })), loading: query.isFetching };
  };
const categoryOptions = suggestHook('categories');
const platformOptions = suggestHook('platforms');
const sensorOptions = suggestHook('sensors');
const sensorTypeOptions = suggestHook('sensor_types');
const sensorModuleOptions = suggestHook('sensor_modules');

/** The filters of product §B9: severity, categories, confidence, created, tactics, techniques, platform, rules, available-for levels, custom rule, activation mode (and sensors). */
export function RuleFilterBar({ params, onChange, tactics, techniques }: RuleFilterBarProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const services = useRuleServicesQuery();
  const apply = (changes: Partial<Record<RuleParam, FilterParamValue>>) =>
    onChange(withParams(params, changes));
  const levels = RULE_LEVELS.map((level) => ({ value: level, label: t(`rules.levels.${level}`) }));
  const requested = params.get('is_requested');

  const useRuleOptions = (text: string, open: boolean) => {
    const query = useRuleNamesQuery(text, open);
    return {
      options: (query.data ?? []).map((rule) => ({
        value: String(rule.id),
        label: ruleCaption(rule, language),
      })),
      loading: query.isFetching,
    };
  };

  return (
    <FilterRow label={t('rules.filters.label')} testId="rules-filter-bar" minColumnWidth="14rem">
      <FilterField htmlFor="rule-filter-severity" label={t('rules.filters.severity')}>
        <MultiSelectFilter
          id="rule-filter-severity"
          testId="rule-filter-severity"
          value={readList(params, 'severity__in')}
          options={levels}
          onApply={(values) => apply({ severity__in: values })}
        />
      </FilterField>
      <FilterField htmlFor="rule-filter-category" label={t('rules.filters.category')}>
        <SuggestFilter
          id="rule-filter-category"
          testId="rule-filter-category"
          value={readList(params, 'category__in')}
          useOptions={categoryOptions}
          onApply={(values) => apply({ category__in: values })}
        />
      </FilterField>
      <FilterField htmlFor="rule-filter-confidence" label={t('rules.filters.confidence')}>
        <MultiSelectFilter
          id="rule-filter-confidence"
          testId="rule-filter-confidence"
          value={readList(params, 'confidence__in')}
          options={levels}
          onApply={(values) => apply({ confidence__in: values })}
        />
      </FilterField>
      <FilterField htmlFor="rule-filter-created" label={t('rules.filters.created')}>
        <DateRangeFilter
          id="rule-filter-created"
          testId="rule-filter-created"
          from={readDate(params, 'created__gte')}
          to={readDate(params, 'created__lte')}
          onApply={(range) => apply(createdRangeChanges(range))}
        />
      </FilterField>
      <FilterField htmlFor="rule-filter-tactic" label={t('rules.filters.tactic')}>
        <MultiSelectFilter
          id="rule-filter-tactic"
          testId="rule-filter-tactic"
          value={readList(params, 'mitre_tactic__in')}
          options={tactics.map((tactic) => ({
            value: tactic.short_name,
            label: tactic.name || tactic.short_name,
          }))}
          onApply={(values) => apply({ mitre_tactic__in: values })}
        />
      </FilterField>
      <FilterField htmlFor="rule-filter-technique" label={t('rules.filters.technique')}>
        <MultiSelectFilter
          id="rule-filter-technique"
          testId="rule-filter-technique"
          value={readList(params, 'mitre_technique__in')}
          options={techniques.map((technique) => ({
            value: technique.technique_id,
            label: technique.fullName
              ? `${technique.technique_id} ${technique.fullName}`
              : technique.technique_id,
          }))}
          onApply={(values) => apply({ mitre_technique__in: values })}
        />
      </FilterField>
      <FilterField htmlFor="rule-filter-platform" label={t('rules.filters.platform')}>
        <SuggestFilter
          id="rule-filter-platform"
          testId="rule-filter-platform"
          value={readList(params, 'mitre_platform__in')}
          useOptions={platformOptions}
          onApply={(values) => apply({ mitre_platform__in: values })}
        />
      </FilterField>
      <FilterField htmlFor="rule-filter-rules" label={t('rules.filters.rules')}>
        <SuggestFilter
          id="rule-filter-rules"
          testId="rule-filter-rules"
          value={readList(params, 'id__in')}
          useOptions={useRuleOptions}
          onApply={(values) => apply({ id__in: values })}
        />
      </FilterField>
      <FilterField htmlFor="rule-filter-services" label={t('rules.filters.services')}>
        <MultiSelectFilter
          id="rule-filter-services"
          testId="rule-filter-services"
          value={readList(params, 'available_for_services__in')}
          loading={services.isPending}
          options={(services.data ?? []).map((level: RuleServiceLevel) => ({ value: level, label: level }))}
          onApply={(values) => apply({ available_for_services__in: values })}
        />
      </FilterField>
      <FilterField htmlFor="rule-filter-requested" label={t('rules.filters.requested')}>
        <Select<string>
          id="rule-filter-requested"
          data-testid="rule-filter-requested"
          allowClear
          value={requested ?? undefined}
          options={[
            { value: 'true', label: t('rules.filters.yes') },
            { value: 'false', label: t('rules.filters.no') },
          ]}
          onChange={(value) => apply({ is_requested: value ?? null })}
          style={{ width: '100%' }}
        />
      </FilterField>
      <FilterField htmlFor="rule-filter-activation" label={t('rules.filters.activation')}>
        <MultiSelectFilter
          id="rule-filter-activation"
          testId="rule-filter-activation"
          value={readList(params, 'activation_mode__in')}
          options={RULE_ACTIVATION_MODES.map((mode) => ({
            value: mode,
            label: t(`rules.activation.${mode}`),
          }))}
          onApply={(values) => apply({ activation_mode__in: values })}
        />
      </FilterField>
      <FilterField htmlFor="rule-filter-sensor" label={t('rules.filters.sensor')}>
        <SuggestFilter
          id="rule-filter-sensor"
          testId="rule-filter-sensor"
          value={readList(params, 'sensor__in')}
          useOptions={sensorOptions}
          onApply={(values) => apply({ sensor__in: values })}
        />
      </FilterField>
      <FilterField htmlFor="rule-filter-sensor-type" label={t('rules.filters.sensorType')}>
        <SuggestFilter
          id="rule-filter-sensor-type"
          testId="rule-filter-sensor-type"
          value={readList(params, 'sensor_type__in')}
          useOptions={sensorTypeOptions}
          onApply={(values) => apply({ sensor_type__in: values })}
        />
      </FilterField>
      <FilterField htmlFor="rule-filter-sensor-module" label={t('rules.filters.sensorModule')}>
        <SuggestFilter
          id="rule-filter-sensor-module"
          testId="rule-filter-sensor-module"
          value={readList(params, 'sensor_module__in')}
          useOptions={sensorModuleOptions}
          onApply={(values) => apply({ sensor_module__in: values })}
        />
      </FilterField>
    </FilterRow>
  );
}
