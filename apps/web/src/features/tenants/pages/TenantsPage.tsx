import { SearchOutlined } from '@ant-design/icons';
import type { SystemListItem, SystemOrdering } from '@soc/contracts';
import { SYSTEMS_PAGE_SIZE, SYSTEMS_TABLE_MIN_HEIGHT, SystemListQuerySchema } from '@soc/contracts';
import { Alert, Button, Flex, Table, Typography, theme } from 'antd';
import type { TableProps } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import {
  readListParam,
  sanitizeFilterParams,
  withFilterParams,
  type ParamSchema,
} from '@/shared/lib/filters.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { useSystemPeopleQuery, useSystemsQuery } from '@/shared/api/systems.ts';
import { TextFilterDropdown } from '../components/TextFilterDropdown.tsx';
import '../i18n/texts.ts';

const FILTER_KEYS = [
  'is_id__icontains',
  'full_name__icontains',
  'service_manager__in',
  'dedicated_analyst__in',
  'ordering',
] as const;
const DEFAULT_ORDERING: SystemOrdering = 'is_id';
const shape: Record<string, ParamSchema> = SystemListQuerySchema.shape;
const schemaOf = (key: string) => ((FILTER_KEYS as readonly string[]).includes(key) ? shape[key] : undefined);

type SortableColumn = 'is_id' | 'full_name' | 'service_manager' | 'dedicated_analyst';

/** /tenants (product §B2): the protected systems table with text, people filters and sorting. */
export function TenantsPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  useDocumentTitle(t('pages.tenants'));
  const { params: rawParams, setParams } = usePersistedFilters('tenants');
  const params = useMemo(() => sanitizeFilterParams(rawParams, schemaOf), [rawParams]);
  const filtersKey = params.toString();
  const [pageState, setPageState] = useState({ filtersKey, page: 1 });
  const page = pageState.filtersKey === filtersKey ? pageState.page : 1;
  const systems = useSystemsQuery(params, page);
  const managers = useSystemPeopleQuery('service_manager');
  const analysts = useSystemPeopleQuery('dedicated_analyst');
  const ordering = (params.get('ordering') ?? DEFAULT_ORDERING) as SystemOrdering;

  const change = (changes: Partial<Record<(typeof FILTER_KEYS)[number], string | string[] | null>>) =>
    setParams(withFilterParams(params, changes, DEFAULT_ORDERING));

  const sortOrder = (column: SortableColumn) =>
    ordering === column ? ('ascend' as const) : ordering === `-${column}` ? ('descend' as const) : null;

  const textColumn = (column: 'is_id' | 'full_name') => {
    const key = `${column}__icontains` as const;
    const value = params.get(key) ?? '';
    const label = t(column === 'is_id' ? 'tenants.list.columns.id' : 'tenants.list.columns.fullName');
    return {
      filteredValue: value ? [value] : null,
      // the icon names the trigger that antd makes a button of (axe: aria-command-name)
      filterIcon: (
        <SearchOutlined
          style={{ color: value ? token.colorPrimary : undefined }}
          aria-label={t('tenants.list.filterBy', { column: label })}
        />
      ),
      filterDropdown: ({ close }: { close: () => void }) => (
        <TextFilterDropdown
          key={value}
          value={value}
          label={label}
          testId={`tenants-filter-${column}`}
          onApply={(text) => change({ [key]: text || null })}
          close={close}
        />
      ),
    };
  };

  const person = (p: SystemListItem['service_manager']) => p?.full_name ?? '—';

  const columns: TableProps<SystemListItem>['columns'] = [
    {
      key: 'is_id',
      title: t('tenants.list.columns.id'),
      dataIndex: 'is_id',
      width: 140,
      sorter: true,
      sortOrder: sortOrder('is_id'),
      render: (_, system) => (
        <Link to={`/tenants/${system.id}`} data-testid="tenants-link">
          {system.is_id}
        </Link>
      ),
      ...textColumn('is_id'),
    },
    {
      key: 'full_name',
      title: t('tenants.list.columns.fullName'),
      dataIndex: 'full_name',
      sorter: true,
      sortOrder: sortOrder('full_name'),
      ...textColumn('full_name'),
    },
    {
      key: 'services',
      title: t('tenants.list.columns.services'),
      render: (_, system) => system.services.join(', ') || '—',
    },
    {
      key: 'service_manager',
      title: t('tenants.list.columns.serviceManager'),
      sorter: true,
      sortOrder: sortOrder('service_manager'),
      filters: (managers.data?.results ?? []).map((p) => ({ text: p.full_name, value: String(p.id) })),
      filterSearch: true,
      filteredValue: readListParam(params, 'service_manager__in'),
      render: (_, system) => person(system.service_manager),
    },
    {
      key: 'dedicated_analyst',
      title: t('tenants.list.columns.dedicatedAnalyst'),
      sorter: true,
      sortOrder: sortOrder('dedicated_analyst'),
      filters: (analysts.data?.results ?? []).map((p) => ({ text: p.full_name, value: String(p.id) })),
      filterSearch: true,
      filteredValue: readListParam(params, 'dedicated_analyst__in'),
      render: (_, system) => person(system.dedicated_analyst),
    },
  ];

  const onChange: TableProps<SystemListItem>['onChange'] = (pagination, filters, sorter, extra) => {
    if (extra.action === 'paginate') {
      setPageState({ filtersKey, page: pagination.current ?? 1 });
      return;
    }
    if (extra.action === 'sort') {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      const column = s?.columnKey as SortableColumn | undefined;
      const next = column && s?.order ? (s.order === 'descend' ? `-${column}` : column) : null;
      change({ ordering: next });
      return;
    }
    if (extra.action === 'filter') {
      const list = (key: string) => ((filters[key] ?? []) as (string | number)[]).map(String);
      const managersNext = list('service_manager');
      const analystsNext = list('dedicated_analyst');
      // a multiselect applies on closing, only if changed (design §7)
      if (
        managersNext.join(',') === readListParam(params, 'service_manager__in').join(',') &&
        analystsNext.join(',') === readListParam(params, 'dedicated_analyst__in').join(',')
      ) {
        return;
      }
      change({ service_manager__in: managersNext, dedicated_analyst__in: analystsNext });
    }
  };

  return (
    <Flex vertical gap="middle" data-testid="tenants-page">
      <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading3 }}>
        {t('tenants.list.title')}
      </Typography.Title>
      {systems.isError && (
        <Alert
          type="error"
          showIcon
          message={t('tenants.list.loadFailed')}
          action={
            <Button size="small" onClick={() => void systems.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      )}
      <Table<SystemListItem>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={systems.data?.results ?? []}
        loading={systems.isFetching}
        onChange={onChange}
        // the visible table (header and rows), not only the page around it, is at least 600 px
        styles={{ section: { minHeight: SYSTEMS_TABLE_MIN_HEIGHT } }}
        locale={{ emptyText: t('tenants.list.empty'), filterEmptyText: t('tenants.list.notFoundInFilter') }}
        pagination={{
          current: page,
          pageSize: SYSTEMS_PAGE_SIZE,
          total: systems.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total, [low, high]) => t('tenants.list.pagination', { low, high, total }),
        }}
        data-testid="tenants-table"
      />
    </Flex>
  );
}
