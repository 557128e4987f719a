import { FilterOutlined, UndoOutlined } from '@ant-design/icons';
import type { DocumentListItem, DocumentListResponse } from '@soc/contracts';
import { Alert, Badge, Button, Empty, Flex, Result, Skeleton, theme, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorDescription } from '../../../shared/api/index.ts';
import { useDocumentTitle } from '../../../shared/hooks/useDocumentTitle.ts';
import { useLanguage } from '../../../shared/hooks/useLanguage.ts';
import { usePersistedFilters } from '../../../shared/lib/usePersistedFilters.ts';
import { documentKeys } from '../api/documentKeys.ts';
import { useDocumentLanguagesQuery } from '../api/useDocumentLanguagesQuery.ts';
import { useDocumentsInfiniteQuery } from '../api/useDocumentsInfiniteQuery.ts';
import { DocumentFilterRow } from '../components/DocumentFilterRow.tsx';
import { DocumentLanguageControl } from '../components/DocumentLanguageControl.tsx';
import { DocumentList } from '../components/DocumentList.tsx';
import { SearchBox } from '../../../shared/ui/SearchBox.tsx';
import { DocumentSidePanel } from '../components/DocumentSidePanel.tsx';
import { DocumentSortControl } from '../components/DocumentSortControl.tsx';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import {
  countActiveFilters,
  readLanguage,
  readOrdering,
  sanitizeDocumentParams,
  withParams,
} from '../lib/documentQuery.ts';

/** Height of the list's scroll area: the viewport below the page header and toolbar. */
const LIST_HEIGHT = 'max(24rem, calc(100vh - 16rem))';

/** The documents loaded so far, in order, without the duplicates that shifting pages can bring. */
function flattenPages(pages: readonly DocumentListResponse[] | undefined): DocumentListItem[] {
  const seen = new Set<number>();
  const documents: DocumentListItem[] = [];
  for (const page of pages ?? []) {
    for (const document of page.results) {
      if (seen.has(document.id)) continue;
      seen.add(document.id);
      documents.push(document);
    }
  }
  return documents;
}

export type DocumentListViewProps = {
  view: DocumentKindView;
};

/**
 * The list of one tab of the hub (spec 001 §2 "Instruction list", "Response instructions",
 * "Articles"): search, filters, language, sort and an infinite list of cards with a side
 * panel. Filters, sort and search live in the URL and in storage (DESIGN §7).
 */
