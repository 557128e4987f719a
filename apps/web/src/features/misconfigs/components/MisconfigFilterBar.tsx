import {
  MISCONFIG_ORDERINGS,
  MISCONFIG_SEVERITIES,
  MISCONFIG_STATUSES,
  type MisconfigOrdering,
} from '@soc/contracts';
import { Button, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { SearchBox } from '@/shared/ui/SearchBox.tsx';
import { useSystemChoicesQuery } from '@/shared/api/systems.ts';
import { countFilterParams } from '@/shared/lib/filters.ts';
import { FilterBar } from '@/shared/ui/filters/FilterBar.tsx';
import { multiFilterBuilder } from '@/shared/ui/filters/MultiSelectFilter.tsx';
import {
  readMisconfigList,
  readMisconfigOrdering,
  withMisconfigParams,
  type MisconfigParam,
} from '../lib/misconfigQuery.ts';

export type MisconfigFilterBarProps = {
  params: URLSearchParams;
  onChange: (next: URLSearchParams) => void;
};

/** Search, multiselect filters (applied on closing), sort and reset of the recommendations. */
export function MisconfigFilterBar({ params, onChange }: MisconfigFilterBarProps) {
  const { t } = useTranslation();
  const systems = useSystemChoicesQuery();
  const set = (key: MisconfigParam, value: string | readonly string[] | null) =>
    onChange(withMisconfigParams(params, { [key]: value }));
  const multi = multiFilterBuilder<MisconfigParam>(
    'misconfigs',
    '11rem',
    (key) => readMisconfigList(params, key),
    set,
  );
  return (
    <FilterBar
      testId="misconfigs"
      active={countFilterParams(params)}
      search={
        <SearchBox
          value={params.get('search') ?? ''}
          onSearch={(text) => set('search', text)}
          placeholder={t('misconfigs.list.search')}
          label={t('misconfigs.list.search')}
          buttonText={t('misconfigs.list.searchButton')}
          testId="misconfigs-search"
          width="24rem"
          clearsWhenEmptied
        />
      }
    >
      {multi(
        'status__in',
        t('misconfigs.list.status'),
        MISCONFIG_STATUSES.map((s) => ({ value: s, label: t(`misconfigs.statuses.${s}`) })),
      )}
      {multi(
        'severity__in',
        t('misconfigs.list.severity'),
        MISCONFIG_SEVERITIES.map((s) => ({ value: s, label: t(`misconfigs.severities.${s}`) })),
      )}
      {multi(
        'system__in',
        t('misconfigs.list.system'),
        (systems.data ?? []).map((s) => ({ value: String(s.id), label: s.is_id })),
      )}
      <Select<MisconfigOrdering>
        aria-label={t('misconfigs.list.sort')}
        data-testid="misconfigs-sort"
        value={readMisconfigOrdering(params)}
        onChange={(value) => set('ordering', value)}
        options={MISCONFIG_ORDERINGS.map((o) => ({ value: o, label: t(`misconfigs.list.orderings.${o}`) }))}
        style={{ minWidth: '15rem' }}
      />
      <Button onClick={() => onChange(new URLSearchParams())} data-testid="misconfigs-reset">
        {t('misconfigs.list.reset')}
      </Button>
    </FilterBar>
  );
}
