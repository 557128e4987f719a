import type { MailQuarantineReason } from '@soc/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import '../i18n/texts.ts';

/** A claim of the national centre's domain is the worst case; the others are warnings. */
const COLORS: Record<MailQuarantineReason, 'warning' | 'error'> = {
  unverified_sender: 'warning',
  not_a_user: 'warning',
  unverified_national_centre: 'error',
};

/** Why the mail was quarantined, translated. */
export function MailReasonTag({ reason }: { reason: MailQuarantineReason }) {
  const { t } = useTranslation();
  return (
    <Tag
      color={COLORS[reason]}
      data-testid="soc-mail-reason"
      data-reason={reason}
      style={{ marginInlineEnd: 0 }}
    >
      {t(`socMail.reason.${reason}`)}
    </Tag>
  );
}
