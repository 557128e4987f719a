import type { AssetCriticality } from '@soc/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import '../i18n/texts.ts';
import { ASSET_CRITICALITY_COLORS } from '@/shared/theme/domainColors.ts';

export type AssetCriticalityTagProps = { value: AssetCriticality };

/** Criticality of an asset as a coloured tag (antd preset colours work in light and dark). */
export function AssetCriticalityTag({ value }: AssetCriticalityTagProps) {
  const { t } = useTranslation();
  return (
    <Tag color={ASSET_CRITICALITY_COLORS[value]} data-testid="asset-criticality">
      {t(`assets.criticalities.${value}`)}
    </Tag>
  );
}
