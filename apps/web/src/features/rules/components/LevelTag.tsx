import type { RuleLevel } from '@soc/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<RuleLevel, string> = { Critical: 'red', High: 'orange', Medium: 'gold', Low: 'green' };

export type LevelTagProps = { level: RuleLevel; testId?: string };

/** A severity or confidence level as a coloured tag (preset colours follow the theme). */
export function LevelTag({ level, testId }: LevelTagProps) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[level]} style={{ marginInlineEnd: 0 }} data-testid={testId}>
      {t(`rules.levels.${level}`)}
    </Tag>
  );
}
