import type { AssetCriticality } from '@soc/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import '../i18n/texts.ts';

const COLOURS: Record<AssetCriticality, string> = {
  critical: 'red',
  high: 'volcano',
  medium: 'gold',
  low: 'default',
};

export type AssetCriticalityTagProps = { value: AssetCriticality };

/** Criticality of an asset as a coloured tag (antd preset colours work in light and dark). */
export function AssetCriticalityTag({ value }: AssetCriticalityTagProps) {
  const { t } = useTranslation();
  return (
    <Tag color={COLOURS[value]} data-testid="asset-criticality">
      {t(`assets.criticalities.${value}`)}
    </Tag>
  );
}
