import type { MisconfigSeverity, MisconfigStatus } from '@soc/contracts';
import { useTranslation } from 'react-i18next';
import { ContrastTag } from '@/shared/ui/ContrastTag.tsx';
import { MISCONFIG_SEVERITY_COLORS, MISCONFIG_STATUS_COLORS } from '@/shared/theme/domainColors.ts';

/** Severity as a tag (text in the theme's text colour for contrast in both themes). */
export function SeverityTag({ severity }: { severity: MisconfigSeverity }) {
  const { t } = useTranslation();
  return (
    <ContrastTag color={MISCONFIG_SEVERITY_COLORS[severity]} variant="outlined" data-severity={severity}>
      {t(`misconfigs.severities.${severity}`)}
    </ContrastTag>
  );
}

export function MisconfigStatusTag({ status }: { status: MisconfigStatus }) {
  const { t } = useTranslation();
  return (
    <ContrastTag
      color={MISCONFIG_STATUS_COLORS[status]}
      variant="outlined"
      data-testid="misconfig-status"
      data-status={status}
    >
      {t(`misconfigs.statuses.${status}`)}
    </ContrastTag>
  );
}
