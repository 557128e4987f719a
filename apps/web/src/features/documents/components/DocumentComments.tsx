import { SendOutlined } from '@ant-design/icons';
import { DOCUMENT_COMMENT_MAX, type DocumentComment } from '@soc/contracts';
import { Button, Card, Empty, Flex, Form, Input, Result, Skeleton, Tag, theme, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorDescription, mapFieldErrors } from '@/shared/api/index.ts';
import { formatDateTimeWithZone } from '@/shared/lib/formatDateTime.ts';
import { FormErrorAlert } from '@/shared/ui/FormErrorAlert.tsx';
import { CommentSourceIcon, commentSourceKind } from '@/shared/ui/CommentSourceIcon.tsx';
import { notifyError, notifySuccess } from '@/shared/ui/notifications.tsx';
import { useAddDocumentCommentMutation } from '../api/useAddDocumentCommentMutation.ts';
import { useDocumentCommentsQuery } from '../api/useDocumentCommentsQuery.ts';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import { CountBadge } from '@/shared/ui/CountBadge.tsx';
import '../i18n/texts.ts';

export type DocumentCommentsProps = {
  view: DocumentKindView;
  documentId: number;
  /** Id of the block, for the page's anchors. */
  id: string;
};

/** The comments of a document: the list (oldest first) and a form to add one (product §B2). */
export function DocumentComments({ view, documentId, id }: DocumentCommentsProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const comments = useDocumentCommentsQuery(view, documentId);
  const count = comments.data?.total ?? 0;

  return (
    <Card
      id={id}
      size="small"
      data-testid="document-comments"
      title={
        <Flex align="center" gap="small">
          <Typography.Title level={2} style={{ margin: 0, fontSize: token.fontSizeHeading5 }}>
            {t('docs.comments.title')}
          </Typography.Title>
          <CountBadge
            count={count}
            showZero
            color={token.colorTextTertiary}
            data-testid="document-comments-count"
          />
        </Flex>
      }
    >
      <Flex vertical gap="middle">
        <div
          role="log"
          aria-live="polite"
          aria-label={t('docs.comments.title')}
          data-testid="document-comments-list"
        >
          {comments.isPending ? (
            <Skeleton active paragraph={{ rows: 3 }} />
          ) : comments.isError ? (
            <Result
              status="error"
              title={t('docs.comments.loadFailed')}
              extra={<Button onClick={() => void comments.refetch()}>{t('common.retry')}</Button>}
              data-testid="document-comments-error"
            />
          ) : comments.data.results.length === 0 ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                <Typography.Text type="secondary" data-testid="document-comments-empty">
                  {t('docs.comments.empty')}
                </Typography.Text>
              }
            />
          ) : (
            <Flex vertical gap="small">
              {comments.data.results.map((comment) => (
                <CommentEntry key={comment.id} comment={comment} />
              ))}
            </Flex>
          )}
        </div>
        <CommentForm view={view} documentId={documentId} />
      </Flex>
    </Card>
  );
}

function CommentEntry({ comment }: { comment: DocumentComment }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  return (
    <article
      data-testid="document-comment"
      data-id={comment.id}
      data-source={commentSourceKind(comment.source)}
      style={{
        padding: token.paddingSM,
        borderRadius: token.borderRadiusLG,
        background: comment.is_mine ? token.colorPrimaryBg : token.colorFillQuaternary,
        border: `${token.lineWidth}px ${token.lineType} ${comment.is_mine ? token.colorPrimaryBorder : token.colorBorderSecondary}`,
      }}
    >
      <Flex align="center" gap="small" style={{ marginBottom: token.marginXXS }}>
        <CommentSourceIcon source={comment.source} />
        <Typography.Text strong data-testid="document-comment-author">
          {comment.author}
        </Typography.Text>
        {comment.from_soc && (
          <Tag color="blue" style={{ marginInlineEnd: 0 }} data-testid="document-comment-soc">
            {t('docs.comments.fromSoc')}
          </Tag>
        )}
        <Typography.Text type="secondary" style={{ marginInlineStart: 'auto', fontSize: token.fontSizeSM }}>
          <time dateTime={comment.created}>
            {formatDateTimeWithZone(Date.parse(comment.created), i18n.language)}
          </time>
        </Typography.Text>
      </Flex>
      <div
        data-testid="document-comment-body"
        style={{ overflowWrap: 'anywhere' }}
        // Sanitised on the server as incident comments are (no scripts, handlers or javascript: links;
        // HTML typed into the composer arrives as text).
        dangerouslySetInnerHTML={{ __html: comment.body }}
      />
    </article>
  );
}

type CommentFormValues = { text: string };

function CommentForm({ view, documentId }: { view: DocumentKindView; documentId: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [form] = Form.useForm<CommentFormValues>();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const mutation = useAddDocumentCommentMutation(view, documentId);

  const submit = ({ text }: CommentFormValues) => {
    setFormErrors([]);
    mutation.mutate(text.trim(), {
      onSuccess: () => {
        form.resetFields();
        notifySuccess({ title: t('docs.comments.added') });
      },
      onError: (error) => {
        const fieldErrors = error instanceof ApiError ? error.fieldErrors : null;
        if (fieldErrors) {
          const mapped = mapFieldErrors(fieldErrors, { text: 'text' as const });
          form.setFields(mapped.fields);
          setFormErrors(mapped.formErrors);
          return;
        }
        notifyError({
          title: t('docs.comments.failed'),
          description: error instanceof ApiError ? errorDescription(error) : undefined,
        });
      },
    });
  };

  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={submit}
      data-testid="document-comment-form"
      requiredMark={false}
    >
      <FormErrorAlert messages={formErrors} testId="document-comment-form-error" />
      <Form.Item
        name="text"
        label={t('docs.comments.label')}
        rules={[{ required: true, whitespace: true, message: t('docs.comments.required') }]}
        style={{ marginBottom: token.marginXS }}
      >
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 8 }}
          maxLength={DOCUMENT_COMMENT_MAX}
          placeholder={t('docs.comments.placeholder')}
          data-testid="document-comment-input"
        />
      </Form.Item>
      <Flex justify="flex-end">
        <Button
          type="primary"
          htmlType="submit"
          icon={<SendOutlined aria-hidden />}
          loading={mutation.isPending}
          data-testid="document-comment-submit"
        >
          {t('docs.comments.send')}
        </Button>
      </Flex>
    </Form>
  );
}
