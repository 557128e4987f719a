import { EyeOutlined, PaperClipOutlined } from '@ant-design/icons';
import type { DocumentAttachment } from '@soc/contracts';
import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { startDownload } from '@/shared/downloads/downloads.ts';
import { formatFileSize } from '@/shared/lib/formatFileSize.ts';
import { viewerRouteOfLink } from '../../files/index.ts';
import { apiPathOfLink } from '@/shared/lib/attachmentLinks.ts';
import '../i18n/texts.ts';

export type DocumentAttachmentsProps = {
  attachments: readonly DocumentAttachment[];
  testId: string;
};

/** A document's attachments; each downloads (with authorisation) through the download popup. */
export function DocumentAttachments({ attachments, testId }: DocumentAttachmentsProps) {
  const { t, i18n } = useTranslation();
  if (attachments.length === 0) {
    return (
      <Typography.Text type="secondary" data-testid={`${testId}-empty`}>
        {t('docs.panel.noAttachments')}
      </Typography.Text>
    );
  }
  return (
    <Flex
      vertical
      gap={2}
      component="ul"
      style={{ listStyle: 'none', margin: 0, padding: 0 }}
      data-testid={testId}
    >
      {attachments.map((attachment) => (
        <li key={attachment.id}>
          <Button
            type="link"
            size="small"
            icon={<PaperClipOutlined aria-hidden />}
            style={{ paddingInline: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'start' }}
            onClick={() =>
              startDownload({ path: apiPathOfLink(attachment.link), filename: attachment.filename })
            }
            data-testid={`${testId}-link`}
          >
            {attachment.filename}
          </Button>{' '}
          <Typography.Text type="secondary">{formatFileSize(attachment.size, i18n.language)}</Typography.Text>
          {viewerRouteOfLink(attachment.link) && (
            <>
              {' '}
              <Link
                to={viewerRouteOfLink(attachment.link)!}
                aria-label={t('files.preview', { name: attachment.filename })}
                title={t('files.preview', { name: attachment.filename })}
                data-testid={`${testId}-preview`}
              >
                <EyeOutlined aria-hidden />
              </Link>
            </>
          )}
        </li>
      ))}
    </Flex>
  );
}
