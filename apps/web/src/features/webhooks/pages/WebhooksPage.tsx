import { WEBHOOK_ENDPOINTS_PAGE_SIZE, type WebhookEndpoint } from '@soc/contracts';
import {
  Alert,
  Button,
  Flex,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Table,
  Tag,
  Typography,
  theme,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { notifyApiError } from '@/shared/api/index.ts';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useSystemChoicesQuery } from '@/shared/api/systems.ts';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { useDeleteWebhookMutation } from '../api/useDeleteWebhookMutation.ts';
import { useRotateWebhookSecretMutation } from '../api/useRotateWebhookSecretMutation.ts';
import { useWebhooksQuery } from '../api/useWebhooksQuery.ts';
import { WebhookDeliveriesDrawer } from '../components/WebhookDeliveriesDrawer.tsx';
import { WebhookFormModal } from '../components/WebhookFormModal.tsx';
import '../i18n/texts.ts';

/** The endpoint being edited: a new one, an existing one, or none (the form is closed). */
type Editing = { endpoint: WebhookEndpoint | undefined } | null;

/**
 * /webhooks (issue 29 part 2): the outbound webhook endpoints of the user's systems; add, edit,
 * delete, rotate the secret (shown once), and each endpoint's delivery log with "send test
 * event" and "send again". The system filter lives in the URL (`?system=`).
 */
