import {
  ALERT_ORDERINGS,
  ALERT_PRIORITIES,
  ALERT_SEVERITIES,
  ALERT_STATUSES,
  type AlertOrdering,
} from '@soc/contracts';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSystemChoicesQuery } from '@/shared/api/systems.ts';
import { countFilterParams } from '@/shared/lib/filters.ts';
import { FilterBar } from '@/shared/ui/filters/FilterBar.tsx';
import { multiFilterBuilder } from '@/shared/ui/filters/MultiSelectFilter.tsx';
import { SearchBox } from '@/shared/ui/SearchBox.tsx';
import {
  readAlertList,
  readAlertOrdering,
  withAlertParams,
  type AlertListParam,
} from '../lib/alertListQuery.ts';
import '../i18n/texts.ts';

export type AlertListFilterBarProps = {
  params: URLSearchParams;
  onChange: (next: URLSearchParams) => void;
};

/** Search, multiselect filters (applied on closing), "in an incident or not" and the sort of the alerts. */
export function AlertListFilterBar({ params, onChange }: AlertListFilterBarProps) {
  const { t } = useTranslation();
  const systems = useSystemChoicesQuery();
  const set = (key: AlertListParam, value: string | readonly string[] | null) =>
    onChange(withAlertParams(params, { [key]: value }));
  const multi = multiFilterBuilder<AlertListParam>(
    'alerts',
    '10rem',
    (key) => readAlertList(params, key),
    set,
  );
  return (
    <FilterBar
      testId="alerts"
      active={countFilterParams(params)}
      search={
        <SearchBox
          value={params.get('search') ?? ''}
          onSearch={(text) => set('search', text)}
          placeholder={t('alerts.screen.search')}
          label={t('alerts.screen.search')}
          buttonText={t('alerts.searchButton')}
          testId="alerts-search"
          width="22rem"
          clearsWhenEmptied
        />
      }
    >
      {multi(
        'severity__in',
        t('alerts.columns.severity'),
        ALERT_SEVERITIES.map((s) => ({ value: s, label: t(`alerts.severity.${s}`) })),
      )}
      {multi(
        'status__in',
        t('alerts.detail.status'),
        ALERT_STATUSES.map((s) => ({ value: s, label: t(`alerts.status.${s}`) })),
      )}
      {multi(
        'priority__in',
        t('alerts.screen.priority'),
        ALERT_PRIORITIES.map((p) => ({ value: p, label: t(`incidentPriority.${p}`) })),
      )}
      {multi(
        'system__in',
        t('alerts.screen.system'),
        (systems.data ?? []).map((s) => ({ value: String(s.id), label: s.is_id })),
      )}
      <Select<'' | 'true' | 'false'>
        aria-label={t('alerts.screen.grouped')}
        data-testid="alerts-filter-grouped"
        value={(params.get('grouped') ?? '') as '' | 'true' | 'false'}
        onChange={(value) => set('grouped', value || null)}
        options={[
          { value: '', label: t('alerts.screen.groupedAny') },
          { value: 'true', label: t('alerts.screen.groupedYes') },
          { value: 'false', label: t('alerts.screen.groupedNo') },
        ]}
        style={{ minWidth: '12rem' }}
      />
      <Select<AlertOrdering>
        aria-label={t('alerts.screen.sort')}
        data-testid="alerts-sort"
        value={readAlertOrdering(params)}
        onChange={(value) => set('ordering', value)}
        options={ALERT_ORDERINGS.map((o) => ({ value: o, label: t(`alerts.screen.orderings.${o}`) }))}
        style={{ minWidth: '14rem' }}
      />
    </FilterBar>
  );
}
