import type { IncidentListItem } from '@soc/contracts';
import { Flex, Tag, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { clipText } from '@/shared/ui/clipText.ts';
import { FeedCard } from '@/shared/ui/FeedCard.tsx';
import { IncidentPriorityTag } from '@/shared/ui/IncidentPriorityTag.tsx';
import { IncidentStatusTag } from '@/shared/ui/IncidentStatusTag.tsx';
import { IncidentTags } from './IncidentTags.tsx';

export type IncidentCardProps = {
  incident: IncidentListItem;
  /** The card whose summary the side panel shows. */
  selected: boolean;
  /**
   * Position in the whole list (1-based) and its length, for assistive technology; -1: the
   * length is not known (ARIA's value for it).
   */
  position: number;
  setSize: number;
  onSelect: (key: number) => void;
  /** Arrow/Page keys: move focus to the card `offset` places away. */
  onMove?: (fromIndex: number, offset: number) => void;
};

/** One incident in the list: an article of the feed, selected by click, Enter or Space. */
export function IncidentCard({ incident, selected, position, setSize, onSelect, onMove }: IncidentCardProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const titleId = `incident-card-title-${incident.key}`;

  return (
    <FeedCard
      titleId={titleId}
      selected={selected}
      position={position}
      setSize={setSize}
      onSelect={() => onSelect(incident.key)}
      onMove={onMove && ((offset) => onMove(position - 1, offset))}
      testId="incident-card"
      data={{ 'data-key': incident.key }}
    >
      <Flex vertical gap={token.marginXXS}>
        <Flex align="center" gap="small" wrap>
          <Link
            to={`/inc/${incident.key}`}
            onClick={(event) => event.stopPropagation()}
            data-testid="incident-card-link"
            style={{ fontWeight: token.fontWeightStrong }}
          >
            {incident.key}
          </Link>
          <IncidentPriorityTag priority={incident.priority} testId="incident-card-priority" />
          <IncidentStatusTag status={incident.status} testId="incident-card-status" />
          {incident.sla_breached && (
            <Tag color="error" data-testid="incident-card-sla-breached" style={{ marginInlineEnd: 0 }}>
              {t('incidents.card.slaBreached')}
            </Tag>
          )}
          <Typography.Text type="secondary" style={{ marginInlineStart: 'auto' }}>
            <span>{t('incidents.card.created')}: </span>
            <time dateTime={new Date(incident.created).toISOString()}>
              {formatDateTime(incident.created, i18n.language)}
            </time>
          </Typography.Text>
        </Flex>
        <Typography.Text
          id={titleId}
          strong
          title={incident.summary}
          style={clipText}
          data-testid="incident-card-summary"
        >
          {incident.summary}
        </Typography.Text>
        <Typography.Text type="secondary" style={clipText} data-testid="incident-card-system">
          {incident.system.is_id} · {incident.system.full_name}
        </Typography.Text>
        <Flex gap="middle" wrap>
          <Typography.Text
            type={incident.sla_breached ? 'danger' : 'secondary'}
            data-testid="incident-card-sla"
            data-breached={incident.sla_breached}
          >
            {t('incidents.card.sla')}:{' '}
            {incident.sla === null ? t('incidents.card.noSla') : formatDateTime(incident.sla, i18n.language)}
          </Typography.Text>
          <Typography.Text type="secondary" data-testid="incident-card-assignee">
            {t('incidents.card.assignee')}:{' '}
            {incident.customer_assignee?.full_name ||
              incident.customer_assignee?.username ||
              t('incidents.card.unassigned')}
          </Typography.Text>
        </Flex>
        <IncidentTags tags={incident.tags} />
      </Flex>
    </FeedCard>
  );
}
