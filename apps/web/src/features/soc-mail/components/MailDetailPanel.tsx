import { CloseOutlined, DeleteOutlined, SendOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Flex, Popconfirm, Skeleton, Tag, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, errorDescription } from '@/shared/api/index.ts';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useMailActionMutation, useMailDetailQuery } from '../api/useMailQuarantineQueries.ts';
import { MailReasonTag } from './MailReasonTag.tsx';
import '../i18n/texts.ts';

export type MailDetailPanelProps = {
  id: number;
  onClose: () => void;
  /** The mail was released or deleted: it has left the quarantine. */
  onDone: () => void;
};

/**
 * One quarantined mail: who sent it, about which incident, why it waits, and its text. The text
 * is untrusted mail, so it is shown as plain text (never as HTML); Release posts it in the
 * incident's chat and Delete drops it, each after a confirmation.
 */
export function MailDetailPanel({ id, onClose, onDone }: MailDetailPanelProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const query = useMailDetailQuery(id);
  const action = useMailActionMutation();
  const mail = query.data;

  const run = (kind: 'release' | 'delete') =>
    action.mutate(
      { id, action: kind },
      {
        onSuccess: () => {
          notifySuccess({
            title:
              kind === 'release' && mail
                ? t('socMail.release.done', { key: mail.incident })
                : t('socMail.delete.done'),
          });
          onDone();
        },
      },
    );

  let body;
  if (query.isPending)
    body = <Skeleton active paragraph={{ rows: 6 }} data-testid="soc-mail-detail-loading" />;
  else if (query.isError || !mail) {
    body = (
      <Alert
        type="error"
        showIcon
        message={t('socMail.detail.loadFailed')}
        description={query.error instanceof ApiError ? errorDescription(query.error).join(' ') : undefined}
        action={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
        data-testid="soc-mail-detail-error"
      />
    );
  } else {
    const busy = action.isPending;
    body = (
      <Flex vertical gap="middle">
        <Descriptions
          size="small"
          column={1}
          items={[
            {
              key: 'from',
              label: t('socMail.detail.from'),
              children: (
                <Flex vertical data-testid="soc-mail-detail-from">
                  <Typography.Text style={{ overflowWrap: 'anywhere' }}>
                    {mail.sender_name ? `${mail.sender_name} <${mail.sender}>` : mail.sender}
                  </Typography.Text>
                  <span>
                    <Tag color={mail.sender_verified ? 'success' : 'warning'}>
                      {t(mail.sender_verified ? 'socMail.verified' : 'socMail.unverified')}
                    </Tag>
                  </span>
                </Flex>
              ),
            },
            {
              key: 'subject',
              label: t('socMail.detail.subject'),
              children: (
                <Typography.Text data-testid="soc-mail-detail-subject" style={{ overflowWrap: 'anywhere' }}>
                  {mail.subject || t('socMail.noSubject')}
                </Typography.Text>
              ),
            },
            {
              key: 'incident',
              label: t('socMail.detail.incident'),
              children: (
                <Link to={`/inc/${mail.incident}`} data-testid="soc-mail-detail-incident">
                  {mail.incident}
                </Link>
              ),
            },
            { key: 'system', label: t('socMail.detail.system'), children: mail.system },
            {
              key: 'received',
              label: t('socMail.detail.received'),
              children: formatDateTime(mail.received, i18n.language),
            },
            {
              key: 'reason',
              label: t('socMail.detail.reason'),
              children: <MailReasonTag reason={mail.reason} />,
            },
            ...(mail.attachments.length > 0
              ? [
                  {
                    key: 'attachments',
                    label: t('socMail.detail.attachments'),
                    children: (
                      <Typography.Text style={{ overflowWrap: 'anywhere' }}>
                        {mail.attachments.join(', ')}
                      </Typography.Text>
                    ),
                  },
                ]
              : []),
          ]}
        />
        <Typography.Text type="secondary">{t('socMail.detail.untrusted')}</Typography.Text>
        <section aria-label={t('socMail.detail.body')}>
          {mail.body.trim() === '' ? (
            <Typography.Text type="secondary">{t('socMail.detail.emptyBody')}</Typography.Text>
          ) : (
            // untrusted mail: a text node, never markup
            <pre
              data-testid="soc-mail-body"
              style={{
                margin: 0,
                padding: token.paddingSM,
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
                fontFamily: token.fontFamilyCode,
                fontSize: token.fontSizeSM,
                color: token.colorText,
                background: token.colorFillQuaternary,
                borderRadius: token.borderRadius,
                maxHeight: '24rem',
                overflowY: 'auto',
              }}
            >
              {mail.body}
            </pre>
          )}
        </section>
        <Flex gap="small" wrap>
          <Popconfirm
            title={t('socMail.release.confirm', { key: mail.incident })}
            description={t('socMail.release.confirmText')}
            okText={t('socMail.release.ok')}
            cancelText={t('socMail.cancel')}
            onConfirm={() => run('release')}
          >
            <Button
              type="primary"
              icon={<SendOutlined aria-hidden />}
              loading={busy}
              data-testid="soc-mail-release"
            >
              {t('socMail.release.button')}
            </Button>
          </Popconfirm>
          <Popconfirm
            title={t('socMail.delete.confirm')}
            okText={t('socMail.delete.ok')}
            okButtonProps={{ danger: true }}
            cancelText={t('socMail.cancel')}
            onConfirm={() => run('delete')}
          >
            <Button
              danger
              icon={<DeleteOutlined aria-hidden />}
              disabled={busy}
              data-testid="soc-mail-delete"
            >
              {t('socMail.delete.button')}
            </Button>
          </Popconfirm>
        </Flex>
      </Flex>
    );
  }

  return (
    <Card
      size="small"
      title={t('socMail.detail.title')}
      extra={
        <Button
          type="text"
          icon={<CloseOutlined aria-hidden />}
          aria-label={t('socMail.detail.close')}
          onClick={onClose}
        />
      }
      style={{ overflowY: 'auto' }}
      data-testid="soc-mail-detail"
    >
      {body}
    </Card>
  );
}
