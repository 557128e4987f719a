import type { IncidentListItem } from '@soc/contracts';
import { useTranslation } from 'react-i18next';
import { InfiniteFeed } from '@/shared/ui/InfiniteFeed.tsx';
import { IncidentCard } from './IncidentCard.tsx';

/** Rows of the list start at this estimate and are then measured. */
const ESTIMATED_CARD_HEIGHT = 150;

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
 * The incident cards as a feed (design §7): only the cards near the viewport are in the DOM,
 * scrolling near the end loads the next page, and arrow keys move between cards.
 */
export function IncidentList({ incidents, total, selectedKey, onSelect, ...feed }: IncidentListProps) {
  const { t } = useTranslation();
  // Keeps the selected incident in view, also when a refresh moves it (a new incident is
  // selected right after its creation and arrives at the top).
  const selectedIndex =
    selectedKey === null ? -1 : incidents.findIndex((incident) => incident.key === selectedKey);

  return (
    <InfiniteFeed
      {...feed}
      items={incidents}
      getKey={(incident) => incident.key}
      renderItem={(incident, position, controls) => (
        <IncidentCard
          incident={incident}
          selected={incident.key === selectedKey}
          position={position}
          setSize={total ?? -1}
          onSelect={onSelect}
          onMove={(_from, offset) => controls.moveFocus(offset)}
        />
      )}
      activeIndex={selectedIndex}
      label={t('incidents.list.label')}
      testId="incidents-list"
      estimateSize={ESTIMATED_CARD_HEIGHT}
      loadingMoreText={t('incidents.list.loadingMore')}
      loadMoreFailedText={t('incidents.list.loadMoreFailed')}
    />
  );
}
