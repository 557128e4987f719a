import type { RuleLevel } from '@soc/contracts';
import { Badge, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import '../i18n/texts.ts';

export type LevelTagProps = { level: RuleLevel; testId?: string };

/**
 * A severity or confidence level: a coloured dot beside the text, so that the text keeps the
 * theme's contrast in light and dark.
 */
export function LevelTag({ level, testId }: LevelTagProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const colors: Record<RuleLevel, string> = {
    Critical: token.colorError,
    High: token.colorWarning,
    Medium: token.colorWarningBorder,
    Low: token.colorSuccess,
  };
  return (
    <Badge color={colors[level]} text={t(`rules.levels.${level}`)} data-testid={testId} data-level={level} />
  );
}
