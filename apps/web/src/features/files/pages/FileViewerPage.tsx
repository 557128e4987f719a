import { DownloadOutlined } from '@ant-design/icons';
import { TEXT_PREVIEW_LIMIT } from '@soc/contracts';
import { Alert, Button, Flex, Progress, Skeleton, Typography, theme } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError, type DownloadedFile } from '@/shared/api/index.ts';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { saveFile } from '@/shared/lib/saveFile.ts';
import { useFileDownload } from '../api/useFileDownload.ts';
import { useFileInfoQuery } from '../api/useFileInfoQuery.ts';
import { FileErrorScreen } from '../components/FileErrorScreen.tsx';
import { ImagePreview } from '../components/ImagePreview.tsx';
import { fileResourcePath, prettyJson, previewKind } from '../lib/filePath.ts';

const errorKind = (error: unknown): 'notFound' | 'error' =>
  error instanceof ApiError && error.status !== null && error.status < 500 ? 'notFound' : 'error';

/**
 * The file viewer for routes beginning with files/download (product §B2, §B4, §B8): title,
 * Download button, progress bar, and a preview by content type, or a fallback that downloads.
 */
export function FileViewerPage() {
  const path = fileResourcePath(useParams()['*']);
  if (path === null) return <FileErrorScreen kind="notFound" />;
  return <FileViewer key={path} path={path} />;
}

function FileViewer({ path }: { path: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const info = useFileInfoQuery(path);
  const download = useFileDownload(path, info.isSuccess);
  const filename = info.data?.filename ?? '';
  useDocumentTitle(filename || t('pages.files'));

  if (info.isError) return <FileErrorScreen kind={errorKind(info.error)} />;
  if (download.state === 'error') return <FileErrorScreen kind={errorKind(download.error)} />;

  const percent = download.state === 'loading' ? download.percent : download.state === 'done' ? 100 : 0;
  return (
    <Flex vertical gap="middle" data-testid="file-viewer">
      <Flex align="center" gap="middle">
        <Typography.Title
          level={1}
          style={{
            margin: 0,
            fontSize: token.fontSizeHeading3,
            flex: '1 1 auto',
            minWidth: 0,
            wordBreak: 'break-all',
          }}
          data-testid="file-title"
        >
          {filename || <Skeleton.Input active size="small" />}
        </Typography.Title>
        <Button
          type="primary"
          icon={<DownloadOutlined aria-hidden />}
          disabled={download.state !== 'done'}
          onClick={() => download.state === 'done' && saveFile(download.file.blob, filename)}
          data-testid="file-download"
        >
          {t('files.download')}
        </Button>
      </Flex>
      <Progress percent={percent} aria-label={t('files.progress')} data-testid="file-progress" />
      {download.state === 'done' && info.data ? (
        <Preview file={download.file} filename={filename} contentType={info.data.content_type} />
      ) : (
        <div role="status" aria-label={t('files.loading')}>
          <Skeleton active paragraph={{ rows: 8 }} />
        </div>
      )}
    </Flex>
  );
}

type PreviewProps = { file: DownloadedFile; filename: string; contentType: string };

function Preview({ file, filename, contentType }: PreviewProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const kind = previewKind(contentType || file.blob.type);
  // only images and media are shown from an object URL
  const needsUrl = kind === 'image' || kind.startsWith('media-');
  const url = useMemo(() => (needsUrl ? URL.createObjectURL(file.blob) : ''), [file.blob, needsUrl]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  const [text, setText] = useState<string | null>(null);
  const [tooLarge, setTooLarge] = useState(false);
  const saved = useRef(false);
  // other types (and texts over the limit) fall back and download by themselves
  const saveOnce = () => {
    if (saved.current) return;
    saved.current = true;
    saveFile(file.blob, filename);
  };

  useEffect(() => {
    if (kind === 'fallback') saveOnce();
    if (kind !== 'text' && kind !== 'json') return;
    // UTF-8 needs at least one byte per character and at most four
    if (file.blob.size / 4 >= TEXT_PREVIEW_LIMIT) {
      setTooLarge(true);
      saveOnce();
      return;
    }
    let cancelled = false;
    void file.blob.text().then((value) => {
      if (cancelled) return;
      if (value.length >= TEXT_PREVIEW_LIMIT) {
        setTooLarge(true);
        saveOnce();
      } else setText(kind === 'json' ? prettyJson(value) : value);
    });
    return () => {
      cancelled = true;
    };
    // saveOnce only reads refs and props of this file
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [file.blob, kind]);

  if (kind === 'fallback' || tooLarge) {
    return (
      <Alert
        type="info"
        showIcon
        message={t(tooLarge ? 'files.tooLarge' : 'files.fallback')}
        data-testid="file-fallback"
      />
    );
  }
  if (kind === 'image') return <ImagePreview src={url} alt={filename} />;
  if (kind === 'text' || kind === 'json') {
    if (text === null) return <Skeleton active paragraph={{ rows: 8 }} />;
    return (
      <pre
        style={{
          margin: 0,
          padding: token.padding,
          maxHeight: '70vh',
          overflow: 'auto',
          background: token.colorFillQuaternary,
          color: token.colorText,
          borderRadius: token.borderRadius,
          fontFamily: token.fontFamilyCode,
          fontSize: token.fontSizeSM,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
        }}
        data-testid={`file-preview-${kind}`}
      >
        {text}
      </pre>
    );
  }
  if (kind === 'media-audio')
    return <audio controls src={url} style={{ width: '100%' }} data-testid="file-preview-audio" />;
  if (kind === 'media-video')
    return (
      <video
        controls
        src={url}
        style={{ maxWidth: '100%', maxHeight: '75vh' }}
        data-testid="file-preview-video"
      />
    );
  return (
    <iframe
      src={url}
      title={filename}
      style={{
        width: '100%',
        height: '75vh',
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
      }}
      data-testid="file-preview-pdf"
    />
  );
}
