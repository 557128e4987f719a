import { DownloadOutlined } from '@ant-design/icons';
import type { AuditEntry } from '@soc/contracts';
import { AUDIT_PAGE_SIZE, AuditFiltersSchema } from '@soc/contracts';
import { Alert, Button, Flex, Input, Table, Typography, theme } from 'antd';
import type { TableProps } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifyApiError } from '@/shared/api/index.ts';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import {
  countFilterParams,
  sanitizeFilterParams,
  withFilterParams,
  type ParamSchema,
} from '@/shared/lib/filters.ts';
import { formatDateTimeWithZone } from '@/shared/lib/formatDateTime.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { useAuditCsvMutation } from '../api/useAuditCsvMutation.ts';
import { useAuditLogQuery } from '../api/useAuditLogQuery.ts';
import '../i18n/texts.ts';
import { DateRangeInput } from '@/shared/ui/DateInputs.tsx';
import { FilterBar } from '@/shared/ui/filters/FilterBar.tsx';

const FILTER_KEYS = [
  'search',
  'ip',
  'at__gte',
  'at__lte',
  'action__in',
  'object_type__in',
  'object_id',
] as const;
type FilterKey = (typeof FILTER_KEYS)[number];
const shape: Record<string, ParamSchema> = AuditFiltersSchema.shape;
const schemaOf = (key: string) => ((FILTER_KEYS as readonly string[]).includes(key) ? shape[key] : undefined);

/** /profile/audit: who did what in the user's systems, when and from where (issue 13). */
export function AuditLogPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  useDocumentTitle(t('settings.audit.title'));
  const { params: rawParams, setParams } = usePersistedFilters('audit');
  const params = useMemo(() => sanitizeFilterParams(rawParams, schemaOf), [rawParams]);
  const filtersKey = params.toString();
  const [pageState, setPageState] = useState({ filtersKey, page: 1 });
  const page = pageState.filtersKey === filtersKey ? pageState.page : 1;
  const audit = useAuditLogQuery(params, page);
  const csv = useAuditCsvMutation();

  const change = (changes: Partial<Record<FilterKey, string | null>>) =>
    setParams(withFilterParams(params, changes, ''));

  const from = params.get('at__gte');
  const to = params.get('at__lte');

  const columns: TableProps<AuditEntry>['columns'] = [
    {
      key: 'at',
      title: t('settings.audit.columns.at'),
      width: 190,
      render: (_, e) => formatDateTimeWithZone(e.at),
    },
    {
      key: 'user',
      title: t('settings.audit.columns.user'),
      render: (_, e) =>
        e.user ? (
          <span title={e.user.username}>
            {e.user.full_name || e.user.username}
            {/* the provider's staff: customers see who acted, never from where (issue 25) */}
            {e.user.role !== 'customer' && (
              <Typography.Text type="secondary" data-testid="audit-staff">
                {' '}
                · {t('settings.audit.staff')}
              </Typography.Text>
            )}
          </span>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      key: 'action',
      title: t('settings.audit.columns.action'),
      // an action this build has no name for (a newer server) stays readable as its code
      render: (_, e) => {
        const label = t(`auditLog.actions.${e.action}`, { defaultValue: e.action });
        return label === e.action ? (
          <Typography.Text code>{e.action}</Typography.Text>
        ) : (
          <span title={e.action}>{label}</span>
        );
      },
    },
    {
      key: 'object',
      title: t('settings.audit.columns.object'),
      render: (_, e) => {
        // the server names the subject (issue 28); a deleted one is shown by its kind and id
        if (e.object_type === 'incident' && e.object_id) {
          const key = t('auditLog.objects.incident', { id: e.object_id });
          return (
            <Link to={`/inc/${e.object_id}`}>
              {e.object_name ? t('auditLog.objects.named', { type: key, name: e.object_name }) : key}
            </Link>
          );
        }
        const type = t(`auditLog.objects.types.${e.object_type}`, { defaultValue: e.object_type });
        if (e.object_name) return t('auditLog.objects.named', { type, name: e.object_name });
        return e.object_id ? t('auditLog.objects.withId', { type, id: e.object_id }) : type;
      },
    },
    {
      key: 'ip',
      title: t('settings.audit.columns.ip'),
      width: 160,
      render: (_, e) => <span title={e.user_agent}>{e.ip || '—'}</span>,
    },
  ];

  return (
    <Flex vertical gap="middle" data-testid="audit-page">
      <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading3 }}>
        {t('settings.audit.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('settings.audit.intro')}
      </Typography.Paragraph>
      <FilterBar
        testId="audit"
        active={countFilterParams(params)}
        search={
          <Input.Search
            key={`search-${params.get('search') ?? ''}`}
            defaultValue={params.get('search') ?? ''}
            placeholder={t('settings.audit.search')}
            aria-label={t('settings.audit.search')}
            allowClear
            style={{ width: token.screenXS / 1.2, maxWidth: '100%' }}
            onSearch={(text) => change({ search: text.trim() || null })}
            data-testid="audit-search"
          />
        }
      >
        <Input.Search
          key={`ip-${params.get('ip') ?? ''}`}
          defaultValue={params.get('ip') ?? ''}
          placeholder={t('settings.audit.ip')}
          aria-label={t('settings.audit.ip')}
          allowClear
          style={{ width: token.screenXS / 2 }}
          onSearch={(text) => change({ ip: text.trim() || null })}
          data-testid="audit-ip"
        />
        <DateRangeInput
          aria-label={t('settings.audit.period')}
          value={[from ? dayjs(Number(from)) : null, to ? dayjs(Number(to)) : null]}
          onChange={(range) =>
            change({
              at__gte: range?.[0] ? String(range[0].startOf('day').valueOf()) : null,
              at__lte: range?.[1] ? String(range[1].endOf('day').valueOf()) : null,
            })
          }
          data-testid="audit-period"
        />
        <Button onClick={() => setParams(new URLSearchParams())} disabled={!filtersKey}>
          {t('settings.audit.reset')}
        </Button>
        <Button
          icon={<DownloadOutlined aria-hidden />}
          loading={csv.isPending}
          onClick={() =>
            csv.mutate(params, {
              onError: (error) => notifyApiError(error, t('settings.audit.exportFailed')),
            })
          }
          data-testid="audit-export"
        >
          {t('settings.audit.export')}
        </Button>
      </FilterBar>
      {audit.isError && (
        <Alert
          type="error"
          showIcon
          title={t('settings.audit.loadFailed')}
          action={
            <Button size="small" onClick={() => void audit.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      )}
      <Table<AuditEntry>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={audit.data?.results ?? []}
        loading={audit.isFetching}
        locale={{ emptyText: t('settings.audit.empty') }}
        onChange={(pagination) => setPageState({ filtersKey, page: pagination.current ?? 1 })}
        pagination={{
          current: page,
          pageSize: AUDIT_PAGE_SIZE,
          total: audit.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total, [low, high]) => t('settings.audit.pagination', { low, high, total }),
        }}
        data-testid="audit-table"
      />
    </Flex>
  );
}
