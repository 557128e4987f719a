import type { Asset, AssetOrdering } from '@soc/contracts';
import {
  ASSET_CRITICALITY_VALUES,
  ASSET_TYPE_VALUES,
  ASSETS_PAGE_SIZE,
  AssetListQuerySchema,
} from '@soc/contracts';
import { Alert, Button, Flex, Select, Table, Tag, Typography, theme } from 'antd';
import type { TableProps } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import {
  countFilterParams,
  readListParam,
  sanitizeFilterParams,
  withFilterParams,
  type ParamSchema,
  shownSearch,
} from '@/shared/lib/filters.ts';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { FilterBar } from '@/shared/ui/filters/FilterBar.tsx';
import { SearchBox } from '@/shared/ui/SearchBox.tsx';
import { useAssetChoicesQuery } from '../api/useAssetChoicesQuery.ts';
import { useAssetsQuery } from '../api/useAssetsQuery.ts';
import { useSystemChoicesQuery } from '@/shared/api/systems.ts';
import { AssetCriticalityTag } from '../components/AssetCriticalityTag.tsx';
import '../i18n/texts.ts';
import { DateRangeInput } from '@/shared/ui/DateInputs.tsx';

const FILTER_KEYS = [
  'search',
  'asset_type__in',
  'os__in',
  'system__in',
  'criticality__in',
  'last_seen__gte',
  'last_seen__lte',
  'ordering',
] as const;
type FilterKey = (typeof FILTER_KEYS)[number];
const DEFAULT_ORDERING: AssetOrdering = 'name';
const shape: Record<string, ParamSchema> = AssetListQuerySchema.shape;
const schemaOf = (key: string) => ((FILTER_KEYS as readonly string[]).includes(key) ? shape[key] : undefined);

type MultiFilterProps = {
  label: string;
  testId: string;
  value: string[];
  options: { value: string; label: string }[];
  onApply: (values: string[]) => void;
};

/** A multiselect that applies its selection on closing, only if changed (design §7). */
function MultiFilter({ label, testId, value, options, onApply }: MultiFilterProps) {
  const [draft, setDraft] = useState<string[] | null>(null);
  return (
    <Select
      mode="multiple"
      allowClear
      maxTagCount="responsive"
      placeholder={label}
      aria-label={label}
      style={{ minWidth: 200 }}
      value={draft ?? value}
      options={options}
      optionFilterProp="label"
      onChange={(next: string[]) => setDraft(next)}
      onClear={() => {
        setDraft(null);
        onApply([]);
      }}
      onOpenChange={(open) => {
        if (open || draft === null) return;
        if (draft.join(',') !== value.join(',')) onApply(draft);
        setDraft(null);
      }}
      data-testid={testId}
    />
  );
}

