import type { MitreBand } from '@soc/contracts';
import type { GlobalToken } from 'antd';

/** Cell colours of the bands (theme tokens, so light and dark both work). */
export const bandColors = (
  token: GlobalToken,
): Record<MitreBand, { background: string; border: string }> => ({
  none: { background: token.colorFillQuaternary, border: token.colorBorderSecondary },
  low: { background: token.colorSuccessBg, border: token.colorSuccessBorder },
  medium: { background: token.colorWarningBg, border: token.colorWarningBorder },
  high: { background: token.colorWarningBorderHover, border: token.colorWarning },
  highest: { background: token.colorErrorBorder, border: token.colorError },
});
