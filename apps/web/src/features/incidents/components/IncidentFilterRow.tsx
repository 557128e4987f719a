import { INCIDENT_PRIORITIES, INCIDENT_STATUSES, RESOLUTION_KINDS, type FilterChoices } from '@soc/contracts';
import { Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFilterChoicesQuery } from '../api/useFilterChoicesQuery.ts';
import {
  dateRangeChanges,
  readBool,
  readList,
  readMillis,
  withParams,
  type IncidentParam,
  type IncidentParamValue,
} from '../lib/incidentQuery.ts';
import { DateRangeFilter } from '@/shared/ui/filters/DateRangeFilter.tsx';
import { FilterField } from '@/shared/ui/filters/FilterField.tsx';
import { FilterRow } from '@/shared/ui/filters/FilterRow.tsx';
import { MultiSelectFilter, type FilterOption } from '@/shared/ui/filters/MultiSelectFilter.tsx';

export type IncidentFilterRowProps = {
  /** The applied (sanitised) parameters. */
  params: URLSearchParams;
  /** Applies new parameters. */
  onChange: (next: URLSearchParams) => void;
};

const TECHNIQUE_PATTERN = /^T\d{4}(\.\d{3})?$/;

/** A typed ATT&CK technique id in canonical form, or null when it is not one. */
const normalizeTechnique = (value: string): string | null => {
  const id = value.trim().toUpperCase();
  return TECHNIQUE_PATTERN.test(id) ? id : null;
};

/** Categories offered for the chosen issue types (all of them when none is chosen). */
function categoryOptions(choices: FilterChoices | undefined, issueTypes: readonly string[]): FilterOption[] {
  if (!choices) return [];
  return choices.categories
    .filter((category) => issueTypes.length === 0 || issueTypes.includes(String(category.issue_type)))
    .map((category) => ({ value: String(category.id), label: category.title }));
}

/**
 * One control per incident filter (product §A9 "Incident filter settings" and the further
 * filters of the list): multiselects apply on closing, dates as whole days, the rest at once.
 */
