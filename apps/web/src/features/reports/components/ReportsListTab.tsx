import { DeleteOutlined, DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import type { ReportFile, ReportOrdering } from '@soc/contracts';
import {
  DEFAULT_REPORT_ORDERING,
  REPORT_TABLE_HEIGHT_OFFSET,
  REPORT_TABLE_MIN_HEIGHT,
  ReportListQuerySchema,
} from '@soc/contracts';
import type { TableProps } from 'antd';
import {
  Alert,
  Button,
  Card,
  Empty,
  Flex,
  Input,
  InputNumber,
  Popconfirm,
  Segmented,
  Space,
  Table,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import type { FilterDropdownProps, SortOrder } from 'antd/es/table/interface';
import TableMeasureRowContext from 'antd/es/table/TableMeasureRowContext';
import dayjs, { type Dayjs } from 'dayjs';
import { type ReactNode, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { startDownload } from '@/shared/downloads/downloads.ts';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { formatFileSize } from '@/shared/lib/formatFileSize.ts';
import { readListParam, sanitizeFilterParams, withFilterParams } from '@/shared/lib/filters.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { notifyError, notifySuccess } from '@/shared/ui/notifications.tsx';
import { useDeleteReportsMutation } from '../api/useDeleteReportsMutation.ts';
import { useReportsInfiniteQuery } from '../api/useReportsInfiniteQuery.ts';
import { useSystemCodeChoicesQuery } from '@/shared/api/systems.ts';
import { SIZE_UNIT_BYTES, SIZE_UNITS, sizeUnitLabel, unitOfBounds, type SizeUnit } from '../lib/sizeUnits.ts';
import { periodText } from '../lib/schedule.ts';
import { ReportFormModal } from './ReportFormModal.tsx';
import { CountBadge } from '@/shared/ui/CountBadge.tsx';
import '../i18n/texts.ts';
import { DateRangeInput } from '@/shared/ui/DateInputs.tsx';

export const REPORTS_FILTER_ENTITY = 'reports';
const ORDER_POLL_MS = 3000;
const ORDER_POLL_WINDOW_MS = 5 * 60_000;
const shape = ReportListQuerySchema.shape;
const PARAM_SCHEMAS: Record<string, { safeParse(v: unknown): { success: boolean } }> = {
  ordering: shape.ordering,
  filename: shape.filename,
  system__in: shape.system__in,
  size__gte: shape.size__gte,
  size__lte: shape.size__lte,
  start__gte: shape.start__gte,
  finish__lte: shape.finish__lte,
  created__gte: shape.created__gte,
  created__lte: shape.created__lte,
};

/** Table height: at least 600, else the window height minus 222 (product §B9). */
function useTableHeight(): number {
  const [height, setHeight] = useState(() =>
    Math.max(REPORT_TABLE_MIN_HEIGHT, window.innerHeight - REPORT_TABLE_HEIGHT_OFFSET),
  );
  useEffect(() => {
    const onResize = () =>
      setHeight(Math.max(REPORT_TABLE_MIN_HEIGHT, window.innerHeight - REPORT_TABLE_HEIGHT_OFFSET));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return height;
}

const sortOrderOf = (ordering: string, field: string): SortOrder =>
  ordering === field ? 'ascend' : ordering === `-${field}` ? 'descend' : null;

/** A date-range filter: the start of the first day to the end of the last (product §B5). */
function DateRangeDropdown({
  from,
  to,
  onApply,
  close,
}: {
  from: string | null;
  to: string | null;
  onApply: (r: [Dayjs, Dayjs] | null) => void;
  close: () => void;
}) {
  return (
    <div style={{ padding: 8 }} onKeyDown={(e) => e.stopPropagation()}>
      <DateRangeInput
        value={from && to ? [dayjs(from), dayjs(to)] : null}
        onChange={(dates) => {
          onApply(dates?.[0] && dates[1] ? [dates[0], dates[1]] : null);
          close();
        }}
      />
    </div>
  );
}

/**
 * The select-all checkbox of the header. antd also renders column titles into the hidden row
 * that measures column widths (aria-hidden); a checkbox there is a focusable control hidden from
 * assistive technology, so that copy is an empty box of the same width.
 */
function SelectAllTitle({ checkbox }: { checkbox: ReactNode }) {
  const measuring = useContext(TableMeasureRowContext);
  return measuring ? <span style={{ display: 'inline-block', width: 16 }} /> : checkbox;
}

/** Reports list tab (product §B2): title with count badge, expandable block, table with infinite scroll. */
export function ReportsListTab() {
  const { t } = useTranslation();
  const { params: rawParams, setParams } = usePersistedFilters(REPORTS_FILTER_ENTITY);
  const params = useMemo(() => sanitizeFilterParams(rawParams, (key) => PARAM_SCHEMAS[key]), [rawParams]);
  const ordering = (params.get('ordering') ?? DEFAULT_REPORT_ORDERING) as ReportOrdering;
  // after an order the list refreshes until the report is due (product §B9: within 5 minutes)
  const [pollUntil, setPollUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const polling = pollUntil > now;
  const query = useReportsInfiniteQuery(params, polling ? ORDER_POLL_MS : false);
  useEffect(() => {
    if (!polling) return;
    const timer = setTimeout(() => setNow(Date.now()), pollUntil - now);
    return () => clearTimeout(timer);
  }, [polling, pollUntil, now]);
  const systems = useSystemCodeChoicesQuery();
  const remove = useDeleteReportsMutation();
  const [deleting, setDeleting] = useState<Set<number>>(new Set());
  const [selected, setSelected] = useState<number[]>([]);
  const [creating, setCreating] = useState(false);
  const height = useTableHeight();
  const { token } = theme.useToken();
  const isPhone = useIsPhone();
  const rows = useMemo(() => query.data?.pages.flatMap((p) => p.results) ?? [], [query.data]);
  const total = query.data?.pages[0]?.total ?? 0;
  const sentinelRef = useRef<HTMLDivElement>(null);

  const apply = (changes: Record<string, string | number | string[] | null>) =>
    setParams(withFilterParams(params, changes, DEFAULT_REPORT_ORDERING));

  // infinite scroll: the next batch loads when the end of the table comes into view
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && hasNextPage && !isFetchingNextPage) void fetchNextPage();
      },
      // the page is the one scroll area: the end of the table is watched in the viewport
      { rootMargin: '200px' },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const deleteReports = (ids: number[]) => {
    setDeleting((prev) => new Set([...prev, ...ids]));
    setSelected((prev) => prev.filter((id) => !ids.includes(id)));
    remove.mutate(ids, {
      onSuccess: (answer) =>
        notifySuccess({
          title:
            ids.length === 1
              ? t('reports.notices.deleted')
              : t('reports.notices.deletedMany', { count: answer.deleted }),
        }),
      onError: () => notifyError({ title: t('reports.notices.deleteFailed') }),
      // on failure the flag is cleared; on success the refetched list no longer has the rows
      onSettled: () => setDeleting((prev) => new Set([...prev].filter((id) => !ids.includes(id)))),
    });
  };
  const download = (report: ReportFile) =>
    startDownload({
      path: `${report.link.replace(/^\/api\/v0/, '')}download/`,
      accept: 'application/pdf',
      filename: report.filename,
    });

  const systemFilter = readListParam(params, 'system__in');
  const columns: TableProps<ReportFile>['columns'] = [
    {
      key: 'filename',
      dataIndex: 'filename',
      title: t('reports.list.columns.filename'),
      // the other columns have fixed widths: on a phone, where they fill the screen, the file name
      // gets one too (the table then scrolls inside its card) rather than being squeezed to a letter
      width: isPhone ? 200 : undefined,
      sorter: true,
      sortOrder: sortOrderOf(ordering, 'filename'),
      filteredValue: params.get('filename') ? [params.get('filename')!] : null,
      filterDropdown: ({ close }: FilterDropdownProps) => (
        <div style={{ padding: 8 }} onKeyDown={(e) => e.stopPropagation()}>
          <Input.Search
            allowClear
            defaultValue={params.get('filename') ?? ''}
            placeholder={t('reports.list.filter.filename')}
            enterButton={t('reports.list.filter.search')}
            onSearch={(value) => {
              apply({ filename: value.trim() || null });
              close();
            }}
            data-testid="reports-filter-filename"
          />
        </div>
      ),
      render: (name: string, row) => (
        <Typography.Link onClick={() => download(row)} data-testid="report-filename">
          {name}
        </Typography.Link>
      ),
    },
    {
      key: 'created',
      dataIndex: 'created',
      title: t('reports.list.columns.created'),
      width: 170,
      sorter: true,
      sortOrder: sortOrderOf(ordering, 'created'),
      filteredValue: params.get('created__gte') ? [params.get('created__gte')!] : null,
      filterDropdown: ({ close }: FilterDropdownProps) => (
        <DateRangeDropdown
          from={params.get('created__gte')}
          to={params.get('created__lte')}
          close={close}
          onApply={(r) =>
            apply({
              created__gte: r ? r[0].startOf('day').toISOString() : null,
              created__lte: r ? r[1].endOf('day').toISOString() : null,
            })
          }
        />
      ),
      render: (value: string) => formatDateTime(Date.parse(value)),
    },
    {
      key: 'time',
      title: t('reports.list.columns.time'),
      width: 210,
      filteredValue: params.get('start__gte') ? [params.get('start__gte')!] : null,
      filterDropdown: ({ close }: FilterDropdownProps) => (
        <DateRangeDropdown
          from={params.get('start__gte')}
          to={params.get('finish__lte')}
          close={close}
          onApply={(r) =>
            apply({
              start__gte: r ? r[0].startOf('day').toISOString() : null,
              finish__lte: r ? r[1].endOf('day').toISOString() : null,
            })
          }
        />
      ),
      // calendar days of the report's time zone, whatever the browser's (a Moscow midnight is
      // the day before in UTC)
      render: (_v, row) => periodText(row),
    },
    {
      key: 'system',
      dataIndex: 'system',
      title: t('reports.list.columns.system'),
      filters: (systems.data ?? []).map((s) => ({ text: `${s.key} · ${s.text}`, value: s.key })),
      filterSearch: true,
      filteredValue: systemFilter.length ? systemFilter : null,
      ellipsis: true,
    },
    {
      key: 'size',
      dataIndex: 'size',
      title: t('reports.list.columns.size'),
      width: 130,
      sorter: true,
      sortOrder: sortOrderOf(ordering, 'size'),
      filteredValue: params.get('size__gte') || params.get('size__lte') ? ['size'] : null,
      filterDropdown: ({ close }: FilterDropdownProps) => (
        <SizeRange params={params} close={close} onApply={apply} />
      ),
      render: (size: number) => formatFileSize(size),
    },
    {
      key: 'actions',
      title: t('reports.list.columns.actions'),
      width: 110,
      render: (_v, row) => (
        <Space>
          <Tooltip title={t('reports.list.download')}>
            <Button
              size="small"
              icon={<DownloadOutlined />}
              aria-label={t('reports.list.download')}
              onClick={() => download(row)}
              data-testid="report-download"
            />
          </Tooltip>
          <Popconfirm
            title={t('reports.list.deleteConfirm')}
            okText={t('reports.list.yes')}
            cancelText={t('reports.list.no')}
            onConfirm={() => deleteReports([row.id])}
          >
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('reports.list.delete')}
              disabled={deleting.has(row.id)}
              data-testid="report-delete"
            />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const onTableChange: TableProps<ReportFile>['onChange'] = (_p, filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      const field = s?.order ? String(s.columnKey) : null;
      apply({ ordering: field ? (s?.order === 'descend' ? `-${field}` : field) : null });
    } else if (extra.action === 'filter') {
      const chosen = (filters.system ?? []).map(String);
      // a multiselect applies on closing, only if changed (product §B5)
      if (chosen.join(',') !== systemFilter.join(',')) apply({ system__in: chosen.length ? chosen : null });
    }
  };

  const selectedRows = rows.filter((r) => selected.includes(r.id));
  const header = (
    <Flex align="center" gap="small">
      <Typography.Title level={2} style={{ margin: 0 }}>
        {t('reports.list.title')}
      </Typography.Title>
      <span data-testid="reports-count" data-count={total}>
        <CountBadge count={total} showZero color="blue" />
      </span>
    </Flex>
  );

  return (
    <>
      <Card
        title={header}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setCreating(true)}
            data-testid="reports-create"
          >
            {t('reports.list.create')}
          </Button>
        }
        styles={{ body: { paddingTop: token.paddingSM } }}
        data-testid="reports-list-card"
      >
        <Flex vertical gap="small">
          {selected.length > 0 && (
            <Space data-testid="reports-group-actions">
              <Typography.Text>{t('reports.list.selected', { count: selected.length })}</Typography.Text>
              <Button icon={<DownloadOutlined />} onClick={() => selectedRows.forEach(download)}>
                {t('reports.list.groupDownload', { count: selected.length })}
              </Button>
              <Popconfirm
                title={t('reports.list.groupDeleteConfirm', { count: selected.length })}
                okText={t('reports.list.yes')}
                cancelText={t('reports.list.no')}
                onConfirm={() => deleteReports(selected)}
              >
                <Button danger icon={<DeleteOutlined />} data-testid="reports-group-delete">
                  {t('reports.list.groupDelete', { count: selected.length })}
                </Button>
              </Popconfirm>
            </Space>
          )}
          {query.isError && !query.data ? (
            <Alert
              type="error"
              showIcon
              title={t('reports.list.loadFailed')}
              action={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
            />
          ) : (
            <div style={{ minHeight: height }} data-testid="reports-scroll">
              <Table<ReportFile>
                rowKey="id"
                size="middle"
                // the header stays in view below the shell's sticky header as the page scrolls; not on
                // a phone, where the table scrolls sideways in its card and a sticky header would
                // stick to the card, over the rows
                sticky={isPhone ? undefined : { offsetHeader: Number(token.Layout?.headerHeight ?? 0) }}
                columns={columns}
                dataSource={rows}
                loading={query.isLoading}
                pagination={false}
                onChange={onTableChange}
                locale={{
                  emptyText: (
                    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reports.list.empty')} />
                  ),
                }}
                rowClassName={(row) => (deleting.has(row.id) ? 'report-row-deleting' : '')}
                onRow={(row) =>
                  ({
                    'data-testid': 'report-row',
                    'data-id': row.id,
                    style: deleting.has(row.id) ? { opacity: 0.5 } : undefined,
                  }) as React.HTMLAttributes<HTMLElement>
                }
                rowSelection={{
                  selectedRowKeys: selected,
                  onChange: (keys) => setSelected(keys.map(Number)),
                  // rows being deleted cannot be selected (product §B2)
                  getCheckboxProps: (row) => ({ disabled: deleting.has(row.id) }),
                  columnTitle: (checkbox) => <SelectAllTitle checkbox={checkbox} />,
                }}
              />
              <div ref={sentinelRef} style={{ height: 1 }} />
              {query.isFetchingNextPage && (
                <Typography.Text type="secondary">{t('common.loading')}</Typography.Text>
              )}
              {query.isFetchNextPageError && (
                <Alert
                  type="error"
                  title={t('reports.list.loadMoreFailed')}
                  action={<Button onClick={() => void query.fetchNextPage()}>{t('common.retry')}</Button>}
                />
              )}
            </div>
          )}
        </Flex>
      </Card>
      <ReportFormModal
        open={creating}
        onClose={() => setCreating(false)}
        onOrdered={() => {
          const at = Date.now();
          setNow(at);
          setPollUntil(at + ORDER_POLL_WINDOW_MS);
        }}
      />
    </>
  );
}

/** The size range filter, typed in the unit the column shows (kB or MB) and sent in bytes. */
function SizeRange({
  params,
  close,
  onApply,
}: {
  params: URLSearchParams;
  close: () => void;
  onApply: (changes: Record<string, number | null>) => void;
}) {
  const { t } = useTranslation();
  const stored = (key: string) => (params.get(key) ? Number(params.get(key)) : null);
  const [unit, setUnit] = useState<SizeUnit>(() => unitOfBounds([stored('size__gte'), stored('size__lte')]));
  const inUnit = (bytes: number | null) => (bytes === null ? null : bytes / SIZE_UNIT_BYTES[unit]);
  const [from, setFrom] = useState<number | null>(() => inUnit(stored('size__gte')));
  const [to, setTo] = useState<number | null>(() => inUnit(stored('size__lte')));
  const toBytes = (value: number | null) =>
    value === null ? null : Math.round(value * SIZE_UNIT_BYTES[unit]);
  return (
    <Flex vertical gap="small" style={{ padding: 8 }}>
      <Segmented<SizeUnit>
        value={unit}
        onChange={setUnit}
        options={SIZE_UNITS.map((u) => ({ value: u, label: sizeUnitLabel(u) }))}
        data-testid="reports-size-unit"
      />
      <InputNumber
        min={0}
        value={from}
        onChange={setFrom}
        placeholder={t('reports.list.filter.from')}
        aria-label={t('reports.list.filter.from')}
        suffix={sizeUnitLabel(unit)}
        style={{ width: 180 }}
        data-testid="reports-size-from"
      />
      <InputNumber
        min={0}
        value={to}
        onChange={setTo}
        placeholder={t('reports.list.filter.to')}
        aria-label={t('reports.list.filter.to')}
        suffix={sizeUnitLabel(unit)}
        style={{ width: 180 }}
        data-testid="reports-size-to"
      />
      <Space>
        <Button
          size="small"
          onClick={() => {
            onApply({ size__gte: null, size__lte: null });
            close();
          }}
        >
          {t('reports.list.filter.reset')}
        </Button>
        <Button
          size="small"
          type="primary"
          onClick={() => {
            onApply({ size__gte: toBytes(from), size__lte: toBytes(to) });
            close();
          }}
          data-testid="reports-size-apply"
        >
          {t('reports.list.filter.apply')}
        </Button>
      </Space>
    </Flex>
  );
}
