import { WEBHOOK_DELIVERIES_PAGE_SIZE, type WebhookDelivery, type WebhookEndpoint } from '@soc/contracts';
import { Alert, Button, Drawer, Flex, Skeleton, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyApiError } from '@/shared/api/index.ts';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { useSendWebhookMutation } from '../api/useSendWebhookMutation.ts';
import { useWebhookDeliveriesQuery } from '../api/useWebhookDeliveriesQuery.ts';

const STATUS_COLOR: Record<WebhookDelivery['status'], string> = {
  pending: 'processing',
  retrying: 'warning',
  succeeded: 'success',
  failed: 'error',
};

export interface WebhookDeliveriesDrawerProps {
  endpoint: WebhookEndpoint;
  onClose: () => void;
}

/** An endpoint's delivery log, paged, with "send test event" and "send again" per line. */
export function WebhookDeliveriesDrawer({ endpoint, onClose }: WebhookDeliveriesDrawerProps) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const [page, setPage] = useState(1);
  const log = useWebhookDeliveriesQuery(endpoint.id, page);
  const send = useSendWebhookMutation();

  const sendTest = () =>
    send.mutate(
      { id: endpoint.id },
      {
        onSuccess: () => {
          setPage(1);
          notifySuccess({ title: t('webhooks.testQueued') });
        },
        onError: (error) => notifyApiError(error),
      },
    );

  const columns: TableColumnsType<WebhookDelivery> = [
    {
      title: t('webhooks.deliveryColumns.time'),
      dataIndex: 'created_at',
      key: 'time',
      render: (_: string, d) => formatDateTime(Date.parse(d.last_attempt_at ?? d.created_at)),
    },
    {
      title: t('webhooks.deliveryColumns.event'),
      dataIndex: 'event',
      key: 'event',
      render: (event: string) => {
        const key = `webhooks.event.${event}` as 'webhooks.event.webhook.test';
        return t(key, { defaultValue: event });
      },
    },
    {
      title: t('webhooks.deliveryColumns.status'),
      dataIndex: 'status',
      key: 'status',
      render: (status: WebhookDelivery['status'], d) => {
        const tag = (
          <Tag color={STATUS_COLOR[status]} data-testid={`delivery-status-${d.id}`}>
            {t(`webhooks.deliveryStatus.${status}`)}
          </Tag>
        );
        const hint = [
          d.error,
          d.next_attempt_at &&
            t('webhooks.nextAttempt', { time: formatDateTime(Date.parse(d.next_attempt_at)) }),
        ]
          .filter(Boolean)
          .join(' · ');
        return hint ? <Tooltip title={hint}>{tag}</Tooltip> : tag;
      },
    },
    {
      title: t('webhooks.deliveryColumns.code'),
      dataIndex: 'status_code',
      key: 'code',
      render: (code: number | null) => code ?? '—',
    },
    {
      title: t('webhooks.deliveryColumns.duration'),
      dataIndex: 'duration_ms',
      key: 'duration',
      render: (ms: number | null) => (ms === null ? '—' : t('webhooks.durationMs', { ms })),
    },
    { title: t('webhooks.deliveryColumns.attempt'), dataIndex: 'attempt', key: 'attempt' },
    {
      title: t('webhooks.deliveryColumns.actions'),
      key: 'actions',
      render: (_: unknown, d) => (
        <Button
          size="small"
          data-testid={`delivery-resend-${d.id}`}
          onClick={() =>
            send.mutate(
              { id: endpoint.id, deliveryId: d.id },
              {
                onSuccess: () => {
                  setPage(1);
                  notifySuccess({ title: t('webhooks.sentAgain') });
                },
                onError: (error) => notifyApiError(error),
              },
            )
          }
        >
          {t('webhooks.sendAgain')}
        </Button>
      ),
    },
  ];

  let body;
  if (log.isPending) body = <Skeleton active paragraph={{ rows: 4 }} data-testid="webhook-log-loading" />;
  else if (log.isError)
    body = (
      <Alert
        type="error"
        showIcon
        title={t('webhooks.logFailed')}
        action={<Button onClick={() => void log.refetch()}>{t('common.retry')}</Button>}
      />
    );
  else
    body = (
      <Table<WebhookDelivery>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={log.data.results}
        locale={{ emptyText: t('webhooks.logEmpty') }}
        data-testid="webhook-log"
        pagination={{
          current: page,
          pageSize: WEBHOOK_DELIVERIES_PAGE_SIZE,
          total: log.data.total,
          hideOnSinglePage: true,
          onChange: setPage,
          showTotal: (total, [low, high]) => t('webhooks.pagination', { low, high, total }),
        }}
      />
    );

  return (
    <Drawer
      open
      // as wide as a phone's screen: antd's large drawer is 736 px
      size={isPhone ? '100%' : 'large'}
      onClose={onClose}
      title={t('webhooks.logTitle', { url: endpoint.url })}
      data-testid="webhook-log-drawer"
    >
      <Flex vertical gap="middle">
        <Flex justify="space-between" align="center">
          <Typography.Text type="secondary">{endpoint.description}</Typography.Text>
          <Button type="primary" onClick={sendTest} loading={send.isPending} data-testid="webhook-send-test">
            {t('webhooks.sendTest')}
          </Button>
        </Flex>
        {body}
      </Flex>
    </Drawer>
  );
}
