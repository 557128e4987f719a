import {
  TASK_ORDERINGS,
  TASK_PRIORITIES,
  TASK_STATUSES,
  TASK_TYPES,
  type TaskOrdering,
} from '@soc/contracts';
import { Button, Flex, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { SearchBox } from '@/shared/ui/SearchBox.tsx';
import { useSystemChoicesQuery } from '@/shared/api/systems.ts';
import { MultiSelectFilter } from '@/shared/ui/filters/MultiSelectFilter.tsx';
import { readTaskList, readTaskOrdering, withTaskParams, type TaskParam } from '../lib/taskQuery.ts';
import '../i18n/texts.ts';

export type TaskFilterBarProps = {
  params: URLSearchParams;
  onChange: (next: URLSearchParams) => void;
};

/** Search, the multiselect filters (applied on closing), the sort and a reset of the task list. */
export function TaskFilterBar({ params, onChange }: TaskFilterBarProps) {
  const { t } = useTranslation();
  const systems = useSystemChoicesQuery();
  const set = (key: TaskParam, value: string | readonly string[] | null) =>
    onChange(withTaskParams(params, { [key]: value }));
  const multi = (key: TaskParam, label: string, options: { value: string; label: string }[]) => (
    <div style={{ minWidth: '11rem', flex: '1 1 11rem' }}>
      <MultiSelectFilter
        id={`tasks-filter-${key}`}
        label={label}
        testId={`tasks-filter-${key}`}
        value={readTaskList(params, key)}
        options={options}
        placeholder={label}
        onApply={(values) => set(key, values)}
      />
    </div>
  );
  return (
    <Flex vertical gap="small">
      <Flex gap="small" wrap align="center">
        <SearchBox
          value={params.get('search') ?? ''}
          onSearch={(text) => set('search', text)}
          placeholder={t('tasks.list.search')}
          label={t('tasks.list.search')}
          buttonText={t('tasks.list.searchButton')}
          testId="tasks-search"
          width="28rem"
          clearsWhenEmptied
        />
        <Select<TaskOrdering>
          aria-label={t('tasks.list.sort')}
          data-testid="tasks-sort"
          value={readTaskOrdering(params)}
          onChange={(value) => set('ordering', value)}
          options={TASK_ORDERINGS.map((o) => ({ value: o, label: t(`tasks.list.orderings.${o}`) }))}
          style={{ minWidth: '16rem' }}
        />
        <Button onClick={() => onChange(new URLSearchParams())} data-testid="tasks-reset">
          {t('tasks.list.reset')}
        </Button>
      </Flex>
      <Flex gap="small" wrap>
        {multi(
          'status__in',
          t('tasks.list.status'),
          TASK_STATUSES.map((s) => ({ value: s, label: t(`tasks.statuses.${s}`) })),
        )}
        {multi(
          'type__in',
          t('tasks.list.type'),
          TASK_TYPES.map((s) => ({ value: s, label: t(`tasks.types.${s}`) })),
        )}
        {multi(
          'priority__in',
          t('tasks.list.priority'),
          TASK_PRIORITIES.map((s) => ({ value: s, label: t(`tasks.priorities.${s}`) })),
        )}
        {multi(
          'system__in',
          t('tasks.list.system'),
          (systems.data ?? []).map((s) => ({ value: String(s.id), label: s.is_id })),
        )}
      </Flex>
    </Flex>
  );
}