/** /cmdb/assets (product §B2, Beta): the read-only asset inventory with search and filters. */
export function AssetsPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  useDocumentTitle(t('pages.assets'));
  const { params: rawParams, setParams, reset } = usePersistedFilters('assets');
  const params = useMemo(() => sanitizeFilterParams(rawParams, schemaOf), [rawParams]);
  const filtersKey = params.toString();
  const [pageState, setPageState] = useState({ filtersKey, page: 1 });
  const page = pageState.filtersKey === filtersKey ? pageState.page : 1;
  const assets = useAssetsQuery(params, page);
  const choices = useAssetChoicesQuery();
  const systems = useSystemChoicesQuery();
  const ordering = (params.get('ordering') ?? DEFAULT_ORDERING) as AssetOrdering;
  const change = (changes: Partial<Record<FilterKey, string | string[] | number | null>>) =>
    setParams(withFilterParams(params, changes, DEFAULT_ORDERING));

  const gte = params.get('last_seen__gte');
  const lte = params.get('last_seen__lte');
  const sortOrder = (column: 'name' | 'last_seen') =>
    ordering === column ? ('ascend' as const) : ordering === `-${column}` ? ('descend' as const) : null;

  const columns: TableProps<Asset>['columns'] = [
    {
      key: 'name',
      title: t('assets.list.columns.name'),
      sorter: true,
      sortOrder: sortOrder('name'),
      render: (_, a) => (
        <Link to={`/cmdb/assets/${encodeURIComponent(a.cmdb_id)}`} data-testid="asset-link">
          {a.name}
        </Link>
      ),
    },
    { key: 'cmdb_id', title: t('assets.list.columns.cmdbId'), dataIndex: 'cmdb_id' },
    {
      key: 'type',
      title: t('assets.list.columns.type'),
      render: (_, a) => t(`assets.types.${a.asset_type}`),
    },
    { key: 'os', title: t('assets.list.columns.os'), render: (_, a) => a.os || '—' },
    { key: 'ip', title: t('assets.list.columns.ip'), render: (_, a) => a.ip_address || '—' },
    { key: 'fqdn', title: t('assets.list.columns.fqdn'), render: (_, a) => a.fqdn || '—', ellipsis: true },
    { key: 'system', title: t('assets.list.columns.system'), render: (_, a) => a.system.is_id },
    {
      key: 'criticality',
      title: t('assets.list.columns.criticality'),
      render: (_, a) => <AssetCriticalityTag value={a.criticality} />,
    },
    {
      key: 'last_seen',
      title: t('assets.list.columns.lastSeen'),
      sorter: true,
      sortOrder: sortOrder('last_seen'),
      render: (_, a) => formatDateTime(a.last_seen),
    },
  ];

  const onChange: TableProps<Asset>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'paginate') setPageState({ filtersKey, page: pagination.current ?? 1 });
    if (extra.action === 'sort') {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      const column = s?.columnKey as 'name' | 'last_seen' | undefined;
      change({ ordering: column && s?.order ? (s.order === 'descend' ? `-${column}` : column) : null });
    }
  };

  return (
    <Flex vertical gap="middle" data-testid="assets-page">
      <Flex align="center" gap="small">
        <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading3 }}>
          {t('assets.list.title')}
        </Typography.Title>
        <Tag color="blue">{t('assets.list.beta')}</Tag>
      </Flex>
      <FilterBar
        testId="assets"
        active={countFilterParams(params)}
        search={
          <SearchBox
            value={shownSearch(rawParams, params)}
            onSearch={(text) => change({ search: text })}
            placeholder={t('assets.list.searchPlaceholder')}
            label={t('assets.list.searchLabel')}
            buttonText={t('assets.list.searchButton')}
            testId="assets-search"
            width="360px"
            clearsWhenEmptied
          />
        }
      >
        <MultiFilter
          label={t('assets.list.type')}
          testId="assets-filter-type"
          value={readListParam(params, 'asset_type__in')}
          options={ASSET_TYPE_VALUES.map((v) => ({ value: v, label: t(`assets.types.${v}`) }))}
          onApply={(v) => change({ asset_type__in: v })}
        />
        <MultiFilter
          label={t('assets.list.os')}
          testId="assets-filter-os"
          value={readListParam(params, 'os__in')}
          options={(choices.data?.os ?? []).map((v) => ({ value: v, label: v }))}
          onApply={(v) => change({ os__in: v })}
        />
        <MultiFilter
          label={t('assets.list.system')}
          testId="assets-filter-system"
          value={readListParam(params, 'system__in')}
          options={(systems.data ?? []).map((s) => ({
            value: String(s.id),
            label: `${s.is_id} ${s.full_name}`,
          }))}
          onApply={(v) => change({ system__in: v })}
        />
        <MultiFilter
          label={t('assets.list.criticality')}
          testId="assets-filter-criticality"
          value={readListParam(params, 'criticality__in')}
          options={ASSET_CRITICALITY_VALUES.map((v) => ({ value: v, label: t(`assets.criticalities.${v}`) }))}
          onApply={(v) => change({ criticality__in: v })}
        />
        <DateRangeInput
          aria-label={t('assets.list.lastSeen')}
          placeholder={[t('assets.list.lastSeen'), t('assets.list.lastSeen')]}
          allowEmpty={[true, true]}
          value={[gte ? dayjs(Number(gte)) : null, lte ? dayjs(Number(lte)) : null]}
          onChange={(dates) =>
            change({
              // a date range covers the start of its first day to the end of its last (design §7)
              last_seen__gte: dates?.[0] ? dates[0].startOf('day').valueOf() : null,
              last_seen__lte: dates?.[1] ? dates[1].endOf('day').valueOf() : null,
            })
          }
          data-testid="assets-filter-last-seen"
        />
        <Button onClick={reset} disabled={filtersKey === ''}>
          {t('assets.list.reset')}
        </Button>
      </FilterBar>
      {assets.isError && (
        <Alert
          type="error"
          showIcon
          message={t('assets.list.loadFailed')}
          action={
            <Button size="small" onClick={() => void assets.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      )}
      <Table<Asset>
        rowKey="cmdb_id"
        size="middle"
        columns={columns}
        dataSource={assets.data?.results ?? []}
        loading={assets.isFetching}
        onChange={onChange}
        onRow={(a) => ({
          onDoubleClick: () => void navigate(`/cmdb/assets/${encodeURIComponent(a.cmdb_id)}`),
        })}
        locale={{ emptyText: t('assets.list.empty') }}
        pagination={{
          current: page,
          pageSize: ASSETS_PAGE_SIZE,
          total: assets.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total, [low, high]) => t('assets.list.pagination', { low, high, total }),
        }}
        data-testid="assets-table"
      />
    </Flex>
  );
}
