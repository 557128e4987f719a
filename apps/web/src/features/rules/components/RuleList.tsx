import type { Rule } from '@soc/contracts';
import { RULE_CARD_BREAKPOINTS } from '@soc/contracts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Button, Flex, Spin, theme, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RuleCardSize } from './RuleCard.tsx';
import { RuleCard } from './RuleCard.tsx';

const ESTIMATED_CARD_HEIGHT = 96;
const OVERSCAN = 6;
/** The next page is requested once the last rendered card is this close to the end. */
const PREFETCH_DISTANCE = 5;

const sizeFor = (width: number): RuleCardSize =>
  width < RULE_CARD_BREAKPOINTS[0] ? 'narrow' : width < RULE_CARD_BREAKPOINTS[1] ? 'medium' : 'wide';

export type RuleListProps = {
  rules: readonly Rule[];
  total: number;
  selectedId: number | null;
  onSelect: (id: number) => void;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  nextPageFailed: boolean;
  fetchNextPage: () => void;
  height: string;
};

/** The rule cards as a virtualised feed; scrolling near the end loads the next page. */
export function RuleList({
  rules,
  total,
  selectedId,
  onSelect,
  hasNextPage,
  isFetchingNextPage,
  nextPageFailed,
  fetchNextPage,
  height,
}: RuleListProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<RuleCardSize>('narrow');
  const showFooter = hasNextPage || nextPageFailed;

  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setSize(sizeFor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useVirtualizer({
    count: rules.length + (showFooter ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_CARD_HEIGHT,
    overscan: OVERSCAN,
    gap: token.marginSM,
    getItemKey: (index) => rules[index]?.id ?? 'footer',
  });
  const items = virtualizer.getVirtualItems();
  const lastRendered = items.at(-1)?.index ?? -1;

  useEffect(() => {
    if (!hasNextPage || isFetchingNextPage || nextPageFailed) return;
    if (lastRendered >= rules.length - PREFETCH_DISTANCE) fetchNextPage();
  }, [lastRendered, rules.length, hasNextPage, isFetchingNextPage, nextPageFailed, fetchNextPage]);

  return (
    <div
      ref={scrollRef}
      role="feed"
      aria-label={t('rules.list.label')}
      aria-busy={isFetchingNextPage}
      data-testid="rules-list"
      data-size={size}
      style={{ height, overflowY: 'auto', overflowAnchor: 'none', paddingInlineEnd: token.paddingXS }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {items.map((row) => {
          const rule = rules[row.index];
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
              {rule ? (
                <RuleCard
                  rule={rule}
                  selected={rule.id === selectedId}
                  size={size}
                  position={row.index + 1}
                  setSize={total}
                  onSelect={onSelect}
                />
              ) : (
                <Flex justify="center" align="center" gap="small" style={{ padding: token.paddingSM }}>
                  {nextPageFailed ? (
                    <>
                      <Typography.Text type="danger">{t('rules.list.loadMoreFailed')}</Typography.Text>
                      <Button size="small" onClick={fetchNextPage} data-testid="rules-load-more-retry">
                        {t('common.retry')}
                      </Button>
                    </>
                  ) : (
                    <>
                      <Spin size="small" />
                      <Typography.Text type="secondary">{t('rules.list.loadingMore')}</Typography.Text>
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
