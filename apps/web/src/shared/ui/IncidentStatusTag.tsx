import type { IncidentStatus } from '@soc/contracts';
import { Tag, theme } from 'antd';
import { useTranslation } from 'react-i18next';

/** antd status colours per incident status: open work stands out, finished work is muted. */
const STATUS_COLORS: Record<IncidentStatus, string> = {
  waiting_for_customer: 'warning',
  waiting_for_support: 'processing',
  work_in_progress: 'processing',
  customer_completed: 'success',
  completed: 'success',
  closed: 'default',
  canceled: 'default',
};

export type IncidentStatusTagProps = {
  status: IncidentStatus;
  /** Test id of the tag (the status is also exposed as `data-status`). */
  testId?: string;
};

/** An incident status as a tag with its translated title. */
export function IncidentStatusTag({ status, testId }: IncidentStatusTagProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Tag
      color={STATUS_COLORS[status]}
      variant="outlined"
      data-testid={testId}
      data-status={status}
      // The palette colours the border and fill; the text keeps the theme's text colour, which the
      // palette's light shades (orange, gold) would not give enough contrast (WCAG AA).
      style={{ marginInlineEnd: 0, color: token.colorText }}
    >
      {t(`incidentStatus.${status}`)}
    </Tag>
  );
}
