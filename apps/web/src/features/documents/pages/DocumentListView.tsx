import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Flex } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { FilterToggle, ListPage, ResetFiltersButton } from '@/shared/ui/ListPage.tsx';
import { SearchBox } from '@/shared/ui/SearchBox.tsx';
import { useIsStaff } from '../../auth/index.ts';
import { documentKeys } from '../api/documentKeys.ts';
import { useDocumentLanguagesQuery } from '../api/useDocumentLanguagesQuery.ts';
import { useDocumentsInfiniteQuery } from '../api/useDocumentsInfiniteQuery.ts';
import { DocumentEditor, type DocumentEditorMode } from '../components/DocumentEditor.tsx';
import { DocumentFilterRow } from '../components/DocumentFilterRow.tsx';
import { DocumentLanguageControl } from '../components/DocumentLanguageControl.tsx';
import { DocumentList } from '../components/DocumentList.tsx';
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
import { shownSearch } from '@/shared/lib/filters.ts';
import { pageItems } from '@/shared/lib/pageItems.ts';
import '../i18n/texts.ts';

/** Height of the list's scroll area: the viewport below the page header and toolbar. */
const LIST_HEIGHT = 'max(24rem, calc(100vh - 16rem))';

export type DocumentListViewProps = {
  view: DocumentKindView;
};

/**
 * The list of one tab of the hub (product §B2 "Instruction list", "Response instructions",
 * "Articles"): search, filters, language, sort and an infinite list of cards with a side
 * panel. Filters, sort and search live in the URL and in storage (design §7).
 */
export function DocumentListView({ view }: DocumentListViewProps) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const interfaceLanguage = useLanguage();
  useDocumentTitle(t(`docs.tabs.${view.tab}`));

  const persisted = usePersistedFilters(view.filterEntity);
  const params = useMemo(() => sanitizeDocumentParams(persisted.params, view), [persisted.params, view]);
  const setParams = persisted.setParams;
  const language = readLanguage(params, interfaceLanguage);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [resets, setResets] = useState(0);
  const isStaff = useIsStaff();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<DocumentEditorMode | null>(null);

  const queryClient = useQueryClient();
  const languages = useDocumentLanguagesQuery(view);
  const query = useDocumentsInfiniteQuery(view, params, language);
  const documents = useMemo(() => pageItems(query.data?.pages, (item) => item.id), [query.data]);
  const total = query.data?.pages.at(-1)?.total ?? 0;
  const selected = documents.find((document) => document.id === selectedId) ?? null;
  const activeFilters = countActiveFilters(params);
  // The notice of product §B2: no document of this kind exists in the selected language at all.
  const noDataForLanguage = languages.data !== undefined && !languages.data.includes(language);

  return (
    <ListPage
      testId="documents"
      rootData={{ 'data-kind': view.kind }}
      title={t(`docs.tabs.${view.tab}`)}
      total={
        query.data
          ? t('docs.list.total', { low: documents.length > 0 ? 1 : 0, high: documents.length, total })
          : null
      }
      header={
        <>
          <Flex wrap gap="small" align="center">
            <SearchBox
              key={resets}
              placeholder={t('docs.search.placeholder')}
              label={t('docs.search.label')}
              buttonText={t('docs.search.button')}
              testId="documents-search"
              width="26rem"
              clearsWhenEmptied
              value={shownSearch(persisted.params, params)}
              onSearch={(text) => {
                // A search always runs again, also for a text (or a cleared box) whose list is cached.
                const next = withParams(params, { search: text });
                void queryClient.invalidateQueries({
                  queryKey: documentKeys.list(view.kind, next.toString(), language),
                });
                setParams(next);
              }}
            />
            <FilterToggle
              active={activeFilters}
              open={filtersOpen}
              onToggle={() => setFiltersOpen((open) => !open)}
              text={t('docs.toolbar.filters')}
              countLabel={t('docs.toolbar.filtersCount', { count: activeFilters })}
              controls="documents-filter-row"
              testId="documents-filter-toggle"
            />
            <ResetFiltersButton
              text={t('docs.toolbar.reset')}
              label={t('docs.toolbar.resetLabel')}
              onReset={() => {
                persisted.reset();
                setResets((count) => count + 1);
              }}
              testId="documents-filter-reset"
            />
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
            {isStaff && (
              <Button
                type="primary"
                icon={<PlusOutlined aria-hidden />}
                onClick={() => setEditing({ mode: 'create' })}
                data-testid="documents-create"
              >
                {t(`docs.editor.create.${view.tab}`)}
              </Button>
            )}
          </Flex>
          <DocumentEditor
            view={view}
            editing={editing}
            onClose={() => setEditing(null)}
            interfaceLanguage={interfaceLanguage}
            onSaved={(card) => void navigate(`${view.cardPath}/${card.id}`)}
          />

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
        </>
      }
      query={query}
      isEmpty={documents.length === 0}
      loadFailedText={t('docs.list.loadFailed')}
      emptyText={t('docs.list.empty')}
      emptyFiltered={{
        search: params.get('search'),
        filters: activeFilters,
        onClear: () => {
          // the search and every filter go; the sort and the language stay
          setResets((count) => count + 1);
          setParams(
            withParams(new URLSearchParams(), {
              ordering: params.get('ordering'),
              language: params.get('language'),
            }),
          );
        },
      }}
      panel={
        selected && (
          <DocumentSidePanel
            view={view}
            document={selected}
            // on a phone the panel is a drawer, closed by the drawer's own button
            onClose={isPhone ? undefined : () => setSelectedId(null)}
          />
        )
      }
      onPanelClose={() => setSelectedId(null)}
      panelHint={t('docs.panel.hint')}
      panelWidth="34%"
      height={LIST_HEIGHT}
    >
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
    </ListPage>
  );
}
