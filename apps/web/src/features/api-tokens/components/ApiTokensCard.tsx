import {
  API_TOKENS_PAGE_SIZE,
  API_TOKEN_NAME_MAX,
  PERSONAL_TOKEN_DEFAULT_DAYS,
  type ApiToken,
} from '@soc/contracts';
import { Alert, Button, Card, Flex, Form, Input, Popconfirm, Skeleton, Table, Typography, theme } from 'antd';
import type { TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, notifyApiError } from '@/shared/api/index.ts';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useApiTokensQuery } from '../api/useApiTokensQuery.ts';
import '../i18n/texts.ts';
import { useCreateApiTokenMutation } from '../api/useCreateApiTokenMutation.ts';
import { useRevokeApiTokenMutation } from '../api/useRevokeApiTokenMutation.ts';
import { latestTokenExpiry, tokenExpiryOf } from '../lib/tokenExpiry.ts';
import { DateInput } from '@/shared/ui/DateInputs.tsx';

interface CreateValues {
  name: string;
  /** The user's current password: the server refuses to create a token without it. */
  password: string;
  expires: Dayjs;
}

const millis = (iso: string | null) => (iso === null ? null : Date.parse(iso));

/**
 * The profile's personal API tokens (issues 13, 25): create a read-only token with the current
 * password and an expiry (default 90 days, at most a year; its secret is shown once, with a copy
 * button), list them with their expiry and last use, revoke one.
 */
