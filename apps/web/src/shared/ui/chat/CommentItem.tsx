import type { Comment } from '@soc/contracts';
import { Alert, Flex, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTimeWithZone } from '../../lib/formatDateTime.ts';
import { CommentSourceIcon, commentSourceKind } from '../CommentSourceIcon.tsx';
import { AttachmentList } from './AttachmentList.tsx';
import './i18n/texts.ts';

export type CommentItemProps = {
  comment: Comment;
};

/** One chat message: source icon, author, time, the (server-sanitised) HTML body and its files. */
export function CommentItem({ comment }: CommentItemProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const source = commentSourceKind(comment.source);

  return (
    <article
      data-testid="comment"
      data-source={source}
      data-id={comment.id}
      style={{
        padding: token.paddingSM,
        borderRadius: token.borderRadiusLG,
        background: comment.is_mine ? token.colorPrimaryBg : token.colorFillQuaternary,
        border: `${token.lineWidth}px ${token.lineType} ${
          comment.is_mine ? token.colorPrimaryBorder : token.colorBorderSecondary
        }`,
      }}
    >
      <Flex align="center" gap="small" style={{ marginBottom: token.marginXXS }}>
        <CommentSourceIcon source={comment.source} />
        <Typography.Text strong data-testid="comment-author">
          {comment.author}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ marginInlineStart: 'auto', fontSize: token.fontSizeSM }}>
          <time dateTime={new Date(comment.created).toISOString()}>
            {formatDateTimeWithZone(comment.created, i18n.language)}
          </time>
        </Typography.Text>
      </Flex>
      {source === 'unverified' && (
        <Alert
          type="warning"
          showIcon
          data-testid="comment-unverified-warning"
          title={t('chat.unverifiedWarning')}
          style={{ marginBottom: token.marginXS }}
        />
      )}
      <div
        data-testid="comment-body"
        className="incident-comment-body"
        style={{ overflowWrap: 'anywhere' }}
        // Sanitised on the server (no scripts, handlers or javascript: links; product §A3).
        dangerouslySetInnerHTML={{ __html: comment.body }}
      />
      <AttachmentList attachments={comment.attachments} testId="comment-attachments" />
    </article>
  );
}
