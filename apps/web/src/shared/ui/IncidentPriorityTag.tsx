import type { IncidentPriority } from '@soc/contracts';
import { useTranslation } from 'react-i18next';
import { ContrastTag } from './ContrastTag.tsx';
import { INCIDENT_PRIORITY_COLORS } from '../theme/domainColors.ts';

export type IncidentPriorityTagProps = {
  priority: IncidentPriority;
  /** Test id of the tag (the priority is also exposed as `data-priority`). */
  testId?: string;
};

/** An incident priority as a coloured tag with its translated title. */
export function IncidentPriorityTag({ priority, testId }: IncidentPriorityTagProps) {
  const { t } = useTranslation();
  return (
    <ContrastTag color={INCIDENT_PRIORITY_COLORS[priority]} data-testid={testId} data-priority={priority}>
      {t(`incidentPriority.${priority}`)}
    </ContrastTag>
  );
}
