import { useVirtualizer } from '@tanstack/react-virtual';
import { Button, Flex, Spin, theme, Typography } from 'antd';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const OVERSCAN = 6;
/** The next page is requested once the last rendered item is this close to the end. */
const PREFETCH_DISTANCE = 5;

export type InfiniteFeedProps<T> = {
  items: readonly T[];
  getKey: (item: T) => string | number;
  renderItem: (item: T, position: number) => ReactNode;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  nextPageFailed: boolean;
  fetchNextPage: () => void;
  /** CSS height of the scrolling area. */
  height: string;
  /** Accessible name of the feed. */
  label: string;
  testId: string;
  /** Estimated item height in pixels (items are measured once rendered). */
  estimateSize: number;
};

/**
 * A virtualised list that loads the next page as its end scrolls into view (DESIGN §7: lists
 * fetch page by page on scroll), with a loading row and a retry when a page fails.
 */
export function InfiniteFeed<T>({
  items,
  getKey,
  renderItem,
  hasNextPage,
  isFetchingNextPage,
  nextPageFailed,
  fetchNextPage,
  height,
  label,
  testId,
  estimateSize,
}: InfiniteFeedProps<T>) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const scrollRef = useRef<HTMLDivElement>(null);
  const showFooter = hasNextPage || nextPageFailed;
  const virtualizer = useVirtualizer({
    count: items.length + (showFooter ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateSize,
    overscan: OVERSCAN,
    gap: token.marginSM,
    getItemKey: (index) => {
      const item = items[index];
      return item === undefined ? 'footer' : getKey(item);
    },
  });
  const rows = virtualizer.getVirtualItems();
  const lastRendered = rows.at(-1)?.index ?? -1;

  useEffect(() => {
    if (!hasNextPage || isFetchingNextPage || nextPageFailed) return;
    if (lastRendered >= items.length - PREFETCH_DISTANCE) fetchNextPage();
  }, [lastRendered, items.length, hasNextPage, isFetchingNextPage, nextPageFailed, fetchNextPage]);

  return (
    <div
      ref={scrollRef}
      role="feed"
      aria-label={label}
      aria-busy={isFetchingNextPage}
      data-testid={testId}
      tabIndex={0}
      style={{ height, overflowY: 'auto', overflowAnchor: 'none', paddingInlineEnd: token.paddingXS }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {rows.map((row) => {
          const item = items[row.index];
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
              {item !== undefined ? (
                renderItem(item, row.index + 1)
              ) : (
                <Flex justify="center" align="center" gap="small" style={{ padding: token.paddingSM }}>
                  {nextPageFailed ? (
                    <>
                      <Typography.Text type="danger">{t('common.loadMoreFailed')}</Typography.Text>
                      <Button size="small" onClick={fetchNextPage} data-testid={`${testId}-retry`}>
                        {t('common.retry')}
                      </Button>
                    </>
                  ) : (
                    <>
                      <Spin size="small" />
                      <Typography.Text type="secondary">{t('common.loadingMore')}</Typography.Text>
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
