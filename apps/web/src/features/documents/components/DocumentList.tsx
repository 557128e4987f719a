import type { DocumentListItem } from '@soc/contracts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Button, Flex, Spin, theme, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import { DocumentCard } from './DocumentCard.tsx';

/** Rows start at this estimate and are then measured. */
const ESTIMATED_CARD_HEIGHT = 120;
const OVERSCAN = 6;
/** The next page is requested once the last rendered card is this close to the end. */
const PREFETCH_DISTANCE = 5;

export type DocumentListProps = {
  view: DocumentKindView;
  documents: readonly DocumentListItem[];
  total: number;
  selectedId: number | null;
  onSelect: (id: number) => void;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  /** Loading the next page failed: the list offers a retry instead of retrying by itself. */
  nextPageFailed: boolean;
  fetchNextPage: () => void;
  /** Height of the scroll container (CSS length). */
  height: string;
};

/** The document cards as a virtualised feed; scrolling near the end loads the next page. */
export function DocumentList({
  view,
  documents,
  total,
  selectedId,
  onSelect,
  hasNextPage,
  isFetchingNextPage,
  nextPageFailed,
  fetchNextPage,
  height,
}: DocumentListProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const scrollRef = useRef<HTMLDivElement>(null);
  const showFooter = hasNextPage || nextPageFailed;
  const count = documents.length + (showFooter ? 1 : 0);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_CARD_HEIGHT,
    overscan: OVERSCAN,
    gap: token.marginSM,
    getItemKey: (index) => documents[index]?.id ?? 'footer',
  });
  const virtualItems = virtualizer.getVirtualItems();
  const lastRendered = virtualItems.at(-1)?.index ?? -1;

  useEffect(() => {
    if (!hasNextPage || isFetchingNextPage || nextPageFailed) return;
    if (lastRendered >= documents.length - PREFETCH_DISTANCE) fetchNextPage();
  }, [lastRendered, documents.length, hasNextPage, isFetchingNextPage, nextPageFailed, fetchNextPage]);

  return (
    <div
      ref={scrollRef}
      role="feed"
      aria-label={t('docs.list.label')}
      aria-busy={isFetchingNextPage}
      data-testid="documents-list"
      style={{ height, overflowY: 'auto', overflowAnchor: 'none', paddingInlineEnd: token.paddingXS }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualItems.map((row) => {
          const document = documents[row.index];
          return (
            <div
              key={row.key}
              data-index={row.index}
              ref={virtualizer.measureElement}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                width: '100%',
                transform: `translateY(${row.start}px)`,
              }}
            >
              {document ? (
                <DocumentCard
                  view={view}
                  document={document}
                  selected={document.id === selectedId}
                  position={row.index + 1}
                  setSize={total}
                  onSelect={onSelect}
                />
              ) : (
                <Flex
                  justify="center"
                  align="center"
                  gap="small"
                  style={{ padding: token.paddingSM }}
                  data-testid="documents-list-footer"
                >
                  {nextPageFailed ? (
                    <>
                      <Typography.Text type="danger">{t('docs.list.loadMoreFailed')}</Typography.Text>
                      <Button size="small" onClick={fetchNextPage} data-testid="documents-load-more-retry">
                        {t('common.retry')}
                      </Button>
                    </>
                  ) : (
                    <>
                      <Spin size="small" />
                      <Typography.Text type="secondary">{t('docs.list.loadingMore')}</Typography.Text>
                    </>
                  )}
                </Flex>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
