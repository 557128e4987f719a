import type { IncidentListItem } from '@soc/contracts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Button, Flex, Spin, theme, Typography } from 'antd';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { IncidentCard } from './IncidentCard.tsx';

/** Rows of the list start at this estimate and are then measured. */
const ESTIMATED_CARD_HEIGHT = 150;
/** Cards rendered beyond the visible ones on each side. */
const OVERSCAN = 6;
/** The next page is requested once the last rendered card is this close to the end. */
const PREFETCH_DISTANCE = 5;

export type IncidentListProps = {
  incidents: readonly IncidentListItem[];
  /** Number of incidents matching the filters (all pages); null when it is not known exactly. */
  total: number | null;
  selectedKey: number | null;
  onSelect: (key: number) => void;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  /** Loading the next page failed: the list offers a retry instead of retrying by itself. */
  nextPageFailed: boolean;
  fetchNextPage: () => void;
  /** Height of the scroll container (CSS length). */
  height: string;
};

/**
 * The incident cards as a virtualised feed: only the cards near the viewport are in the DOM,
 * and scrolling near the end loads the next page (DESIGN §7).
 */
export function IncidentList({
  incidents,
  total,
  selectedKey,
  onSelect,
  hasNextPage,
  isFetchingNextPage,
  nextPageFailed,
  fetchNextPage,
  height,
}: IncidentListProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const scrollRef = useRef<HTMLDivElement>(null);
  // One extra row at the end shows loading, or the retry after a failed page.
  const showFooter = hasNextPage || nextPageFailed;
  const count = incidents.length + (showFooter ? 1 : 0);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_CARD_HEIGHT,
    overscan: OVERSCAN,
    gap: token.marginSM,
    getItemKey: (index) => incidents[index]?.key ?? 'footer',
  });
  const virtualItems = virtualizer.getVirtualItems();
  const lastRendered = virtualItems.at(-1)?.index ?? -1;

  useEffect(() => {
    if (!hasNextPage || isFetchingNextPage || nextPageFailed) return;
    if (lastRendered >= incidents.length - PREFETCH_DISTANCE) fetchNextPage();
  }, [lastRendered, incidents.length, hasNextPage, isFetchingNextPage, nextPageFailed, fetchNextPage]);

  // Keeps the selected incident in view, also when a refresh moves it (a new incident is
  // selected right after its creation and arrives at the top).
  const selectedIndex =
    selectedKey === null ? -1 : incidents.findIndex((incident) => incident.key === selectedKey);
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  const moveFocus = useCallback(
    (fromIndex: number, offset: number) => {
      const target = Math.min(Math.max(fromIndex + offset, 0), incidents.length - 1);
      if (target === fromIndex) return;
      virtualizer.scrollToIndex(target, { align: 'auto' });
      // The target card may only be rendered after the scroll: focus it on the next frame.
      const focus = () =>
        scrollRef.current
          ?.querySelector<HTMLElement>(`[data-index="${target}"] [data-testid="incident-card"]`)
          ?.focus();
      focus();
      requestAnimationFrame(focus);
    },
    [incidents.length, virtualizer],
  );

  return (
    <div
      ref={scrollRef}
      role="feed"
      aria-label={t('incidents.list.label')}
      aria-busy={isFetchingNextPage}
      data-testid="incidents-list"
      style={{ height, overflowY: 'auto', overflowAnchor: 'none', paddingInlineEnd: token.paddingXS }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualItems.map((row) => {
          const incident = incidents[row.index];
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
              {incident ? (
                <IncidentCard
                  incident={incident}
                  selected={incident.key === selectedKey}
                  position={row.index + 1}
                  setSize={total ?? -1}
                  onSelect={onSelect}
                  onMove={moveFocus}
                />
              ) : (
                <ListFooter failed={nextPageFailed} onRetry={fetchNextPage} />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

type ListFooterProps = {
  failed: boolean;
  onRetry: () => void;
};

/** The last row while more pages exist: a spinner, or a retry after a failure. */
function ListFooter({ failed, onRetry }: ListFooterProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex
      justify="center"
      align="center"
      gap="small"
      style={{ padding: token.paddingSM }}
      data-testid="incidents-list-footer"
    >
      {failed ? (
        <>
          <Typography.Text type="danger">{t('incidents.list.loadMoreFailed')}</Typography.Text>
          <Button size="small" onClick={onRetry} data-testid="incidents-load-more-retry">
            {t('common.retry')}
          </Button>
        </>
      ) : (
        <>
          <Spin size="small" />
          <Typography.Text type="secondary">{t('incidents.list.loadingMore')}</Typography.Text>
        </>
      )}
    </Flex>
  );
}
