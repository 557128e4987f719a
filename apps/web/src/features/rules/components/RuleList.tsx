import type { Rule } from '@soc/contracts';
import { RULE_CARD_BREAKPOINTS } from '@soc/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { InfiniteFeed } from '@/shared/ui/InfiniteFeed.tsx';
import type { RuleCardSize } from './RuleCard.tsx';
import { RuleCard } from './RuleCard.tsx';
import '../i18n/texts.ts';

const ESTIMATED_CARD_HEIGHT = 96;

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

/** The rule cards as a feed, laid out by the feed's width; scrolling near the end loads the next page. */
export function RuleList({ rules, total, selectedId, onSelect, ...feed }: RuleListProps) {
  const { t } = useTranslation();
  const [size, setSize] = useState<RuleCardSize>('narrow');
  const onWidthChange = useCallback((width: number) => setSize(sizeFor(width)), []);

  return (
    <InfiniteFeed
      {...feed}
      items={rules}
      getKey={(rule) => rule.id}
      renderItem={(rule, position) => (
        <RuleCard
          rule={rule}
          selected={rule.id === selectedId}
          size={size}
          position={position}
          setSize={total}
          onSelect={onSelect}
        />
      )}
      label={t('rules.list.label')}
      testId="rules-list"
      estimateSize={ESTIMATED_CARD_HEIGHT}
      loadingMoreText={t('rules.list.loadingMore')}
      loadMoreFailedText={t('rules.list.loadMoreFailed')}
      onWidthChange={onWidthChange}
    />
  );
}