export function ApiTokensCard() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [page, setPage] = useState(1);
  const list = useApiTokensQuery(page);
  const create = useCreateApiTokenMutation();
  const revoke = useRevokeApiTokenMutation();
  const [form] = Form.useForm<CreateValues>();
  const [secret, setSecret] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const submit = (values: CreateValues) => {
    setFormError(null);
    create.mutate(
      { name: values.name.trim(), password: values.password, expires_at: tokenExpiryOf(values.expires) },
      {
        onSuccess: (created) => {
          setSecret(created.token);
          form.resetFields();
          notifySuccess({ title: t('apiTokens.created') });
        },
        onError: (error) => {
          // a wrong password is a 403 whose detail belongs under the password field
          if (error instanceof ApiError && error.status === 403 && error.detail) {
            form.setFields([{ name: 'password', errors: [error.detail], value: '' }]);
            return;
          }
          const fields = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
          const nameError = fields?.name?.[0];
          const passwordError = fields?.password?.[0];
          const expiresError = fields?.expires_at?.[0];
          if (nameError || passwordError || expiresError) {
            form.setFields([
              ...(nameError ? [{ name: 'name' as const, errors: [nameError] }] : []),
              ...(passwordError ? [{ name: 'password' as const, errors: [passwordError] }] : []),
              ...(expiresError ? [{ name: 'expires' as const, errors: [expiresError] }] : []),
            ]);
          } else {
            setFormError(fields?.non_field_errors?.[0] ?? t('apiTokens.createFailed'));
          }
        },
      },
    );
  };

  const columns: TableColumnsType<ApiToken> = [
    { title: t('apiTokens.columns.name'), dataIndex: 'name', key: 'name', ellipsis: true },
    {
      title: t('apiTokens.columns.token'),
      dataIndex: 'prefix',
      key: 'prefix',
      render: (prefix: string) => <Typography.Text code>{`${prefix}…`}</Typography.Text>,
    },
    {
      title: t('apiTokens.columns.created'),
      dataIndex: 'created_at',
      key: 'created',
      render: (v: string) => formatDateTime(millis(v)),
    },
    {
      title: t('apiTokens.columns.lastUsed'),
      dataIndex: 'last_used_at',
      key: 'lastUsed',
      render: (v: string | null) => (v ? formatDateTime(millis(v)) : t('apiTokens.notUsed')),
    },
    {
      title: t('apiTokens.columns.expires'),
      dataIndex: 'expires_at',
      key: 'expires',
      render: (v: string | null) => (v ? formatDateTime(millis(v)) : t('apiTokens.never')),
    },
    {
      title: t('apiTokens.columns.actions'),
      key: 'actions',
      render: (_: unknown, row: ApiToken) => (
        <Popconfirm
          title={t('apiTokens.revokeConfirm', { name: row.name })}
          okText={t('apiTokens.revoke')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() =>
            revoke.mutateAsync(row.id).then(
              () => notifySuccess({ title: t('apiTokens.revoked') }),
              (error: unknown) => notifyApiError(error),
            )
          }
        >
          <Button danger size="small" data-testid={`revoke-${row.id}`}>
            {t('apiTokens.revoke')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  let table;
  if (list.isPending) table = <Skeleton active paragraph={{ rows: 3 }} />;
  else if (list.isError)
    table = (
      <Alert
        type="error"
        showIcon
        title={t('apiTokens.loadFailed')}
        action={<Button onClick={() => void list.refetch()}>{t('common.retry')}</Button>}
      />
    );
  else
    table = (
      <Table<ApiToken>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data.results}
        loading={list.isFetching}
        // secondary text: antd's disabled grey for the empty table lacks contrast (WCAG AA)
        locale={{ emptyText: <Typography.Text type="secondary">{t('apiTokens.empty')}</Typography.Text> }}
        data-testid="api-tokens-table"
        pagination={{
          current: page,
          pageSize: API_TOKENS_PAGE_SIZE,
          total: list.data.total,
          hideOnSinglePage: true,
          onChange: setPage,
          showTotal: (total, [low, high]) => t('apiTokens.pagination', { low, high, total }),
        }}
      />
    );

  return (
    <Card style={{ width: '100%', maxWidth: token.screenMD }} data-testid="api-tokens-card">
      <Typography.Title level={2} style={{ marginTop: 0, fontSize: token.fontSizeHeading4 }}>
        {t('apiTokens.title')}
      </Typography.Title>
      <Flex vertical gap="middle">
        <Typography.Text type="secondary">{t('apiTokens.intro')}</Typography.Text>
        {secret && (
          <Alert
            type="success"
            showIcon
            data-testid="api-token-secret"
            title={t('apiTokens.showOnce')}
            description={
              <Typography.Text
                code
                copyable={{ tooltips: [undefined, t('apiTokens.copied')] }}
                style={{ wordBreak: 'break-all' }}
              >
                {secret}
              </Typography.Text>
            }
            action={<Button onClick={() => setSecret(null)}>{t('apiTokens.done')}</Button>}
          />
        )}
        <Form<CreateValues>
          form={form}
          layout="inline"
          onFinish={submit}
          requiredMark={false}
          initialValues={{ expires: dayjs().add(PERSONAL_TOKEN_DEFAULT_DAYS, 'day') }}
        >
          <Form.Item
            name="name"
            label={t('apiTokens.name')}
            rules={[{ required: true, whitespace: true, message: t('apiTokens.nameRequired') }]}
          >
            <Input
              placeholder={t('apiTokens.namePlaceholder')}
              maxLength={API_TOKEN_NAME_MAX}
              data-testid="api-token-name"
            />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('apiTokens.password')}
            rules={[{ required: true, message: t('apiTokens.passwordRequired') }]}
          >
            <Input.Password autoComplete="current-password" data-testid="api-token-password" />
          </Form.Item>
          <Form.Item
            name="expires"
            label={t('apiTokens.expires')}
            rules={[{ required: true, message: t('apiTokens.expiresRequired') }]}
          >
            <DateInput
              allowClear={false}
              placeholder={t('apiTokens.expiresPlaceholder')}
              disabledDate={(d) => d.isBefore(dayjs(), 'day') || d.isAfter(latestTokenExpiry(), 'day')}
              data-testid="api-token-expires"
            />
          </Form.Item>
          <Form.Item>
            <Button
              type="primary"
              htmlType="submit"
              loading={create.isPending}
              data-testid="api-token-create"
            >
              {t('apiTokens.create')}
            </Button>
          </Form.Item>
        </Form>
        {formError && <Alert type="error" showIcon title={formError} />}
        {table}
      </Flex>
    </Card>
  );
}
