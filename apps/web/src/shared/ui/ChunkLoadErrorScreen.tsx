import { ReloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChunkFailure } from '../lib/chunkLoad.ts';
import { StatusScreen } from './StatusScreen.tsx';

export type ChunkLoadErrorScreenProps = {
  /** What went wrong: the chunk is missing, timed out or failed otherwise. */
  failure: ChunkFailure;
};

/** Shown when a lazily loaded page cannot be loaded; the only cure is a reload. */
export function ChunkLoadErrorScreen({ failure }: ChunkLoadErrorScreenProps) {
  const { t } = useTranslation();
  const texts = {
    missing: { title: t('errors.chunk.missingTitle'), text: t('errors.chunk.missingText') },
    timeout: { title: t('errors.chunk.timeoutTitle'), text: t('errors.chunk.timeoutText') },
    other: { title: t('errors.chunk.otherTitle'), text: t('errors.chunk.otherText') },
  }[failure];
  return (
    <StatusScreen
      status={failure === 'other' ? 'error' : 'warning'}
      title={texts.title}
      subTitle={texts.text}
      data-testid="chunk-error"
      data-failure={failure}
      extra={
        <Button type="primary" icon={<ReloadOutlined />} onClick={() => window.location.reload()}>
          {t('common.reload')}
        </Button>
      }
    />
  );
}
