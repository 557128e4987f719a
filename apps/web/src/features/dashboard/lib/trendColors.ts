import { theme } from 'antd';
import { useThemeMode } from '@/shared/theme/ThemeModeContext.tsx';

/** Dark green (antd green-8): the theme's success shades are too light for text on white. */
const LIGHT_GOOD = '#237804';

/**
 * Text colours for a worse (more incidents, EPS over the contract) and a better figure that keep
 * WCAG AA contrast on the card background of either theme.
 */
export function useTrendColors(): { bad: string; good: string } {
  const { token } = theme.useToken();
  const { mode } = useThemeMode();
  return mode === 'dark'
    ? { bad: token.colorErrorTextHover, good: token.colorSuccessTextHover }
    : { bad: token.colorErrorTextActive, good: LIGHT_GOOD };
}
