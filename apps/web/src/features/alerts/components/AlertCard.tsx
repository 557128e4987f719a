import type { Alert } from '@soc/contracts';
import { Card, Checkbox, Flex, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { ALERT_SEVERITY_COLORS } from '@/shared/theme/domainColors.ts';
import { AlertTags } from './AlertTags.tsx';
import '../i18n/texts.ts';
import { ContrastTag } from '@/shared/ui/ContrastTag.tsx';

export type AlertCardProps = {
  alert: Alert;
  selected: boolean;
  onSelect: (uuid: string) => void;
  position: number;
  setSize: number;
  /** Staff pick alerts for the bulk actions: the card then has a checkbox. */
  checked?: boolean;
  onCheck?: (uuid: string, checked: boolean) => void;
};

/** An alert in the alerts screen's list; choosing it opens the side panel. */
export function AlertCard({
  alert: a,
  selected,
  onSelect,
  position,
  setSize,
  checked,
  onCheck,
}: AlertCardProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const assets = a.affected_assets.map((asset) => asset.name).join(', ');
  return (
    <Card
      size="small"
      role="article"
      aria-posinset={position}
      aria-setsize={setSize}
      aria-current={selected ? 'true' : undefined}
      hoverable
      onClick={() => onSelect(a.uuid)}
      data-testid="alert-card"
      data-uuid={a.uuid}
      data-selected={selected}
      styles={{ body: { padding: token.paddingSM } }}
      style={{ borderColor: selected ? token.colorPrimary : undefined }}
    >
      <Flex vertical gap={token.marginXXS}>
        <Flex align="center" gap="small" wrap>
          {onCheck && (
            // a click on the box picks the alert, it does not open it
            <span onClick={(event) => event.stopPropagation()}>
              <Checkbox
                checked={checked === true}
                onChange={(event) => onCheck(a.uuid, event.target.checked)}
                aria-label={t('alerts.bulk.select', { title: a.title })}
                data-testid="alert-card-check"
              />
            </span>
          )}
          <ContrastTag color={ALERT_SEVERITY_COLORS[a.severity]}>
            {t(`alerts.severity.${a.severity}`)}
          </ContrastTag>
          <Typography.Link
            strong
            onClick={(event) => {
              event.stopPropagation();
              onSelect(a.uuid);
            }}
            data-testid="alert-card-title"
            style={{ minWidth: 0, overflowWrap: 'anywhere' }}
          >
            {a.title}
          </Typography.Link>
          <Typography.Text type="secondary" style={{ marginInlineStart: 'auto' }}>
            {t(`alerts.status.${a.status}`)}
          </Typography.Text>
        </Flex>
        {assets && (
          <Typography.Text type="secondary" style={{ overflowWrap: 'anywhere' }}>
            {t('alerts.screen.assets', { assets })}
          </Typography.Text>
        )}
        <Flex gap="small" wrap align="center">
          <Typography.Text type="secondary">{a.system.is_id}</Typography.Text>
          {a.incident !== null ? (
            <Link
              to={`/inc/${a.incident}`}
              onClick={(event) => event.stopPropagation()}
              data-testid="alert-card-incident"
            >
              {t('alerts.screen.incident', { key: a.incident })}
            </Link>
          ) : (
            <Typography.Text type="secondary">{t('alerts.screen.noIncident')}</Typography.Text>
          )}
          <AlertTags tags={a.tags} sourceTag={a.source_tag} />
          <Typography.Text type="secondary" style={{ marginInlineStart: 'auto' }}>
            {formatDateTime(a.created_time, i18n.language)}
          </Typography.Text>
        </Flex>
      </Flex>
    </Card>
  );
}
