import { CloseOutlined } from '@ant-design/icons';
import type { IncidentListItem } from '@soc/contracts';
import { Button, Card, Descriptions, Flex, Tag, Typography, type DescriptionsProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { IncidentPriorityTag } from '@/shared/ui/IncidentPriorityTag.tsx';
import { IncidentStatusTag } from '@/shared/ui/IncidentStatusTag.tsx';

export type IncidentSidePanelProps = {
  incident: IncidentListItem;
  onClose: () => void;
};

/** Summary of the selected incident, from its list item, with a link to its page. */
export function IncidentSidePanel({ incident, onClose }: IncidentSidePanelProps) {
  const { t, i18n } = useTranslation();
  const none = t('incidents.panel.none');
  const headingId = `incident-panel-title-${incident.key}`;
  const locale = i18n.language;

  const resolution = incident.resolution
    ? [
        incident.resolution === 'True Positive' ? t('incidentResolution.TP') : t('incidentResolution.FP'),
        incident.resolution_name_ref?.title,
      ]
        .filter(Boolean)
        .join(': ')
    : none;

  const items: DescriptionsProps['items'] = [
    { key: 'key', label: t('incidents.panel.key'), children: incident.key },
    {
      key: 'status',
      label: t('incidents.panel.status'),
      children: <IncidentStatusTag status={incident.status} />,
    },
    {
      key: 'priority',
      label: t('incidents.panel.priority'),
      children: <IncidentPriorityTag priority={incident.priority} />,
    },
    {
      key: 'system',
      label: t('incidents.panel.system'),
      children: `${incident.system.is_id} · ${incident.system.full_name}`,
    },
    { key: 'service', label: t('incidents.panel.service'), children: incident.service?.name ?? none },
    { key: 'issueType', label: t('incidents.panel.issueType'), children: incident.issuetype_ref.title },
    {
      key: 'category',
      label: t('incidents.panel.category'),
      children: incident.category_ref.map((category) => category.title).join(', ') || none,
    },
    {
      key: 'additionalCategories',
      label: t('incidents.panel.additionalCategories'),
      children: incident.secondary_category_ref.map((category) => category.title).join(', ') || none,
    },
    {
      key: 'created',
      label: t('incidents.panel.created'),
      children: formatDateTime(incident.created, locale),
    },
    {
      key: 'updated',
      label: t('incidents.panel.updated'),
      children: formatDateTime(incident.updated, locale),
    },
    {
      key: 'sla',
      label: t('incidents.panel.sla'),
      children: (
        <Flex gap="small" align="center" wrap>
          <span>{formatDateTime(incident.sla, locale)}</span>
          {incident.sla_breached && <Tag color="error">{t('incidents.card.slaBreached')}</Tag>}
        </Flex>
      ),
    },
    {
      key: 'assignee',
      label: t('incidents.panel.assignee'),
      children:
        incident.customer_assignee?.full_name ||
        incident.customer_assignee?.username ||
        t('incidents.card.unassigned'),
    },
    { key: 'resolution', label: t('incidents.panel.resolution'), children: resolution },
    { key: 'gossopkaId', label: t('incidents.panel.gossopkaId'), children: incident.gossopka_id ?? none },
    {
      key: 'reporter',
      label: t('incidents.panel.reporter'),
      children: incident.reporter_displayName || none,
    },
    {
      key: 'tags',
      label: t('incidents.panel.tags'),
      children: incident.tags.length > 0 ? incident.tags.join(', ') : none,
    },
  ];

  return (
    <Card
      role="region"
      aria-labelledby={headingId}
      data-testid="incident-side-panel"
      data-key={incident.key}
      title={
        <Typography.Title
          level={2}
          id={headingId}
          // Announces a newly selected incident without taking focus away from the list.
          aria-live="polite"
          style={{ margin: 0, fontSize: 'inherit', whiteSpace: 'normal' }}
        >
          {incident.key}: {incident.summary}
        </Typography.Title>
      }
      extra={
        <Flex gap="small" align="center">
          <Link to={`/inc/${incident.key}`} data-testid="incident-side-panel-open">
            {t('incidents.panel.open')}
          </Link>
          <Button
            type="text"
            size="small"
            icon={<CloseOutlined aria-hidden />}
            aria-label={t('incidents.panel.close')}
            onClick={onClose}
            data-testid="incident-side-panel-close"
          />
        </Flex>
      }
      // Fills the column up to the list's height; the details scroll inside.
      style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
      styles={{ body: { overflowY: 'auto', minHeight: 0 } }}
    >
      <Descriptions column={1} size="small" items={items} />
    </Card>
  );
}
