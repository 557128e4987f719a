import type { MisconfigSeverity, MisconfigStatus } from '@soc/contracts';
import { Tag, theme } from 'antd';
import { useTranslation } from 'react-i18next';

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
  const { token } = theme.useToken();
  return (
    <Tag
      color={SEVERITY_COLORS[severity]}
      variant="outlined"
      data-severity={severity}
      style={{ marginInlineEnd: 0, color: token.colorText }}
    >
      {t(`misconfigs.severities.${severity}`)}
    </Tag>
  );
}

export function MisconfigStatusTag({ status }: { status: MisconfigStatus }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Tag
      color={STATUS_COLORS[status]}
      variant="outlined"
      data-testid="misconfig-status"
      data-status={status}
      style={{ marginInlineEnd: 0, color: token.colorText }}
    >
      {t(`misconfigs.statuses.${status}`)}
    </Tag>
  );
}
