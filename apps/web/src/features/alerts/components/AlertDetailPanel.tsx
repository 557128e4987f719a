import { ExportOutlined, LinkOutlined } from '@ant-design/icons';
import type { AlertDetail, AlertTreeNode } from '@soc/contracts';
import {
  Alert as AntAlert,
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  List,
  Skeleton,
  Tag,
  Tree,
  Typography,
} from 'antd';
import type { TreeDataNode } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/shared/api/index.ts';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import {
  useAlertQuery,
  useAlertTreeQuery,
  useGroupedAlertDataQuery,
  useLinkTemplatesQuery,
  useSymptomaticQuery,
} from '../api/useAlertDetailQueries.ts';
import { useAlertLinkMutation } from '../api/useAlertEditing.ts';
import { AlertTagEditor, ResponseTeamSelect } from './AlertEditing.tsx';
import { ALERT_SEVERITY_COLORS } from '@/shared/theme/domainColors.ts';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import '../i18n/texts.ts';

export type AlertDetailPanelProps = {
  incidentKey: number;
  uuid: string;
};

/** The first of a 400's non_field_errors, else the error's message (product §A8 "Alert tree failure"). */
export function firstNonFieldError(error: unknown): string | null {
  if (error instanceof ApiError && error.data && typeof error.data === 'object') {
    const list = (error.data as { non_field_errors?: unknown }).non_field_errors;
    if (Array.isArray(list) && typeof list[0] === 'string') return list[0];
  }
  return error instanceof Error ? error.message : null;
}

function toTreeData(nodes: AlertTreeNode[]): TreeDataNode[] {
  return nodes.map((node) => ({
    key: node.id,
    title: (
      <span data-testid="alert-tree-node">
        <Typography.Text strong={node.matched} type={node.matched ? 'danger' : undefined}>
          {node.process} ({node.pid})
        </Typography.Text>{' '}
        <Typography.Text type="secondary" code>
          {node.cmdline}
        </Typography.Text>
        {node.user ? <Typography.Text type="secondary"> · {node.user}</Typography.Text> : null}
      </span>
    ),
    children: toTreeData(node.children),
  }));
}

/** The selected alert: its data, tags and team, grouped event data, process tree, symptomatic alerts and links. */
export function AlertDetailPanel({ incidentKey, uuid }: AlertDetailPanelProps) {
  const { t } = useTranslation();
  const alert = useAlertQuery(incidentKey, uuid);
  if (alert.isPending) return <Skeleton active data-testid="alert-detail-loading" />;
  if (alert.isError) return <AntAlert type="error" showIcon title={t('alerts.loadFailed')} />;
  return <AlertDetailView incidentKey={incidentKey} alert={alert.data} />;
}

