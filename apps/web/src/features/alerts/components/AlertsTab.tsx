import type { Alert, AlertSeverity } from '@soc/contracts';
import { Alert as AntAlert, Empty, Flex, Spin, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { SearchBox } from '@/shared/ui/SearchBox.tsx';
import { useIncidentAlertsQuery } from '../api/useIncidentAlertsQuery.ts';
import { AlertDetailPanel } from './AlertDetailPanel.tsx';
import { AlertTags } from './AlertTags.tsx';
import '../i18n/texts.ts';
import { ALERT_SEVERITY_COLORS } from '@/shared/theme/domainColors.ts';

export type AlertsTabProps = {
  incidentKey: number;
};

/** Height of the virtualised table body, in pixels of the theme's row height multiples. */
const TABLE_ROWS = 12;
const ROW_HEIGHT = 40;

/**
 * Widths of the fixed columns and the least width of the table (a virtual table needs a number).
 * The tab is about 600 px wide at 1440 px beside the info column and the comments: the title
 * takes what the severity, the assets (one per line, never split) and the time leave, and the
 * update time lives in the detail panel, so that most titles need no more than two lines.
 */
const COLUMN_WIDTHS = { severity: 88, assets: 136, date: 112 } as const;
const TABLE_MIN_WIDTH = 540;
/** On a phone the table scrolls inside its card: wide enough for a title in two lines. */
const PHONE_TABLE_MIN_WIDTH = 640;
/** Affected assets named in a row; the rest are counted ("+2") and listed in the tooltip. */
const ASSETS_SHOWN = 2;

/**
 * The alerts tab (product §A2): a searchable, virtualised table (severity, title, affected
 * assets, created) that loads further pages on scroll, and the detail panel of the
 * selected alert; the first alert is selected automatically.
 */
/** Host names one per line, each whole (cut with an ellipsis, never broken), the rest counted. */
function AssetNames({ names }: { names: readonly string[] }) {
  const hidden = names.length - ASSETS_SHOWN;
  return (
    <Tooltip title={hidden > 0 ? names.join(', ') : undefined}>
      <Flex vertical data-testid="alert-assets">
        {names.slice(0, ASSETS_SHOWN).map((name, index) => (
          <Typography.Text
            key={`${index}-${name}`}
            ellipsis={{ tooltip: name }}
            style={{ whiteSpace: 'nowrap' }}
          >
            {name}
            {index === ASSETS_SHOWN - 1 && hidden > 0 && (
              <Typography.Text type="secondary"> +{hidden}</Typography.Text>
            )}
          </Typography.Text>
        ))}
      </Flex>
    </Tooltip>
  );
}

export function AlertsTab({ incidentKey }: AlertsTabProps) {
  const { t, i18n } = useTranslation();
  const isPhone = useIsPhone();
  const [search, setSearch] = useState('');
  const query = useIncidentAlertsQuery(incidentKey, search);
  const rows = useMemo(() => query.data?.pages.flatMap((page) => page.results) ?? [], [query.data]);
  const total = query.data?.pages[0]?.total ?? 0;
  const [selected, setSelected] = useState<string | null>(null);
  const selectedUuid = selected && rows.some((r) => r.uuid === selected) ? selected : (rows[0]?.uuid ?? null);

  useEffect(() => {
    if (!selected && rows[0]) setSelected(rows[0].uuid);
  }, [rows, selected]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const onScroll: TableProps<Alert>['onScroll'] = (event) => {
    const el = event.currentTarget;
    if (
      hasNextPage &&
      !isFetchingNextPage &&
      el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT * 5
    ) {
      void fetchNextPage();
    }
  };

  const columns: TableProps<Alert>['columns'] = [
    {
      key: 'severity',
      title: t('alerts.columns.severity'),
      dataIndex: 'severity',
      width: COLUMN_WIDTHS.severity,
      render: (severity: AlertSeverity) => (
        <Tag color={ALERT_SEVERITY_COLORS[severity]}>{t(`alerts.severity.${severity}`)}</Tag>
      ),
    },
    {
      key: 'title',
      title: t('alerts.columns.title'),
      render: (_, alert) => (
        <Flex vertical gap={2}>
          <Typography.Text style={{ overflowWrap: 'anywhere' }} data-testid="alert-title">
            {alert.title}
          </Typography.Text>
          <AlertTags tags={alert.tags} sourceTag={alert.source_tag} />
        </Flex>
      ),
    },
    {
      key: 'assets',
      title: t('alerts.columns.assets'),
      width: COLUMN_WIDTHS.assets,
      render: (_, alert) => <AssetNames names={alert.affected_assets.map((a) => a.name)} />,
    },
    {
      key: 'created',
      title: t('alerts.columns.created'),
      width: COLUMN_WIDTHS.date,
      render: (_, alert) => formatDateTime(alert.created_time, i18n.language),
    },
  ];

  return (
    <Flex vertical gap="middle" data-testid="alerts-tab">
      <SearchBox
        value={search}
        onSearch={setSearch}
        placeholder={t('alerts.search')}
        label={t('alerts.search')}
        buttonText={t('alerts.searchButton')}
        testId="alerts-search"
        width="24rem"
      />
      {query.isError && !query.data ? (
        <AntAlert type="error" showIcon title={t('alerts.loadFailed')} data-testid="alerts-error" />
      ) : query.isPending ? (
        <Spin data-testid="alerts-loading" />
      ) : rows.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('alerts.empty')}
          data-testid="alerts-empty"
        />
      ) : (
        <>
          <Table<Alert>
            virtual
            size="small"
            aria-label={t('alerts.tableLabel')}
            data-testid="alerts-table"
            rowKey="uuid"
            columns={columns}
            dataSource={rows}
            pagination={false}
            scroll={{ y: ROW_HEIGHT * TABLE_ROWS, x: isPhone ? PHONE_TABLE_MIN_WIDTH : TABLE_MIN_WIDTH }}
            onScroll={onScroll}
            rowClassName={(alert) => (alert.uuid === selectedUuid ? 'ant-table-row-selected' : '')}
            onRow={(alert) => ({
              onClick: () => setSelected(alert.uuid),
              'data-testid': `alert-row-${alert.uuid}`,
              'aria-selected': alert.uuid === selectedUuid,
              style: { cursor: 'pointer' },
            })}
            loading={isFetchingNextPage}
          />
          <Typography.Text type="secondary" data-testid="alerts-count">
            {t('alerts.pagination', { low: rows.length ? 1 : 0, high: rows.length, total })}
          </Typography.Text>
          {selectedUuid && (
            <AlertDetailPanel key={selectedUuid} incidentKey={incidentKey} uuid={selectedUuid} />
          )}
        </>
      )}
    </Flex>
  );
}
