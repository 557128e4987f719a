import type { IncidentStatus } from '@soc/contracts';
import { useTranslation } from 'react-i18next';
import { ContrastTag } from './ContrastTag.tsx';
import { INCIDENT_STATUS_COLORS } from '../theme/domainColors.ts';

export type IncidentStatusTagProps = {
  status: IncidentStatus;
  /** Test id of the tag (the status is also exposed as `data-status`). */
  testId?: string;
};

/** An incident status as a tag with its translated title. */
export function IncidentStatusTag({ status, testId }: IncidentStatusTagProps) {
  const { t } = useTranslation();
  return (
    <ContrastTag
      color={INCIDENT_STATUS_COLORS[status]}
      variant="outlined"
      data-testid={testId}
      data-status={status}
    >
      {t(`incidentStatus.${status}`)}
    </ContrastTag>
  );
}
