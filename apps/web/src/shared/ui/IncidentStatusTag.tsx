import type { IncidentStatus } from '@soc/contracts';
import { useTranslation } from 'react-i18next';
import { ContrastTag } from './ContrastTag.tsx';

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
  return (
    <ContrastTag color={STATUS_COLORS[status]} variant="outlined" data-testid={testId} data-status={status}>
      {t(`incidentStatus.${status}`)}
    </ContrastTag>
  );
}