export function DocumentListView({ view }: DocumentListViewProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const interfaceLanguage = useLanguage();
  useDocumentTitle(t(`docs.tabs.${view.tab}`));

  const persisted = usePersistedFilters(view.filterEntity);
  const params = useMemo(() => sanitizeDocumentParams(persisted.params, view), [persisted.params, view]);
  const setParams = persisted.setParams;
  const language = readLanguage(params, interfaceLanguage);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [resets, setResets] = useState(0);

  const queryClient = useQueryClient();
  const languages = useDocumentLanguagesQuery(view);
  const query = useDocumentsInfiniteQuery(view, params, language);
  const documents = useMemo(() => flattenPages(query.data?.pages), [query.data]);
  const total = query.data?.pages.at(-1)?.total ?? 0;
  const selected = documents.find((document) => document.id === selectedId) ?? null;
  const activeFilters = countActiveFilters(params);
  // The notice of spec 001 §2: no document of this kind exists in the selected language at all.
  const noDataForLanguage = languages.data !== undefined && !languages.data.includes(language);

  return (
    <Flex vertical gap="middle" data-testid="documents-page" data-kind={view.kind}>
      <Flex align="baseline" gap="middle">
        <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading2 }}>
          {t(`docs.tabs.${view.tab}`)}
        </Typography.Title>
        {query.data && (
          <Typography.Text type="secondary" data-testid="documents-total" aria-live="polite">
            {t('docs.list.total', { low: documents.length > 0 ? 1 : 0, high: documents.length, total })}
          </Typography.Text>
        )}
      </Flex>

      <Flex wrap gap="small" align="center">
        <SearchBox
          key={resets}
          placeholder={t('docs.search.placeholder')}
          label={t('docs.search.label')}
          buttonText={t('docs.search.button')}
          testId="documents-search"
          width="26rem"
          clearsWhenEmptied
          value={params.get('search') ?? ''}
          onSearch={(text) => {
            // A search always runs again, also for a text (or a cleared box) whose list is cached.
            const next = withParams(params, { search: text });
            void queryClient.invalidateQueries({
              queryKey: documentKeys.list(view.kind, next.toString(), language),
            });
            setParams(next);
          }}
        />
        <Badge count={activeFilters} size="small">
          <Button
            icon={<FilterOutlined aria-hidden />}
            type={filtersOpen ? 'primary' : 'default'}
            aria-expanded={filtersOpen}
            aria-controls={filtersOpen ? 'documents-filter-row' : undefined}
            aria-label={
              activeFilters > 0 ? t('docs.toolbar.filtersCount', { count: activeFilters }) : undefined
            }
            onClick={() => setFiltersOpen((open) => !open)}
            data-testid="documents-filter-toggle"
          >
            {t('docs.toolbar.filters')}
          </Button>
        </Badge>
        <Button
          icon={<UndoOutlined aria-hidden />}
          onClick={() => {
            persisted.reset();
            setResets((count) => count + 1);
          }}
          title={t('docs.toolbar.resetLabel')}
          data-testid="documents-filter-reset"
        >
          {t('docs.toolbar.reset')}
        </Button>
        <DocumentSortControl
          value={readOrdering(params)}
          onChange={(ordering) => setParams(withParams(params, { ordering }))}
        />
        <DocumentLanguageControl
          value={language}
          onChange={(next) => setParams(withParams(params, { language: next }))}
          languagesFailed={languages.isError}
          onRetryLanguages={() => void languages.refetch()}
        />
      </Flex>

      {filtersOpen && (
        <div id="documents-filter-row">
          <DocumentFilterRow view={view} params={params} onChange={setParams} />
        </div>
      )}

      {noDataForLanguage && (
        <Alert
          type="info"
          showIcon
          data-testid="documents-no-language-data"
          title={t('docs.list.noDataForLanguage')}
          description={
            languages.data.length > 0
              ? t('docs.list.noDataForLanguageHint', {
                  languages: languages.data.map((entry) => t(`docs.languages.${entry}`)).join(', '),
                })
              : undefined
          }
        />
      )}

      <Flex gap="middle" align="stretch">
        <div style={{ flex: '1 1 0', minWidth: 0 }}>
          {query.isPending ? (
            <ListSkeleton />
          ) : query.isError && !query.data ? (
            <Result
              status="error"
              title={t('docs.list.loadFailed')}
              subTitle={query.error instanceof ApiError ? errorDescription(query.error).join(' ') : undefined}
              extra={
                <Button onClick={() => void query.refetch()} data-testid="documents-retry">
                  {t('common.retry')}
                </Button>
              }
              data-testid="documents-error"
            />
          ) : documents.length === 0 ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={<Typography.Text type="secondary">{t('docs.list.empty')}</Typography.Text>}
              data-testid="documents-empty"
            />
          ) : (
            <DocumentList
              view={view}
              documents={documents}
              total={total}
              selectedId={selectedId}
              onSelect={setSelectedId}
              hasNextPage={query.hasNextPage}
              isFetchingNextPage={query.isFetchingNextPage}
              nextPageFailed={query.isFetchNextPageError}
              fetchNextPage={() => void query.fetchNextPage()}
              height={LIST_HEIGHT}
            />
          )}
        </div>
        <div
          style={{
            flex: '0 0 34%',
            minWidth: 0,
            maxHeight: LIST_HEIGHT,
            display: 'flex',
            flexDirection: 'column',
          }}
        >
          {selected ? (
            <DocumentSidePanel view={view} document={selected} onClose={() => setSelectedId(null)} />
          ) : (
            <Flex
              align="center"
              justify="center"
              style={{
                flex: 1,
                minHeight: '12rem',
                borderRadius: token.borderRadiusLG,
                border: `${token.lineWidth}px dashed ${token.colorBorderSecondary}`,
              }}
            >
              <Typography.Text type="secondary">{t('docs.panel.hint')}</Typography.Text>
            </Flex>
          )}
        </div>
      </Flex>
    </Flex>
  );
}

/** The list's loading state: card-shaped placeholders. */
function ListSkeleton() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex vertical gap="small" role="status" aria-label={t('common.loading')} data-testid="documents-loading">
      {Array.from({ length: 4 }, (_, index) => (
        <div
          key={index}
          style={{
            padding: token.paddingSM,
            borderRadius: token.borderRadiusLG,
            border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
            background: token.colorBgContainer,
          }}
        >
          <Skeleton active title paragraph={{ rows: 2 }} />
        </div>
      ))}
    </Flex>
  );
}