export function IncidentFilterRow({ params, onChange }: IncidentFilterRowProps) {
  const { t } = useTranslation();
  const choicesQuery = useFilterChoicesQuery();
  const choices = choicesQuery.data;
  const loading = choicesQuery.isPending;

  const apply = (changes: Partial<Record<IncidentParam, IncidentParamValue>>) =>
    onChange(withParams(params, changes));
  const list = (key: IncidentParam) => readList(params, key);
  const applyList = (key: IncidentParam) => (values: string[]) => apply({ [key]: values });

  const issueTypes = list('issuetype__in');

  return (
    <FilterRow label={t('incidents.filters.label')} testId="incidents-filter-row">
      <FilterField htmlFor="incident-filter-system" label={t('incidents.filters.system')}>
        <MultiSelectFilter
          id="incident-filter-system"
          testId="filter-system"
          value={list('system__in')}
          loading={loading}
          options={choices?.systems.map((system) => ({
            value: String(system.id),
            label: `${system.is_id} · ${system.full_name}`,
          }))}
          onApply={applyList('system__in')}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-issuetype" label={t('incidents.filters.issueType')}>
        <MultiSelectFilter
          id="incident-filter-issuetype"
          testId="filter-issuetype"
          value={issueTypes}
          loading={loading}
          options={choices?.issue_types.map((type) => ({ value: String(type.id), label: type.title }))}
          onApply={(types) => {
            // Categories of issue types no longer chosen would silently empty the list.
            const allowed = new Set(categoryOptions(choices, types).map((option) => option.value));
            apply({
              issuetype__in: types,
              category__in: list('category__in').filter((id) => allowed.has(id)),
            });
          }}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-category" label={t('incidents.filters.category')}>
        <MultiSelectFilter
          id="incident-filter-category"
          testId="filter-category"
          value={list('category__in')}
          loading={loading}
          options={categoryOptions(choices, issueTypes)}
          onApply={applyList('category__in')}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-priority" label={t('incidents.filters.priority')}>
        <MultiSelectFilter
          id="incident-filter-priority"
          testId="filter-priority"
          value={list('priority__in')}
          options={(choices?.priorities ?? INCIDENT_PRIORITIES).map((priority) => ({
            value: priority,
            label: t(`incidentPriority.${priority}`),
          }))}
          onApply={applyList('priority__in')}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-status" label={t('incidents.filters.status')}>
        <MultiSelectFilter
          id="incident-filter-status"
          testId="filter-status"
          value={list('status__in')}
          options={(choices?.statuses ?? INCIDENT_STATUSES).map((status) => ({
            value: status,
            label: t(`incidentStatus.${status}`),
          }))}
          onApply={applyList('status__in')}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-service" label={t('incidents.filters.service')}>
        <MultiSelectFilter
          id="incident-filter-service"
          testId="filter-service"
          value={list('service__in')}
          loading={loading}
          options={choices?.base_services.map((service) => ({ value: service, label: service }))}
          onApply={applyList('service__in')}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-created" label={t('incidents.filters.created')}>
        <DateRangeFilter
          id="incident-filter-created"
          testId="filter-created"
          from={readMillis(params, 'created__gte')}
          to={readMillis(params, 'created__lte')}
          onApply={(range) => apply(dateRangeChanges('created', range))}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-resolutiondate" label={t('incidents.filters.resolutionDate')}>
        <DateRangeFilter
          id="incident-filter-resolutiondate"
          testId="filter-resolution-date"
          from={readMillis(params, 'resolutiondate__gte')}
          to={readMillis(params, 'resolutiondate__lte')}
          onApply={(range) => apply(dateRangeChanges('resolutiondate', range))}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-sla" label={t('incidents.filters.sla')}>
        <DateRangeFilter
          id="incident-filter-sla"
          testId="filter-sla"
          from={readMillis(params, 'sla__gte')}
          to={readMillis(params, 'sla__lte')}
          onApply={(range) => apply(dateRangeChanges('sla', range))}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-sla-breached" label={t('incidents.filters.slaBreached')}>
        <Select<'true' | 'false'>
          id="incident-filter-sla-breached"
          data-testid="filter-sla-breached"
          value={readBool(params, 'sla_breached') ?? undefined}
          placeholder={t('incidents.filters.any')}
          allowClear
          options={[
            { value: 'true', label: t('incidents.filters.slaBreachedTrue') },
            { value: 'false', label: t('incidents.filters.slaBreachedFalse') },
          ]}
          onChange={(value) => apply({ sla_breached: value ?? null })}
          style={{ width: '100%' }}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-gossopka" label={t('incidents.filters.gossopka')}>
        <Select<'true' | 'false'>
          id="incident-filter-gossopka"
          data-testid="filter-gossopka"
          // The parameter asks whether the id is missing: "not sent" is isnull=true.
          value={readBool(params, 'gossopka_id__isnull') ?? undefined}
          placeholder={t('incidents.filters.any')}
          allowClear
          options={[
            { value: 'false', label: t('incidents.filters.gossopkaSent') },
            { value: 'true', label: t('incidents.filters.gossopkaNotSent') },
          ]}
          onChange={(value) => apply({ gossopka_id__isnull: value ?? null })}
          style={{ width: '100%' }}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-resolution" label={t('incidents.filters.resolution')}>
        <MultiSelectFilter
          id="incident-filter-resolution"
          testId="filter-resolution"
          value={list('resolution__in')}
          options={RESOLUTION_KINDS.map((kind) => ({ value: kind, label: t(`incidentResolution.${kind}`) }))}
          onApply={applyList('resolution__in')}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-assignee" label={t('incidents.filters.assignee')}>
        <MultiSelectFilter
          id="incident-filter-assignee"
          testId="filter-assignee"
          value={list('customer_assignee__in')}
          loading={loading}
          options={choices?.users.map((user) => ({
            value: String(user.id),
            label: user.full_name || user.username,
          }))}
          onApply={applyList('customer_assignee__in')}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-tactic" label={t('incidents.filters.tactic')}>
        <MultiSelectFilter
          id="incident-filter-tactic"
          testId="filter-tactic"
          mode="tags"
          value={list('tactic__in')}
          placeholder={t('incidents.filters.tagsPlaceholder')}
          normalize={(value) => value.trim().toLowerCase() || null}
          onApply={applyList('tactic__in')}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-technique" label={t('incidents.filters.technique')}>
        <MultiSelectFilter
          id="incident-filter-technique"
          testId="filter-technique"
          mode="tags"
          value={list('technique__in')}
          placeholder={t('incidents.filters.tagsPlaceholder')}
          normalize={normalizeTechnique}
          onApply={applyList('technique__in')}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-rule" label={t('incidents.filters.rule')}>
        <MultiSelectFilter
          id="incident-filter-rule"
          testId="filter-rule"
          mode="tags"
          value={list('rule__in')}
          placeholder={t('incidents.filters.tagsPlaceholder')}
          onApply={applyList('rule__in')}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-ioc" label={t('incidents.filters.ioc')}>
        <MultiSelectFilter
          id="incident-filter-ioc"
          testId="filter-ioc"
          mode="tags"
          value={list('ioc__in')}
          placeholder={t('incidents.filters.tagsPlaceholder')}
          normalize={(value) => value.trim() || null}
          onApply={applyList('ioc__in')}
        />
      </FilterField>
      <FilterField htmlFor="incident-filter-host" label={t('incidents.filters.host')}>
        <HostFilter
          value={params.get('host__icontains') ?? ''}
          onApply={(host) => apply({ host__icontains: host })}
        />
      </FilterField>
    </FilterRow>
  );
}

type HostFilterProps = {
  value: string;
  onApply: (host: string) => void;
};

/** Host name substring: applied on Enter, on leaving the field and on clearing. */
function HostFilter({ value, onApply }: HostFilterProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const commit = (text: string) => {
    setDraft(null);
    if (text.trim() !== value) onApply(text.trim());
  };
  return (
    <Input
      id="incident-filter-host"
      data-testid="filter-host"
      value={draft ?? value}
      allowClear
      onChange={(event) => {
        // The clear button sends an empty change event: apply it straight away.
        if (event.type !== 'change') commit('');
        else setDraft(event.target.value);
      }}
      onPressEnter={() => commit(draft ?? value)}
      onBlur={() => {
        if (draft !== null) commit(draft);
      }}
    />
  );
}
