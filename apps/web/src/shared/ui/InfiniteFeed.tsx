import { useVirtualizer } from '@tanstack/react-virtual';
import { Button, Flex, Spin, theme, Typography } from 'antd';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const OVERSCAN = 6;
/** The next page is requested once the last rendered item is this close to the end. */
const PREFETCH_DISTANCE = 5;

/** What a rendered item can ask of its feed. */
export type FeedItemControls = {
  /** Moves the keyboard focus to the item `offset` places away (scrolling it into view). */
  moveFocus: (offset: number) => void;
};

export type InfiniteFeedProps<T> = {
  items: readonly T[];
  getKey: (item: T) => string | number;
  /** Renders one item; its root element is what `moveFocus` focuses. */
  renderItem: (item: T, position: number, controls: FeedItemControls) => ReactNode;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  nextPageFailed: boolean;
  fetchNextPage: () => void;
  /** CSS height of the scrolling area. */
  height: string;
  /** Accessible name of the feed. */
  label: string;
  /** Test id of the feed; its last row is `${testId}-footer`, its retry `${testId}-retry`. */
  testId: string;
  /** Estimated item height in pixels (items are measured once rendered). */
  estimateSize: number;
  /** Index of an item kept in view, also when a refresh moves it; -1 for none. */
  activeIndex?: number;
  /** Text of the loading row, when a list names what it loads ("Loading more incidents…"). */
  loadingMoreText?: string;
  /** Text of the error row of a failed page. */
  loadMoreFailedText?: string;
  /** Called with the width of the feed's content box whenever it changes. */
  onWidthChange?: (width: number) => void;
};

/**
 * A virtualised list that loads the next page as its end scrolls into view (design §7: lists
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
  activeIndex = -1,
  loadingMoreText,
  loadMoreFailedText,
  onWidthChange,
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

  useEffect(() => {
    if (activeIndex >= 0) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, virtualizer]);

  useEffect(() => {
    const element = scrollRef.current;
    if (!element || !onWidthChange) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) onWidthChange(entry.contentRect.width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [onWidthChange]);

  const focusItem = useCallback(
    (fromIndex: number, offset: number) => {
      const target = Math.min(Math.max(fromIndex + offset, 0), items.length - 1);
      if (target === fromIndex) return;
      virtualizer.scrollToIndex(target, { align: 'auto' });
      // The target may only be rendered after the scroll: focus it on the next frame as well.
      const focus = () =>
        scrollRef.current?.querySelector<HTMLElement>(`[data-index="${target}"] > *`)?.focus();
      focus();
      requestAnimationFrame(focus);
    },
    [items.length, virtualizer],
  );

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
                renderItem(item, row.index + 1, { moveFocus: (offset) => focusItem(row.index, offset) })
              ) : (
                <Flex
                  justify="center"
                  align="center"
                  gap="small"
                  style={{ padding: token.paddingSM }}
                  data-testid={`${testId}-footer`}
                >
                  {nextPageFailed ? (
                    <>
                      <Typography.Text type="danger">
                        {loadMoreFailedText ?? t('common.loadMoreFailed')}
                      </Typography.Text>
                      <Button size="small" onClick={fetchNextPage} data-testid={`${testId}-retry`}>
                        {t('common.retry')}
                      </Button>
                    </>
                  ) : (
                    <>
                      <Spin size="small" />
                      <Typography.Text type="secondary">
                        {loadingMoreText ?? t('common.loadingMore')}
                      </Typography.Text>
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
