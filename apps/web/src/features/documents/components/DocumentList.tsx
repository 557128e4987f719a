import type { DocumentListItem } from '@soc/contracts';
import { useTranslation } from 'react-i18next';
import { InfiniteFeed } from '@/shared/ui/InfiniteFeed.tsx';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import { DocumentCard } from './DocumentCard.tsx';
import '../i18n/texts.ts';

/** Rows start at this estimate and are then measured. */
const ESTIMATED_CARD_HEIGHT = 120;

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

/** The document cards as a feed; scrolling near the end loads the next page. */
export function DocumentList({ view, documents, total, selectedId, onSelect, ...feed }: DocumentListProps) {
  const { t } = useTranslation();
  return (
    <InfiniteFeed
      {...feed}
      items={documents}
      getKey={(document) => document.id}
      renderItem={(document, position) => (
        <DocumentCard
          view={view}
          document={document}
          selected={document.id === selectedId}
          position={position}
          setSize={total}
          onSelect={onSelect}
        />
      )}
      label={t('docs.list.label')}
      testId="documents-list"
      estimateSize={ESTIMATED_CARD_HEIGHT}
      loadingMoreText={t('docs.list.loadingMore')}
      loadMoreFailedText={t('docs.list.loadMoreFailed')}
    />
  );
}
