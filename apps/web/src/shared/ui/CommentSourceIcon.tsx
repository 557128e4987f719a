import { ApiOutlined, MailOutlined, WarningOutlined } from '@ant-design/icons';
import type { CommentSource } from '@soc/contracts';
import { theme, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

/** How a comment arrived, as the interface names it (product §A3 Comment). */
export type CommentSourceKind = 'web' | 'email' | 'unverified';

const SOURCE_VIEW: Record<CommentSource, { kind: CommentSourceKind; Icon: typeof ApiOutlined }> = {
  API: { kind: 'web', Icon: ApiOutlined },
  'Email by authorized user': { kind: 'email', Icon: MailOutlined },
  'Email by unauthorized user': { kind: 'unverified', Icon: WarningOutlined },
};

export const commentSourceKind = (source: CommentSource): CommentSourceKind => SOURCE_VIEW[source].kind;

export type CommentSourceIconProps = {
  source: CommentSource;
};

/**
 * The icon of a comment's source with its label as tooltip and accessible name: web or API,
 * mail from an authorised user, mail from an unverified sender (warning colour). Incident and
 * document comments both show it.
 */
export function CommentSourceIcon({ source }: CommentSourceIconProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { kind, Icon } = SOURCE_VIEW[source];
  const label = t(`common.commentSource.${kind}`);
  return (
    <Tooltip title={label}>
      <Icon
        role="img"
        aria-label={label}
        data-testid="comment-source"
        style={{ color: kind === 'unverified' ? token.colorWarning : token.colorTextSecondary }}
      />
    </Tooltip>
  );
}
