import { CloseOutlined, DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Progress, theme, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clipText } from '../ui/clipText.ts';
import { removeDownload, retryDownload, useDownloads, type DownloadItem } from './downloads.ts';

/** The popup fades in and out over this time (product §A9). */
export const DOWNLOAD_POPUP_FADE_MS = 500;

/**
 * The download-notification popup (product §A2): every file being fetched, with its progress;
 * a failed one with retry and remove. It sits in the bottom-left corner, away from the toasts,
 * and fades out once the list is empty.
 */
export function DownloadPopup() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const items = useDownloads();
  const [lastItems, setLastItems] = useState(items);
  const [visible, setVisible] = useState(items.length > 0);

  // Keeps the last list on screen while the popup fades out, then unmounts it.
  useEffect(() => {
    if (items.length > 0) {
      setLastItems(items);
      setVisible(true);
      return undefined;
    }
    const timer = setTimeout(() => setVisible(false), DOWNLOAD_POPUP_FADE_MS);
    return () => clearTimeout(timer);
  }, [items]);

  if (!visible && items.length === 0) return null;
  const shown = items.length > 0 ? items : lastItems;

  return (
    <Card
      size="small"
      role="region"
      aria-label={t('downloads.title')}
      data-testid="download-popup"
      title={
        <Flex align="center" gap="small">
          <DownloadOutlined aria-hidden />
          {t('downloads.title')}
        </Flex>
      }
      style={{
        position: 'fixed',
        insetInlineStart: token.marginLG,
        insetBlockEnd: token.marginLG,
        zIndex: token.zIndexPopupBase,
        width: `min(24rem, calc(100vw - ${token.marginLG * 2}px))`,
        boxShadow: token.boxShadowSecondary,
        opacity: items.length > 0 ? 1 : 0,
        transition: `opacity ${DOWNLOAD_POPUP_FADE_MS}ms ease`,
      }}
    >
      <Flex vertical gap="small" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {shown.map((item) => (
          <DownloadRow key={item.id} item={item} />
        ))}
      </Flex>
    </Card>
  );
}

type DownloadRowProps = { item: DownloadItem };

function DownloadRow({ item }: DownloadRowProps) {
  const { t } = useTranslation();
  const failed = item.status === 'exception';
  return (
    <li data-testid="download-item" data-status={item.status} data-filename={item.filename}>
      <Flex align="center" gap="small">
        <Typography.Text title={item.filename} style={{ ...clipText, flex: 1 }}>
          {item.filename}
        </Typography.Text>
        {failed && (
          <>
            <Button
              type="text"
              size="small"
              icon={<ReloadOutlined aria-hidden />}
              aria-label={t('downloads.retry', { name: item.filename })}
              title={t('downloads.retry', { name: item.filename })}
              onClick={() => retryDownload(item.id)}
              data-testid="download-retry"
            />
            <Button
              type="text"
              size="small"
              icon={<CloseOutlined aria-hidden />}
              aria-label={t('downloads.remove', { name: item.filename })}
              title={t('downloads.remove', { name: item.filename })}
              onClick={() => removeDownload(item.id)}
              data-testid="download-remove"
            />
          </>
        )}
      </Flex>
      <Progress
        size="small"
        percent={item.percent}
        status={item.status === 'success' ? 'success' : failed ? 'exception' : 'active'}
        showInfo={!item.indeterminate || item.status !== 'active'}
        aria-label={t('downloads.progress', { name: item.filename })}
      />
      {failed && (
        // Plain text beside the red bar: antd's error text colour falls short of WCAG AA.
        <Typography.Text data-testid="download-error">
          {t('downloads.failed')}
          {item.error ? `: ${item.error}` : ''}
        </Typography.Text>
      )}
    </li>
  );
}
