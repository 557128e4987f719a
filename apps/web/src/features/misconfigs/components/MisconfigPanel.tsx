import { CloseOutlined } from '@ant-design/icons';
import type { MisconfigAction } from '@soc/contracts';
import {
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  Result,
  Skeleton,
  theme,
  Timeline,
  Typography,
  type DescriptionsProps,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { useMisconfigQuery } from '../api/useMisconfigQuery.ts';
import { MisconfigActionDialog } from './MisconfigActionDialog.tsx';
import { MisconfigStatusTag, SeverityTag } from './MisconfigTags.tsx';

export type MisconfigPanelProps = {
  misconfigId: number;
  onClose: () => void;
  /** As wide as its container (the phone's drawer), not a column beside the list. */
  fullWidth?: boolean;
};

/** The side panel of a recommendation: what was found, how to fix it, where, its history and actions. */
export function MisconfigPanel({ misconfigId, onClose, fullWidth = false }: MisconfigPanelProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const query = useMisconfigQuery(misconfigId);
  const [action, setAction] = useState<MisconfigAction | null>(null);
  const m = query.data;
  const none = t('misconfigs.panel.none');
  const statusText = (s: Parameters<typeof MisconfigStatusTag>[0]['status']) => t(`misconfigs.statuses.${s}`);

  const body = query.isPending ? (
    <Skeleton active paragraph={{ rows: 8 }} />
  ) : query.isError || !m ? (
    <Result
      status="error"
      title={t('misconfigs.panel.loadFailed')}
      extra={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
    />
  ) : (
    <Flex vertical gap="middle">
      <Flex gap="small" wrap align="center">
        <SeverityTag severity={m.severity} />
        <MisconfigStatusTag status={m.status} />
      </Flex>
      <Descriptions
        size="small"
        column={1}
        items={
          [
            {
              key: 'system',
              label: t('misconfigs.panel.system'),
              children: `${m.system.is_id} · ${m.system.full_name}`,
            },
            {
              key: 'assets',
              label: t('misconfigs.panel.assets'),
              children: m.affected_assets.join(', ') || none,
            },
            {
              key: 'created',
              label: t('misconfigs.panel.created'),
              children: formatDateTime(m.created, i18n.language),
            },
            {
              key: 'updated',
              label: t('misconfigs.panel.updated'),
              children: formatDateTime(m.updated, i18n.language),
            },
            {
              key: 'incidents',
              label: t('misconfigs.panel.incidents'),
              children: m.incidents.length ? (
                <Flex vertical>
                  {m.incidents.map((incident) => (
                    <Link key={incident.key} to={`/inc/${incident.key}`} data-testid="misconfig-incident">
                      {incident.key} · {incident.summary}
                    </Link>
                  ))}
                </Flex>
              ) : (
                none
              ),
            },
          ] satisfies DescriptionsProps['items']
        }
      />
      <section>
        <Typography.Title level={3} style={{ fontSize: token.fontSizeHeading5 }}>
          {t('misconfigs.panel.description')}
        </Typography.Title>
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>
          {m.description || none}
        </Typography.Paragraph>
        <Typography.Title level={3} style={{ fontSize: token.fontSizeHeading5 }}>
          {t('misconfigs.panel.recommendation')}
        </Typography.Title>
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }} data-testid="misconfig-recommendation">
          {m.recommendation || none}
        </Typography.Paragraph>
      </section>
      {m.available_actions.length > 0 && (
        <Flex gap="small" wrap data-testid="misconfig-actions">
          {m.available_actions.map((a) => (
            <Button
              key={a}
              type={a === 'fix' ? 'primary' : 'default'}
              onClick={() => setAction(a)}
              data-testid={`misconfig-action-${a}`}
            >
              {t(`misconfigs.actions.${a}`)}
            </Button>
          ))}
        </Flex>
      )}
      {m.history.length > 0 && (
        <section>
          <Typography.Title level={3} style={{ fontSize: token.fontSizeHeading5 }}>
            {t('misconfigs.panel.history')}
          </Typography.Title>
          <Timeline
            data-testid="misconfig-history"
            items={m.history.map((h) => ({
              key: `${h.at}-${h.action}`,
              content: (
                <Flex vertical>
                  <Typography.Text>
                    {t('misconfigs.panel.historyEntry', {
                      user: h.user,
                      from: statusText(h.from),
                      to: statusText(h.to),
                    })}
                  </Typography.Text>
                  {h.comment && <Typography.Text type="secondary">{h.comment}</Typography.Text>}
                  <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                    {formatDateTime(h.at, i18n.language)}
                  </Typography.Text>
                </Flex>
              ),
            }))}
          />
        </section>
      )}
      <MisconfigActionDialog misconfigId={m.id} action={action} onClose={() => setAction(null)} />
    </Flex>
  );

  return (
    <Card
      size="small"
      role="complementary"
      aria-label={t('misconfigs.panel.label')}
      data-testid="misconfig-panel"
      data-id={misconfigId}
      title={<span style={{ whiteSpace: 'normal' }}>{m?.title ?? ''}</span>}
      extra={
        <Button
          type="text"
          icon={<CloseOutlined aria-hidden />}
          aria-label={t('misconfigs.panel.close')}
          onClick={onClose}
          data-testid="misconfig-panel-close"
        />
      }
      style={
        fullWidth
          ? undefined
          : { flex: '0 0 32rem', maxWidth: '40%', alignSelf: 'flex-start', position: 'sticky', top: '5rem' }
      }
      styles={fullWidth ? undefined : { body: { maxHeight: 'calc(100vh - 10rem)', overflowY: 'auto' } }}
    >
      {body}
    </Card>
  );
}

/** Shown in place of the panel while nothing is selected. */
export function MisconfigPanelHint() {
  const { t } = useTranslation();
  return (
    <Card size="small" style={{ flex: '0 0 32rem', maxWidth: '40%', alignSelf: 'flex-start' }}>
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('misconfigs.panel.selectHint')} />
    </Card>
  );
}
