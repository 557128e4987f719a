import type { MisconfigSeverity, MisconfigStatus } from '@soc/contracts';
import { useTranslation } from 'react-i18next';
import { ContrastTag } from '../../../shared/ui/ContrastTag.tsx';

const SEVERITY_COLORS: Record<MisconfigSeverity, string> = {
  critical: 'magenta',
  high: 'red',
  medium: 'orange',
  low: 'green',
};
const STATUS_COLORS: Record<MisconfigStatus, string> = {
  open: 'processing',
  accepted_risk: 'warning',
  fixed: 'success',
};

/** Severity as a tag (text in the theme's text colour for contrast in both themes). */
export function SeverityTag({ severity }: { severity: MisconfigSeverity }) {
  const { t } = useTranslation();
  return (
    <ContrastTag color={SEVERITY_COLORS[severity]} variant="outlined" data-severity={severity}>
      {t(`misconfigs.severities.${severity}`)}
    </ContrastTag>
  );
}

export function MisconfigStatusTag({ status }: { status: MisconfigStatus }) {
  const { t } = useTranslation();
  return (
    <ContrastTag
      color={STATUS_COLORS[status]}
      variant="outlined"
      data-testid="misconfig-status"
      data-status={status}
    >
      {t(`misconfigs.statuses.${status}`)}
    </ContrastTag>
  );
}
