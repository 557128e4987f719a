import type { IncidentOrdering } from '@soc/contracts';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';

/** Sort options (product §A9: created, updated, status, priority, each either way) with their labels. */
const SORT_OPTIONS = [
  ['-created', 'createdDesc'],
  ['created', 'createdAsc'],
  ['-updated', 'updatedDesc'],
  ['updated', 'updatedAsc'],
  ['status', 'statusAsc'],
  ['-status', 'statusDesc'],
  ['priority', 'priorityAsc'],
  ['-priority', 'priorityDesc'],
] as const satisfies ReadonlyArray<readonly [IncidentOrdering, string]>;

export type IncidentSortControlProps = {
  value: IncidentOrdering;
  onChange: (ordering: IncidentOrdering) => void;
};

/** The sort order of the incident list. */
export function IncidentSortControl({ value, onChange }: IncidentSortControlProps) {
  const { t } = useTranslation();
  return (
    <Select<IncidentOrdering>
      data-testid="incidents-sort"
      aria-label={t('incidents.toolbar.sort')}
      title={t('incidents.toolbar.sort')}
      value={value}
      onChange={onChange}
      options={SORT_OPTIONS.map(([ordering, label]) => ({
        value: ordering,
        label: t(`incidents.sort.${label}`),
      }))}
      popupMatchSelectWidth={false}
      style={{ minWidth: '14rem' }}
    />
  );
}
