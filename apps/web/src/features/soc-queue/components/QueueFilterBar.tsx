import {
  INCIDENT_PRIORITIES,
  QUEUE_ORDERINGS,
  QUEUE_REASONS,
  QUEUE_STATUSES,
  SLA_STATES,
  type QueueOrdering,
} from '@soc/contracts';
import { Flex, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSystemChoicesQuery } from '@/shared/api/systems.ts';
import { countFilterParams } from '@/shared/lib/filters.ts';
import { FilterBar } from '@/shared/ui/filters/FilterBar.tsx';
import { multiFilterBuilder } from '@/shared/ui/filters/MultiSelectFilter.tsx';
import { ResetFiltersButton } from '@/shared/ui/ListPage.tsx';
import { useFilterChoicesQuery } from '../../incidents/index.ts';
import {
  readQueueList,
  readQueueOrdering,
  withQueueParams,
  type QueueListParam,
} from '../lib/queueListQuery.ts';
import { StaffMultiSelect } from './StaffSelect.tsx';
import '../i18n/texts.ts';

export type QueueFilterBarProps = {
  params: URLSearchParams;
  onChange: (next: URLSearchParams) => void;
};

/**
 * The queue's filters (multiselects applied on closing), the "Mine" and "Unassigned" switches and
 * the sort; on a phone they go into the filter drawer (FilterBar).
 */
export function QueueFilterBar({ params, onChange }: QueueFilterBarProps) {
  const { t } = useTranslation();
  const systems = useSystemChoicesQuery();
  const choices = useFilterChoicesQuery();
  const set = (changes: Partial<Record<QueueListParam, string | readonly string[] | null>>) =>
    onChange(withQueueParams(params, changes));
  const multi = multiFilterBuilder<QueueListParam>(
    'soc-queue',
    '10rem',
    (key) => readQueueList(params, key),
    (key, values) => set({ [key]: values }),
  );
  const toggle = (key: 'mine' | 'soc_assignee__isnull', label: string) => (
    <Flex align="center" gap="small" component="label">
      <Switch
        size="small"
        checked={params.get(key) === 'true'}
        onChange={(checked) => set({ [key]: checked ? 'true' : null })}
        data-testid={`soc-queue-filter-${key}`}
      />
      <Typography.Text>{label}</Typography.Text>
    </Flex>
  );
  return (
    <FilterBar testId="soc-queue" active={countFilterParams(params)}>
      {multi(
        'system__in',
        t('socQueue.filters.tenant'),
        (systems.data ?? []).map((s) => ({ value: String(s.id), label: `${s.is_id} · ${s.full_name}` })),
      )}
      {multi(
        'priority__in',
        t('socQueue.filters.priority'),
        INCIDENT_PRIORITIES.map((p) => ({ value: p, label: t(`incidentPriority.${p}`) })),
      )}
      {multi(
        'status__in',
        t('socQueue.filters.status'),
        QUEUE_STATUSES.map((s) => ({ value: s, label: t(`incidentStatus.${s}`) })),
      )}
      {multi(
        'category__in',
        t('socQueue.filters.category'),
        (choices.data?.categories ?? []).map((c) => ({ value: String(c.id), label: c.title })),
      )}
      <div style={{ minWidth: '12rem', flex: '1 1 12rem' }}>
        <StaffMultiSelect
          label={t('socQueue.filters.assignee')}
          testId="soc-queue-filter-soc_assignee__in"
          value={readQueueList(params, 'soc_assignee__in')}
          onApply={(ids) => set({ soc_assignee__in: ids })}
        />
      </div>
      {multi(
        'sla_state__in',
        t('socQueue.filters.slaState'),
        SLA_STATES.map((s) => ({ value: s, label: t(`socQueue.slaState.${s}`) })),
      )}
      {multi(
        'reason__in',
        t('socQueue.filters.reason'),
        QUEUE_REASONS.map((r) => ({ value: r, label: t(`socQueue.reason.${r}`) })),
      )}
      {toggle('mine', t('socQueue.filters.mine'))}
      {toggle('soc_assignee__isnull', t('socQueue.filters.unassigned'))}
      <Select<QueueOrdering>
        aria-label={t('socQueue.filters.sort')}
        data-testid="soc-queue-sort"
        value={readQueueOrdering(params)}
        onChange={(value) => set({ ordering: value })}
        options={QUEUE_ORDERINGS.map((o) => ({ value: o, label: t(`socQueue.orderings.${o}`) }))}
        style={{ minWidth: '15rem' }}
      />
      <ResetFiltersButton
        text={t('socQueue.filters.reset')}
        label={t('socQueue.filters.resetLabel')}
        onReset={() => onChange(new URLSearchParams())}
        testId="soc-queue-reset"
      />
    </FilterBar>
  );
}
