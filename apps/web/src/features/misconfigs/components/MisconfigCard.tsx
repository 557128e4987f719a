import type { Misconfig } from '@soc/contracts';
import { Card, Flex, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { clipText } from '@/shared/ui/clipText.ts';
import { MisconfigStatusTag, SeverityTag } from './MisconfigTags.tsx';

/** Assets listed on a card before the rest is summarised. */
const CARD_ASSETS = 3;

export type MisconfigCardProps = {
  misconfig: Misconfig;
  selected: boolean;
  onSelect: (id: number) => void;
  position: number;
  setSize: number;
};

/** A recommendation in the list; choosing it opens the side panel. */
export function MisconfigCard({ misconfig: m, selected, onSelect, position, setSize }: MisconfigCardProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const assets =
    m.affected_assets.slice(0, CARD_ASSETS).join(', ') +
    (m.affected_assets.length > CARD_ASSETS ? ` +${m.affected_assets.length - CARD_ASSETS}` : '');
  return (
    <Card
      size="small"
      role="article"
      aria-posinset={position}
      aria-setsize={setSize}
      aria-current={selected ? 'true' : undefined}
      hoverable
      onClick={() => onSelect(m.id)}
      data-testid="misconfig-card"
      data-id={m.id}
      data-selected={selected}
      styles={{ body: { padding: token.paddingSM } }}
      style={{ borderColor: selected ? token.colorPrimary : undefined }}
    >
      <Flex vertical gap={token.marginXXS}>
        <Flex align="center" gap="small">
          <SeverityTag severity={m.severity} />
          <Typography.Link
            strong
            onClick={(event) => {
              event.stopPropagation();
              onSelect(m.id);
            }}
            data-testid="misconfig-title"
          >
            {m.title}
          </Typography.Link>
          <span style={{ marginInlineStart: 'auto' }}>
            <MisconfigStatusTag status={m.status} />
          </span>
        </Flex>
        <Typography.Text type="secondary" style={clipText}>
          {m.description}
        </Typography.Text>
        <Flex gap="small" wrap>
          <Typography.Text type="secondary">{m.system.is_id}</Typography.Text>
          {assets && (
            <Typography.Text type="secondary">{t('misconfigs.list.assets', { assets })}</Typography.Text>
          )}
          <Typography.Text type="secondary" style={{ marginInlineStart: 'auto' }}>
            {t('misconfigs.list.updated', { date: formatDateTime(m.updated, i18n.language) })}
          </Typography.Text>
        </Flex>
      </Flex>
    </Card>
  );
}
