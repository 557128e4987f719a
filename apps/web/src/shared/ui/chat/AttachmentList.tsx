import { PaperClipOutlined } from '@ant-design/icons';
import type { Attachment } from '@soc/contracts';
import { Button, Flex, Image, Skeleton, theme, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiDownload } from '../../api/index.ts';
import { startDownload } from '../../downloads/downloads.ts';
import { formatFileSize } from '../../lib/formatFileSize.ts';
import { apiPathOfLink, hasThumbnail } from '../../lib/attachmentLinks.ts';
import { wrapText } from '../../lib/wrapText.ts';

/** Edge of a thumbnail, in multiples of the theme's control height. */
const THUMBNAIL_CONTROLS = 2.5;

type ThumbnailState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; url: string };

/**
 * An object URL of an image attachment (downloads need the Authorization header, so a plain
 * `src` cannot load them); null while loading or when it failed. Revoked on unmount.
 */
function useAttachmentObjectUrl(link: string): ThumbnailState {
  const [state, setState] = useState<ThumbnailState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    apiDownload(apiPathOfLink(link), { signal: controller.signal, notify: false }).then(
      (file) => {
        objectUrl = URL.createObjectURL(file.blob);
        setState({ status: 'ready', url: objectUrl });
      },
      () => {
        if (!controller.signal.aborted) setState({ status: 'failed' });
      },
    );
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [link]);
  return state;
}

type ThumbnailProps = { attachment: Attachment };

/** A small preview of an image attachment that opens a full-size preview. */
function Thumbnail({ attachment }: ThumbnailProps) {
  const { token } = theme.useToken();
  const thumbnail = useAttachmentObjectUrl(attachment.link);
  const size = token.controlHeight * THUMBNAIL_CONTROLS;
  if (thumbnail.status === 'loading') return <Skeleton.Image active style={{ width: size, height: size }} />;
  if (thumbnail.status === 'failed') return null;
  return (
    <Image
      src={thumbnail.url}
      alt={attachment.filename}
      width={size}
      height={size}
      style={{ objectFit: 'cover', borderRadius: token.borderRadiusSM }}
      data-testid="attachment-thumbnail"
    />
  );
}

export type AttachmentListProps = {
  attachments: readonly Attachment[];
  /** Test id prefix. */
  testId: string;
  /** Previews of images (default); off where the same files are previewed elsewhere on the page. */
  thumbnails?: boolean;
};

/**
 * Attachments with their sizes; each downloads through the download popup. Images of the types
 * of product §A3 also show a thumbnail.
 */
export function AttachmentList({ attachments, testId, thumbnails = true }: AttachmentListProps) {
  const { i18n } = useTranslation();
  if (attachments.length === 0) return null;
  return (
    <Flex vertical gap="small" data-testid={testId}>
      {thumbnails && attachments.some((attachment) => hasThumbnail(attachment.content_type)) && (
        <Image.PreviewGroup>
          <Flex wrap gap="small">
            {attachments
              .filter((attachment) => hasThumbnail(attachment.content_type))
              .map((attachment) => (
                <Thumbnail key={attachment.id} attachment={attachment} />
              ))}
          </Flex>
        </Image.PreviewGroup>
      )}
      <Flex vertical gap={2} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {attachments.map((attachment) => (
          <li key={attachment.id}>
            <Button
              type="link"
              size="small"
              icon={<PaperClipOutlined aria-hidden />}
              style={{ ...wrapText, paddingInline: 0, height: 'auto', maxWidth: '100%', textAlign: 'start' }}
              onClick={() =>
                startDownload({ path: apiPathOfLink(attachment.link), filename: attachment.filename })
              }
              data-testid={`${testId}-link`}
            >
              {attachment.filename}
            </Button>{' '}
            <Typography.Text type="secondary">
              {formatFileSize(attachment.size, i18n.language)}
            </Typography.Text>
          </li>
        ))}
      </Flex>
    </Flex>
  );
}
