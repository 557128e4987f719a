import type { QueueItem, SlaState } from '@soc/contracts';
import { Button, Card, Flex, Table, Tag, Typography, theme, type TableProps } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { IncidentPriorityTag } from '@/shared/ui/IncidentPriorityTag.tsx';
import { IncidentStatusTag } from '@/shared/ui/IncidentStatusTag.tsx';
import { staffLabel } from './StaffSelect.tsx';
import '../i18n/texts.ts';

/** antd's status colours of tags, which follow the light and the dark theme. */
const SLA_COLORS: Record<SlaState, 'success' | 'warning' | 'error'> = {
  ok: 'success',
  near: 'warning',
  breached: 'error',
};

/** The reasons that are bad news on their own get a colour; the others stay neutral. */
const REASON_COLORS: Partial<Record<QueueItem['reasons'][number], 'warning' | 'error' | 'processing'>> = {
  sla_near: 'warning',
  sla_breached: 'error',
  customer_comment: 'processing',
};

export type QueueTableProps = {
  items: readonly QueueItem[];
  selectedKeys: readonly number[];
  onSelect: (keys: number[]) => void;
  /** The row the keyboard shortcuts act on, highlighted; null for none. */
  focusedKey: number | null;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  nextPageFailed: boolean;
  fetchNextPage: () => void;
};

/**
 * The queue as a table inside its card: it scrolls sideways within the card on a narrow screen,
 * never the page, and loads the next page as its end scrolls into view (design §7).
 */
export function QueueTable({
  items,
  selectedKeys,
  onSelect,
  focusedKey,
  hasNextPage,
  isFetchingNextPage,
  nextPageFailed,
  fetchNextPage,
}: QueueTableProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const columns: TableProps<QueueItem>['columns'] = [
    {
      key: 'key',
      title: t('socQueue.columns.key'),
      dataIndex: 'key',
      width: 96,
      render: (key: number) => (
        <Link to={`/inc/${key}`} data-testid="soc-queue-key">
          {key}
        </Link>
      ),
    },
    {
      key: 'summary',
      title: t('socQueue.columns.summary'),
      dataIndex: 'summary',
      render: (summary: string) => (
        <Typography.Text style={{ display: 'block', minWidth: '12rem', maxWidth: '24rem' }}>
          {summary}
        </Typography.Text>
      ),
    },
    {
      key: 'tenant',
      title: t('socQueue.columns.tenant'),
      render: (_, item) => (
        <Flex vertical>
          <Typography.Text strong>{item.system.is_id}</Typography.Text>
          <Typography.Text type="secondary">{item.system.full_name}</Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'priority',
      title: t('socQueue.columns.priority'),
      render: (_, item) => <IncidentPriorityTag priority={item.priority} />,
    },
    {
      key: 'status',
      title: t('socQueue.columns.status'),
      render: (_, item) => <IncidentStatusTag status={item.status} />,
    },
    {
      key: 'sla',
      title: t('socQueue.columns.sla'),
      render: (_, item) => (
        <Flex vertical gap={token.marginXXS} align="flex-start">
          <Typography.Text style={{ whiteSpace: 'nowrap' }}>
            {item.sla === null ? t('socQueue.noSla') : formatDateTime(item.sla, i18n.language)}
          </Typography.Text>
          <Tag color={SLA_COLORS[item.sla_state]} data-testid="soc-queue-sla" data-state={item.sla_state}>
            {t(`socQueue.slaState.${item.sla_state}`)}
          </Tag>
        </Flex>
      ),
    },
    {
      key: 'reasons',
      title: t('socQueue.columns.reasons'),
      render: (_, item) => (
        <Flex gap={token.marginXXS} wrap style={{ minWidth: '10rem' }}>
          {item.reasons.map((reason) => (
            <Tag
              key={reason}
              color={REASON_COLORS[reason]}
              data-testid="soc-queue-reason"
              data-reason={reason}
              style={{ marginInlineEnd: 0 }}
            >
              {t(`socQueue.reason.${reason}`)}
            </Tag>
          ))}
        </Flex>
      ),
    },
    {
      key: 'assignee',
      title: t('socQueue.columns.assignee'),
      render: (_, item) =>
        item.soc_assignee ? (
          <Typography.Text>{staffLabel(item.soc_assignee)}</Typography.Text>
        ) : (
          <Typography.Text type="secondary">{t('socQueue.unassigned')}</Typography.Text>
        ),
    },
    {
      key: 'updated',
      title: t('socQueue.columns.updated'),
      render: (_, item) => (
        <Typography.Text style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(item.updated, i18n.language)}
        </Typography.Text>
      ),
    },
  ];

  return (
    <Card size="small" styles={{ body: { padding: 0 } }}>
      <Table<QueueItem>
        rowKey="key"
        size="small"
        columns={columns}
        dataSource={[...items]}
        pagination={false}
        scroll={{ x: 'max-content' }}
        aria-label={t('socQueue.tableLabel')}
        rowSelection={{
          selectedRowKeys: [...selectedKeys],
          onChange: (keys) => onSelect(keys.map(Number)),
          getCheckboxProps: (item) => ({ 'aria-label': t('socQueue.selectRow', { key: item.key }) }),
        }}
        onRow={(item) => ({
          'data-testid': 'soc-queue-row',
          'data-key': String(item.key),
          'data-focused': item.key === focusedKey ? 'true' : undefined,
          style:
            item.key === focusedKey
              ? {
                  outline: `${token.lineWidthBold}px solid ${token.colorPrimary}`,
                  outlineOffset: -token.lineWidthBold,
                }
              : undefined,
        })}
        data-testid="soc-queue-table"
      />
      <NextPage
        hasNextPage={hasNextPage}
        loading={isFetchingNextPage}
        failed={nextPageFailed}
        onLoad={fetchNextPage}
      />
    </Card>
  );
}

type NextPageProps = { hasNextPage: boolean; loading: boolean; failed: boolean; onLoad: () => void };

/** The row under the table: loads the next page once it scrolls into view, or by its button. */
function NextPage({ hasNextPage, loading, failed, onLoad }: NextPageProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const ref = useRef<HTMLDivElement>(null);
  const load = useRef(onLoad);
  useEffect(() => {
    load.current = onLoad;
  }, [onLoad]);
  useEffect(() => {
    const node = ref.current;
    // a failed page waits for the retry button rather than looping
    if (!node || !hasNextPage || failed || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) load.current();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, failed]);
  if (!hasNextPage && !failed) return null;
  return (
    <Flex
      ref={ref}
      justify="center"
      align="center"
      gap="small"
      style={{ padding: token.paddingSM }}
      data-testid="soc-queue-footer"
    >
      {failed && <Typography.Text type="danger">{t('common.loadMoreFailed')}</Typography.Text>}
      <Button loading={loading} onClick={onLoad} data-testid="soc-queue-more">
        {failed ? t('common.retry') : loading ? t('socQueue.loadingMore') : t('socQueue.loadMore')}
      </Button>
    </Flex>
  );
}
