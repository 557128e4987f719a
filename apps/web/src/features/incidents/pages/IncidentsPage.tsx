import { PlusOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { FilterToggle, ListPage, ResetFiltersButton } from '@/shared/ui/ListPage.tsx';
import { FilterDrawer } from '@/shared/ui/PhoneLayout.tsx';
import { SearchBox } from '@/shared/ui/SearchBox.tsx';
import { incidentsListQuery, useIncidentsInfiniteQuery } from '../api/useIncidentsInfiniteQuery.ts';
import { CreateIncidentModal } from '../components/CreateIncidentModal.tsx';
import { CsvExportButton } from '../components/CsvExportButton.tsx';
import { IncidentFilterRow } from '../components/IncidentFilterRow.tsx';
import { IncidentList } from '../components/IncidentList.tsx';
import { IncidentSidePanel } from '../components/IncidentSidePanel.tsx';
import { IncidentSortControl } from '../components/IncidentSortControl.tsx';
import {
  countActiveFilters,
  INCIDENTS_FILTER_ENTITY,
  readOrdering,
  sanitizeIncidentParams,
  withParams,
} from '../lib/incidentQuery.ts';
import { initialFilterParams, shownSearch } from '@/shared/lib/filters.ts';
import type { PagePrefetch } from '@/shared/lib/chunkLoad.ts';
import { currentLanguage } from '@/shared/hooks/useLanguage.ts';
import { pageItems } from '@/shared/lib/pageItems.ts';

/** Height of the list's scroll area: the viewport below the page header and toolbar. */
const LIST_HEIGHT = 'max(24rem, calc(100vh - 16rem))';

/** The first page of the list the page opens with (see PagePrefetch). */
export const prefetchPage: PagePrefetch = (client, url) => {
  const filters = sanitizeIncidentParams(initialFilterParams(INCIDENTS_FILTER_ENTITY, url));
  void client.prefetchInfiniteQuery(incidentsListQuery(filters, currentLanguage()));
};

/**
 * /incidents (product §A2 "Incident list"): search, filters, sort, CSV export and incident
 * creation over an infinite, virtualised list of cards with a summary panel. Filters, sort
 * and search live in the URL and in storage (design §7). On a phone (below 1024 px) there is no
 * room for the panel: a tap on a card opens the incident, and the filters open in a drawer.
 */
export function IncidentsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('pages.incidents'));
  const isPhone = useIsPhone();
  const navigate = useNavigate();

  const persisted = usePersistedFilters(INCIDENTS_FILTER_ENTITY);
  const params = useMemo(() => sanitizeIncidentParams(persisted.params), [persisted.params]);
  const setParams = persisted.setParams;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [selectedKey, setSelectedKey] = useState<number | null>(null);
  const [createOpen, setCreateOpen] = useState(false);
  const [createMounted, setCreateMounted] = useState(false);
  // Remounts the search box on reset, dropping text typed but not yet searched.
  const [resets, setResets] = useState(0);

  const query = useIncidentsInfiniteQuery(params);
  const incidents = useMemo(() => pageItems(query.data?.pages, (item) => item.key), [query.data]);
  const lastPage = query.data?.pages.at(-1);
  const total = lastPage?.total ?? 0;
  // a text search over more than 10,000 incidents is not counted to the end (TOTAL_COUNT_CAP)
  const totalExact = lastPage?.total_exact ?? true;
  const selected = incidents.find((incident) => incident.key === selectedKey) ?? null;
  const activeFilters = countActiveFilters(params);

  const openCreate = () => {
    setCreateMounted(true);
    setCreateOpen(true);
  };

  return (
    <>
      <ListPage
        testId="incidents"
        title={t('pages.incidents')}
        total={
          !query.data
            ? null
            : incidents.length === 0 && totalExact
              ? t('incidents.none')
              : t(totalExact ? 'incidents.total' : 'incidents.totalMore', {
                  low: incidents.length > 0 ? 1 : 0,
                  high: incidents.length,
                  total,
                })
        }
        header={
          <>
            <Flex wrap gap="small" align="center">
              <SearchBox
                key={resets}
                placeholder={t('incidents.search.placeholder')}
                label={t('incidents.search.label')}
                buttonText={t('incidents.search.button')}
                testId="incidents-search"
                width="28rem"
                value={shownSearch(persisted.params, params)}
                onSearch={(text) => setParams(withParams(params, { search: text }))}
              />
              <FilterToggle
                active={activeFilters}
                open={filtersOpen}
                onToggle={() => setFiltersOpen((open) => !open)}
                text={t('incidents.toolbar.filters')}
                countLabel={t('incidents.toolbar.filtersCount', { count: activeFilters })}
                controls="incidents-filter-row"
                testId="incidents-filter-toggle"
              />
              <ResetFiltersButton
                text={t('incidents.toolbar.reset')}
                label={t('incidents.toolbar.resetLabel')}
                onReset={() => {
                  persisted.reset();
                  setResets((count) => count + 1);
                }}
                testId="incidents-filter-reset"
              />
              <IncidentSortControl
                value={readOrdering(params)}
                onChange={(ordering) => setParams(withParams(params, { ordering }))}
              />
              <Flex gap="small" style={{ marginInlineStart: 'auto' }}>
                <CsvExportButton params={params} />
                <Button
                  type="primary"
                  icon={<PlusOutlined aria-hidden />}
                  onClick={openCreate}
                  data-testid="incidents-create-button"
                >
                  {t('incidents.toolbar.create')}
                </Button>
              </Flex>
            </Flex>
            {isPhone ? (
              <FilterDrawer
                open={filtersOpen}
                onClose={() => setFiltersOpen(false)}
                title={t('incidents.toolbar.filters')}
                closeLabel={t('incidents.toolbar.closeFilters')}
                testId="incidents-filter-drawer"
              >
                <div id="incidents-filter-row">
                  <IncidentFilterRow params={params} onChange={setParams} />
                </div>
              </FilterDrawer>
            ) : (
              filtersOpen && (
                <div id="incidents-filter-row">
                  <IncidentFilterRow params={params} onChange={setParams} />
                </div>
              )
            )}
          </>
        }
        query={query}
        isEmpty={incidents.length === 0}
        loadFailedText={t('incidents.list.loadFailed')}
        emptyText={t('incidents.list.empty')}
        emptyFiltered={{
          search: params.get('search'),
          filters: activeFilters,
          onClear: () => {
            persisted.reset();
            setResets((count) => count + 1);
          },
        }}
        panel={
          isPhone
            ? undefined
            : selected && <IncidentSidePanel incident={selected} onClose={() => setSelectedKey(null)} />
        }
        panelHint={t('incidents.panel.hint')}
        panelWidth="38%"
        height={LIST_HEIGHT}
      >
        <IncidentList
          incidents={incidents}
          total={totalExact ? total : null}
          selectedKey={selectedKey}
          onSelect={isPhone ? (key) => void navigate(`/inc/${key}`) : setSelectedKey}
          hasNextPage={query.hasNextPage}
          isFetchingNextPage={query.isFetchingNextPage}
          nextPageFailed={query.isFetchNextPageError}
          fetchNextPage={() => void query.fetchNextPage()}
          height={LIST_HEIGHT}
        />
      </ListPage>
      {createMounted && (
        <CreateIncidentModal
          open={createOpen}
          onClose={() => setCreateOpen(false)}
          onCreated={(incident) => setSelectedKey(incident.key)}
        />
      )}
    </>
  );
}
