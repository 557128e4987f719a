import type { AssetCriticality } from '@soc/contracts';
import { useTranslation } from 'react-i18next';
import '../i18n/texts.ts';
import { ASSET_CRITICALITY_COLORS } from '@/shared/theme/domainColors.ts';
import { ContrastTag } from '@/shared/ui/ContrastTag.tsx';

export type AssetCriticalityTagProps = { value: AssetCriticality };

/**
 * Criticality of an asset as a coloured tag (antd preset colours work in light and dark; the text
 * keeps the theme's colour, since gold and volcano text lacks contrast).
 */
export function AssetCriticalityTag({ value }: AssetCriticalityTagProps) {
  const { t } = useTranslation();
  return (
    <ContrastTag color={ASSET_CRITICALITY_COLORS[value]} data-testid="asset-criticality">
      {t(`assets.criticalities.${value}`)}
    </ContrastTag>
  );
}