export function WebhooksPage() {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const { token } = theme.useToken();
  useDocumentTitle(t('webhooks.title'));
  const [params, setParams] = useSearchParams();
  const systemParam = Number(params.get('system'));
  const system = Number.isInteger(systemParam) && systemParam > 0 ? systemParam : undefined;
  const [page, setPage] = useState(1);
  const systems = useSystemChoicesQuery();
  const list = useWebhooksQuery(system, page);
  const remove = useDeleteWebhookMutation();
  const rotate = useRotateWebhookSecretMutation();
  const [editing, setEditing] = useState<Editing>(null);
  const [logOf, setLogOf] = useState<WebhookEndpoint | null>(null);
  const [secret, setSecret] = useState<string | null>(null);

  const setSystem = (value: number | undefined) => {
    setPage(1);
    setParams(value ? { system: String(value) } : {}, { replace: true });
  };

  const stateTag = (e: WebhookEndpoint) => {
    if (e.disabled_at && !e.active) return <Tag color="error">{t('webhooks.state.disabled')}</Tag>;
    if (!e.active) return <Tag>{t('webhooks.state.off')}</Tag>;
    if (e.failing_since) return <Tag color="warning">{t('webhooks.state.failing')}</Tag>;
    return <Tag color="success">{t('webhooks.state.on')}</Tag>;
  };

  const columns: TableColumnsType<WebhookEndpoint> = [
    {
      title: t('webhooks.columns.url'),
      dataIndex: 'url',
      key: 'url',
      ellipsis: true,
      render: (url: string, e) => (
        <Flex vertical>
          <Typography.Text code ellipsis data-testid={`webhook-url-${e.id}`}>
            {url}
          </Typography.Text>
          {e.description && <Typography.Text type="secondary">{e.description}</Typography.Text>}
        </Flex>
      ),
    },
    {
      title: t('webhooks.columns.system'),
      key: 'system',
      render: (_: unknown, e) => `${e.system.is_id} ${e.system.name}`,
    },
    {
      title: t('webhooks.columns.format'),
      dataIndex: 'format',
      key: 'format',
      render: (f: WebhookEndpoint['format']) => t(`webhooks.formatName.${f}`),
    },
    {
      title: t('webhooks.columns.events'),
      dataIndex: 'events',
      key: 'events',
      render: (events: WebhookEndpoint['events']) => t('webhooks.eventsCount', { count: events.length }),
    },
    { title: t('webhooks.columns.state'), key: 'state', render: (_: unknown, e) => stateTag(e) },
    {
      title: t('webhooks.columns.actions'),
      key: 'actions',
      render: (_: unknown, e) => (
        <Space wrap size="small">
          <Button size="small" onClick={() => setLogOf(e)} data-testid={`webhook-log-${e.id}`}>
            {t('webhooks.log')}
          </Button>
          <Button
            size="small"
            onClick={() => setEditing({ endpoint: e })}
            data-testid={`webhook-edit-${e.id}`}
          >
            {t('webhooks.edit')}
          </Button>
          <Popconfirm
            title={t('webhooks.rotateConfirm')}
            okText={t('webhooks.rotate')}
            cancelText={t('common.cancel')}
            onConfirm={() =>
              rotate.mutateAsync(e.id).then(
                (rotated) => {
                  setSecret(rotated.secret);
                  notifySuccess({ title: t('webhooks.rotated') });
                },
                (error: unknown) => notifyApiError(error),
              )
            }
          >
            <Button size="small" data-testid={`webhook-rotate-${e.id}`}>
              {t('webhooks.rotate')}
            </Button>
          </Popconfirm>
          <Popconfirm
            title={t('webhooks.removeConfirm')}
            okText={t('webhooks.remove')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() =>
              remove.mutateAsync(e.id).then(
                () => notifySuccess({ title: t('webhooks.removed') }),
                (error: unknown) => notifyApiError(error),
              )
            }
          >
            <Button size="small" danger data-testid={`webhook-delete-${e.id}`}>
              {t('webhooks.remove')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  let table;
  if (list.isPending) table = <Skeleton active paragraph={{ rows: 4 }} data-testid="webhooks-loading" />;
  else if (list.isError)
    table = (
      <Alert
        type="error"
        showIcon
        title={t('webhooks.loadFailed')}
        data-testid="webhooks-error"
        action={<Button onClick={() => void list.refetch()}>{t('common.retry')}</Button>}
      />
    );
  else
    table = (
      <Table<WebhookEndpoint>
        rowKey="id"
        size="small"
        // on a phone the cells take the width they need and the table scrolls inside its card
        scroll={isPhone ? { x: 'max-content' } : undefined}
        columns={columns}
        dataSource={list.data.results}
        loading={list.isFetching}
        // secondary text: antd's disabled grey for the empty table lacks contrast (WCAG AA)
        locale={{ emptyText: <Typography.Text type="secondary">{t('webhooks.empty')}</Typography.Text> }}
        data-testid="webhooks-table"
        pagination={{
          current: page,
          pageSize: WEBHOOK_ENDPOINTS_PAGE_SIZE,
          total: list.data.total,
          hideOnSinglePage: true,
          onChange: setPage,
          showTotal: (total, [low, high]) => t('webhooks.pagination', { low, high, total }),
        }}
      />
    );

  return (
    <Flex vertical gap="middle" data-testid="webhooks-page">
      <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading3 }}>
        {t('webhooks.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0, maxWidth: token.screenMD }}>
        {t('webhooks.intro')}
      </Typography.Paragraph>
      <Flex gap="middle" align="center">
        <Select
          allowClear
          style={{ minWidth: token.screenXS / 2 }}
          placeholder={t('webhooks.allSystems')}
          aria-label={t('webhooks.system')}
          value={system}
          onChange={(v: number | undefined) => setSystem(v)}
          loading={systems.isPending}
          data-testid="webhooks-system-filter"
          options={(systems.data ?? []).map((s) => ({ value: s.id, label: `${s.is_id} ${s.full_name}` }))}
        />
        <Button
          type="primary"
          disabled={!systems.data?.length}
          onClick={() => setEditing({ endpoint: undefined })}
          data-testid="webhook-add"
        >
          {t('webhooks.add')}
        </Button>
      </Flex>
      {secret && (
        <Alert
          type="success"
          showIcon
          data-testid="webhook-secret"
          title={t('webhooks.secretTitle')}
          description={
            <Typography.Text
              code
              copyable={{ tooltips: [undefined, t('webhooks.copied')] }}
              style={{ wordBreak: 'break-all' }}
            >
              {secret}
            </Typography.Text>
          }
          action={
            <Button onClick={() => setSecret(null)} data-testid="webhook-secret-done">
              {t('webhooks.done')}
            </Button>
          }
        />
      )}
      {table}
      {editing && (
        <WebhookFormModal
          endpoint={editing.endpoint}
          systems={systems.data ?? []}
          defaultSystem={system}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            if (saved.secret) setSecret(saved.secret);
          }}
        />
      )}
      {logOf && <WebhookDeliveriesDrawer endpoint={logOf} onClose={() => setLogOf(null)} />}
    </Flex>
  );
}