function AlertDetailView({ incidentKey, alert }: { incidentKey: number; alert: AlertDetail }) {
  const { t, i18n } = useTranslation();
  const isPhone = useIsPhone();
  return (
    <Card
      size="small"
      data-testid="alert-detail"
      data-uuid={alert.uuid}
      title={
        <Flex gap="small" align="center">
          <Tag color={ALERT_SEVERITY_COLORS[alert.severity]}>{t(`alerts.severity.${alert.severity}`)}</Tag>
          <Typography.Text strong ellipsis>
            {alert.title}
          </Typography.Text>
        </Flex>
      }
    >
      <Flex vertical gap="middle">
        <Descriptions size="small" column={isPhone ? 1 : 2} bordered>
          <Descriptions.Item label={t('alerts.detail.status')}>
            {t(`alerts.status.${alert.status}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('alerts.detail.rule')}>{alert.rule}</Descriptions.Item>
          <Descriptions.Item label={t('alerts.detail.source')}>{alert.source_tag}</Descriptions.Item>
          <Descriptions.Item label={t('alerts.columns.created')}>
            {formatDateTime(alert.created_time, i18n.language)}
          </Descriptions.Item>
          <Descriptions.Item label={t('alerts.columns.updated')}>
            {formatDateTime(alert.updated_time, i18n.language)}
          </Descriptions.Item>
          <Descriptions.Item label={t('alerts.columns.assets')}>
            {alert.affected_assets.map((a) => `${a.name} (${a.ip_address})`).join(', ')}
          </Descriptions.Item>
          <Descriptions.Item label={t('alerts.detail.incident')}>
            {alert.incident !== null && (
              <Typography.Link
                href={`/inc/${alert.incident}`}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={t('alerts.detail.openIncident', { key: alert.incident })}
                data-testid="alert-incident-link"
              >
                {alert.incident} <ExportOutlined aria-hidden />
              </Typography.Link>
            )}
          </Descriptions.Item>
        </Descriptions>
        {alert.description && <Typography.Paragraph>{alert.description}</Typography.Paragraph>}
        <Flex gap="large" wrap>
          <AlertTagEditor incidentKey={incidentKey} alert={alert} />
          <ResponseTeamSelect incidentKey={incidentKey} alert={alert} />
        </Flex>
        <GroupedData incidentKey={incidentKey} uuid={alert.uuid} />
        <ProcessTree incidentKey={incidentKey} uuid={alert.uuid} />
        <AlertLinks uuid={alert.uuid} />
        <Symptomatic incidentKey={incidentKey} uuid={alert.uuid} />
      </Flex>
    </Card>
  );
}

function Heading({ children }: { children: React.ReactNode }) {
  return (
    <Typography.Title level={4} style={{ fontSize: 'inherit', margin: 0 }}>
      {children}
    </Typography.Title>
  );
}

function GroupedData({ incidentKey, uuid }: AlertDetailPanelProps) {
  const { t } = useTranslation();
  const grouped = useGroupedAlertDataQuery(incidentKey, uuid);
  return (
    <section data-testid="alert-grouped">
      <Heading>
        {t('alerts.detail.grouped')}
        {grouped.data && (
          <Typography.Text type="secondary">
            {' '}
            · {t('alerts.detail.events', { count: grouped.data.events_count })}
          </Typography.Text>
        )}
      </Heading>
      {grouped.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : grouped.isError ? (
        <AntAlert type="error" showIcon title={t('alerts.loadFailed')} />
      ) : (
        <Descriptions size="small" column={1}>
          {grouped.data.results.map((group) => (
            <Descriptions.Item
              key={group.field}
              label={t(`alerts.fields.${group.field}` as 'alerts.fields.host', { defaultValue: group.field })}
            >
              <Flex gap={4} wrap>
                {group.values.map((v) => (
                  <Tag key={v.value}>
                    {v.value}
                    {v.count > 1 ? ` ×${v.count}` : ''}
                  </Tag>
                ))}
              </Flex>
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
    </section>
  );
}

function ProcessTree({ incidentKey, uuid }: AlertDetailPanelProps) {
  const { t } = useTranslation();
  const tree = useAlertTreeQuery(incidentKey, uuid);
  return (
    <section data-testid="alert-tree">
      <Heading>{t('alerts.detail.tree')}</Heading>
      {tree.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : tree.isError ? (
        <AntAlert
          type="warning"
          showIcon
          title={t('alerts.detail.treeFailed')}
          description={firstNonFieldError(tree.error)}
          data-testid="alert-tree-error"
        />
      ) : (
        <Tree showLine defaultExpandAll selectable={false} treeData={toTreeData(tree.data.roots)} />
      )}
    </section>
  );
}

function AlertLinks({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const templates = useLinkTemplatesQuery(uuid);
  const link = useAlertLinkMutation(uuid);
  if (!templates.data?.length) return null;
  const open = (template: number, value: string) =>
    link.mutate(
      { template, value },
      { onSuccess: ({ url }) => void window.open(url, '_blank', 'noopener,noreferrer') },
    );
  return (
    <section data-testid="alert-links">
      <Heading>{t('alerts.detail.links')}</Heading>
      <Flex vertical gap={4}>
        {templates.data.map((template) =>
          template.values.map((value) => (
            <Flex key={`${template.id}:${value}`} gap="small" align="center">
              <Button
                size="small"
                icon={<LinkOutlined aria-hidden />}
                onClick={() => open(template.id, value)}
              >
                {template.name}
              </Button>
              <Typography.Text code>{value}</Typography.Text>
            </Flex>
          )),
        )}
      </Flex>
    </section>
  );
}

function Symptomatic({ incidentKey, uuid }: AlertDetailPanelProps) {
  const { t, i18n } = useTranslation();
  const symptomatic = useSymptomaticQuery(incidentKey, uuid);
  return (
    <section data-testid="alert-symptomatic">
      <Heading>{t('alerts.detail.symptomatic')}</Heading>
      {symptomatic.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : symptomatic.isError ? (
        <AntAlert type="error" showIcon title={firstNonFieldError(symptomatic.error)} />
      ) : symptomatic.data.results.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alerts.detail.noSymptomatic')} />
      ) : (
        <List
          size="small"
          dataSource={symptomatic.data.results}
          renderItem={(item) => (
            <List.Item>
              <Flex gap="small" align="center" style={{ width: '100%' }}>
                <Tag color={ALERT_SEVERITY_COLORS[item.severity]}>
                  {t(`alerts.severity.${item.severity}`)}
                </Tag>
                <Typography.Text style={{ flex: 1 }} ellipsis>
                  {item.title}
                </Typography.Text>
                <Typography.Text type="secondary">
                  {formatDateTime(item.created_time, i18n.language)}
                </Typography.Text>
              </Flex>
            </List.Item>
          )}
        />
      )}
    </section>
  );
}
