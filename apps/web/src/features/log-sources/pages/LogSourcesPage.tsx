import type {
  LogSource,
  LogSourceOrdering,
  LogSourceStatus,
  LogSourceSummary,
  LogSourceTab,
} from '@soc/contracts';
import { LOG_SOURCE_TABS, LOG_SOURCES_PAGE_SIZE, LogSourceListQuerySchema } from '@soc/contracts';
import { WarningFilled } from '@ant-design/icons';
import {
  Alert,
  Badge,
  Button,
  Card,
  Flex,
  Select,
  Skeleton,
  Statistic,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import type { TableProps } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
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
import { formatNumber } from '@/shared/lib/formatNumber.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { ContrastTag } from '@/shared/ui/ContrastTag.tsx';
import { FilterBar } from '@/shared/ui/filters/FilterBar.tsx';
import { SearchBox } from '@/shared/ui/SearchBox.tsx';
import { useSystemChoicesQuery } from '@/shared/api/systems.ts';
import { useLogSourceSummaryQuery } from '../api/useLogSourceSummaryQuery.ts';
import { useLogSourcesQuery } from '../api/useLogSourcesQuery.ts';
import { durationParts } from '../lib/duration.ts';
import '../i18n/texts.ts';

const FILTER_KEYS = ['search', 'source_type__in', 'system__in', 'ordering'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];
const DEFAULT_ORDERING: LogSourceOrdering = 'name';
const shape: Record<string, ParamSchema> = LogSourceListQuerySchema.shape;
const schemaOf = (key: string) => ((FILTER_KEYS as readonly string[]).includes(key) ? shape[key] : undefined);

/** antd status colours: they follow the light and dark themes. */
const STATUS_COLOURS: Record<LogSourceStatus, string> = {
  active: 'success',
  silent: 'warning',
  disabled: 'default',
};
const BADGE_STATUS: Record<LogSourceStatus, 'success' | 'warning' | 'default'> = {
  active: 'success',
  silent: 'warning',
  disabled: 'default',
};

const isTab = (value: string | undefined): value is LogSourceTab =>
  (LOG_SOURCE_TABS as readonly string[]).includes(value ?? '');

/**
 * The warning mark of a silent source's figures: antd's warning hue has too little contrast for
 * text on white (WCAG AA), so the text keeps the theme's colour and the icon carries the hue.
 */
function SilentMark() {
  const { token } = theme.useToken();
  return (
    <WarningFilled aria-hidden style={{ color: token.colorWarning, marginInlineEnd: token.marginXXS }} />
  );
}

/** /log-sources/{tab} (product §B2; the content is our design): are my sources reporting? */
export function LogSourcesPage() {
  const { tab } = useParams();
  if (!isTab(tab)) return <Navigate to="/log-sources/total" replace />;
  return <LogSourcesView tab={tab} />;
}

function LogSourcesView({ tab }: { tab: LogSourceTab }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  useDocumentTitle(t('pages.logSources'));
  const { params: rawParams, setParams } = usePersistedFilters('logsources');
  const params = useMemo(() => sanitizeFilterParams(rawParams, schemaOf), [rawParams]);
  const listParams = useMemo(() => {
    const p = new URLSearchParams(params);
    if (tab !== 'total') p.set('status__in', tab);
    return p;
  }, [params, tab]);
  const listKey = listParams.toString();
  const [pageState, setPageState] = useState({ listKey, page: 1 });
  const page = pageState.listKey === listKey ? pageState.page : 1;
  const sources = useLogSourcesQuery(listParams, page);
  const summary = useLogSourceSummaryQuery(params);
  const systems = useSystemChoicesQuery();
  const ordering = (params.get('ordering') ?? DEFAULT_ORDERING) as LogSourceOrdering;
  const change = (changes: Partial<Record<FilterKey, string | string[] | null>>) =>
    setParams(withFilterParams(params, changes, DEFAULT_ORDERING));
  const sortOrder = (column: 'name' | 'last_event' | 'source_type') =>
    ordering === column ? ('ascend' as const) : ordering === `-${column}` ? ('descend' as const) : null;
  const now = sources.dataUpdatedAt || Date.now();

  const lastEvent = (s: LogSource) => {
    if (s.last_event === null)
      return <Typography.Text type="secondary">{t('logSources.never')}</Typography.Text>;
    const { unit, n } = durationParts(now - s.last_event);
    return (
      <Tooltip
        title={`${formatDateTime(s.last_event)} · ${t('logSources.silentFor', { minutes: s.silence_threshold_minutes })}`}
      >
        <Typography.Text data-testid="logsource-last-event">
          {s.status === 'silent' && <SilentMark />}
          {t('logSources.lastEventAgo', { ago: t(`logSources.duration.${unit}`, { n }) })}
        </Typography.Text>
      </Tooltip>
    );
  };

  const columns: TableProps<LogSource>['columns'] = [
    {
      key: 'name',
      title: t('logSources.columns.name'),
      dataIndex: 'name',
      sorter: true,
      sortOrder: sortOrder('name'),
    },
    {
      key: 'source_type',
      title: t('logSources.columns.type'),
      sorter: true,
      sortOrder: sortOrder('source_type'),
      render: (_, s) => <Tag>{s.source_type}</Tag>,
    },
    { key: 'host', title: t('logSources.columns.host'), render: (_, s) => s.host || '—' },
    {
      key: 'system',
      title: t('logSources.columns.system'),
      render: (_, s) => <Tooltip title={s.system.full_name}>{s.system.is_id}</Tooltip>,
    },
    {
      key: 'status',
      title: t('logSources.columns.status'),
      render: (_, s) => (
        <Tooltip title={t(`logSources.statusHelp.${s.status}`)}>
          <ContrastTag color={STATUS_COLOURS[s.status]} data-testid="logsource-status" data-status={s.status}>
            {t(`logSources.statuses.${s.status}`)}
          </ContrastTag>
        </Tooltip>
      ),
    },
    {
      key: 'last_event',
      title: t('logSources.columns.lastEvent'),
      sorter: true,
      sortOrder: sortOrder('last_event'),
      render: (_, s) => lastEvent(s),
    },
    {
      key: 'eps_hour',
      title: t('logSources.columns.epsHour'),
      align: 'right',
      render: (_, s) => formatNumber(s.eps_last_hour),
    },
    {
      key: 'eps_day',
      title: t('logSources.columns.epsDay'),
      align: 'right',
      render: (_, s) => formatNumber(s.eps_last_day),
    },
  ];

  const onChange: TableProps<LogSource>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'paginate') setPageState({ listKey, page: pagination.current ?? 1 });
    if (extra.action === 'sort') {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      const column = s?.columnKey as 'name' | 'last_event' | 'source_type' | undefined;
      change({ ordering: column && s?.order ? (s.order === 'descend' ? `-${column}` : column) : null });
    }
  };

  const typeOptions = (summary.data?.by_type ?? []).map((r) => ({
    value: r.source_type,
    label: r.source_type,
  }));
  const counts: Partial<Record<LogSourceTab, number>> = summary.data
    ? {
        total: summary.data.total,
        active: summary.data.active,
        silent: summary.data.silent,
        disabled: summary.data.disabled,
      }
    : {};

  return (
    <Flex vertical gap="middle" data-testid="logsources-page" data-tab={tab}>
      <div>
        <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading3 }}>
          {t('logSources.title')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('logSources.subtitle')}</Typography.Text>
      </div>
      <SummaryCards summary={summary.data} loading={summary.isLoading} failed={summary.isError} />
      <Tabs
        activeKey={tab}
        onChange={(key) => void navigate({ pathname: `/log-sources/${key}`, search: params.toString() })}
        items={LOG_SOURCE_TABS.map((key) => ({
          key,
          label: (
            <span data-testid={`logsources-tab-${key}`}>
              {key !== 'total' && <Badge status={BADGE_STATUS[key]} />} {t(`logSources.tabs.${key}`)}
              {counts[key] !== undefined && (
                <Typography.Text type="secondary" data-testid={`logsources-count-${key}`}>
                  {' '}
                  ({counts[key]})
                </Typography.Text>
              )}
            </span>
          ),
        }))}
      />
      <FilterBar
        testId="logsources"
        active={countFilterParams(params)}
        search={
          <SearchBox
            value={shownSearch(rawParams, params)}
            onSearch={(text) => change({ search: text })}
            placeholder={t('logSources.searchPlaceholder')}
            label={t('logSources.searchLabel')}
            buttonText={t('logSources.searchButton')}
            testId="logsources-search"
            width="360px"
            clearsWhenEmptied
          />
        }
      >
        <Select
          mode="multiple"
          allowClear
          placeholder={t('logSources.typeFilter')}
          aria-label={t('logSources.typeFilter')}
          style={{ minWidth: 200 }}
          value={readListParam(params, 'source_type__in')}
          options={typeOptions}
          onChange={(v: string[]) => change({ source_type__in: v })}
          data-testid="logsources-filter-type"
        />
        <Select
          mode="multiple"
          allowClear
          placeholder={t('logSources.systemFilter')}
          aria-label={t('logSources.systemFilter')}
          style={{ minWidth: 240 }}
          value={readListParam(params, 'system__in')}
          options={(systems.data ?? []).map((s) => ({
            value: String(s.id),
            label: `${s.is_id} ${s.full_name}`,
          }))}
          optionFilterProp="label"
          onChange={(v: string[]) => change({ system__in: v })}
          data-testid="logsources-filter-system"
        />
      </FilterBar>
      {sources.isError && (
        <Alert
          type="error"
          showIcon
          message={t('logSources.loadFailed')}
          action={
            <Button size="small" onClick={() => void sources.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      )}
      <Table<LogSource>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={sources.data?.results ?? []}
        loading={sources.isFetching}
        onChange={onChange}
        locale={{ emptyText: t('logSources.empty') }}
        pagination={{
          current: page,
          pageSize: LOG_SOURCES_PAGE_SIZE,
          total: sources.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total, [low, high]) => t('logSources.pagination', { low, high, total }),
        }}
        data-testid="logsources-table"
      />
    </Flex>
  );
}

