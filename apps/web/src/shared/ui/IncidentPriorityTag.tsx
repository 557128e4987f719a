import type { IncidentPriority } from '@soc/contracts';
import { Tag, theme } from 'antd';
import { useTranslation } from 'react-i18next';

/** antd preset colours (theme-aware in light and dark) per priority, hottest first. */
const PRIORITY_COLORS: Record<IncidentPriority, string> = {
  critical: 'magenta',
  high: 'red',
  medium: 'orange',
  low: 'blue',
};

export type IncidentPriorityTagProps = {
  priority: IncidentPriority;
  /** Test id of the tag (the priority is also exposed as `data-priority`). */
  testId?: string;
};

/** An incident priority as a coloured tag with its translated title. */
export function IncidentPriorityTag({ priority, testId }: IncidentPriorityTagProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Tag
      color={PRIORITY_COLORS[priority]}
      data-testid={testId}
      data-priority={priority}
      // The palette colours the border and fill; the text keeps the theme's text colour, which the
      // palette's light shades (orange, gold) would not give enough contrast (WCAG AA).
      style={{ marginInlineEnd: 0, color: token.colorText }}
    >
      {t(`incidentPriority.${priority}`)}
    </Tag>
  );
}