function SummaryCards({
  summary,
  loading,
  failed,
}: {
  summary?: LogSourceSummary;
  loading: boolean;
  failed: boolean;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (failed) return <Alert type="warning" showIcon message={t('logSources.summary.loadFailed')} />;
  if (loading || !summary) return <Skeleton active paragraph={{ rows: 2 }} />;
  const stat = (key: string, title: string, value: number, color?: string, precision?: number) => (
    <Card size="small" style={{ flex: '1 1 0', minWidth: 150 }} data-testid={`logsources-summary-${key}`}>
      <Statistic
        title={title}
        value={value}
        formatter={(v) => formatNumber(Number(v), undefined, precision ?? 0)}
        valueStyle={color ? { color } : undefined}
      />
    </Card>
  );
  return (
    <Flex vertical gap="small">
      <Flex gap="small" wrap>
        {stat('total', t('logSources.summary.total'), summary.total)}
        {stat('active', t('logSources.statuses.active'), summary.active, token.colorSuccess)}
        {stat(
          'silent',
          t('logSources.statuses.silent'),
          summary.silent,
          summary.silent ? token.colorWarning : undefined,
        )}
        {stat('disabled', t('logSources.statuses.disabled'), summary.disabled, token.colorTextSecondary)}
        {stat('eps-hour', t('logSources.summary.epsHour'), summary.eps_last_hour, undefined, 1)}
        {stat('eps-day', t('logSources.summary.epsDay'), summary.eps_last_day, undefined, 1)}
      </Flex>
      {summary.by_type.length > 0 && (
        <Card size="small" title={t('logSources.summary.byType')} data-testid="logsources-by-type">
          <Table
            size="small"
            rowKey="source_type"
            pagination={false}
            dataSource={summary.by_type}
            columns={[
              {
                key: 'type',
                title: t('logSources.summary.type'),
                render: (_, r) => <Tag>{r.source_type}</Tag>,
              },
              { key: 'total', title: t('logSources.summary.total'), dataIndex: 'total', align: 'right' },
              { key: 'active', title: t('logSources.statuses.active'), dataIndex: 'active', align: 'right' },
              {
                key: 'silent',
                title: t('logSources.statuses.silent'),
                align: 'right',
                render: (_, r) =>
                  r.silent ? (
                    <Typography.Text>
                      <SilentMark />
                      {r.silent}
                    </Typography.Text>
                  ) : (
                    0
                  ),
              },
              {
                key: 'disabled',
                title: t('logSources.statuses.disabled'),
                dataIndex: 'disabled',
                align: 'right',
              },
            ]}
          />
        </Card>
      )}
    </Flex>
  );
}
