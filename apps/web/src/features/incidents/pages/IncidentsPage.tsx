import { FilterOutlined, PlusOutlined, UndoOutlined } from '@ant-design/icons';
import type { IncidentListItem, IncidentListResponse } from '@soc/contracts';
import { Badge, Button, Empty, Flex, Result, Skeleton, theme, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorDescription } from '../../../shared/api/index.ts';
import { useDocumentTitle } from '../../../shared/hooks/useDocumentTitle.ts';
import { usePersistedFilters } from '../../../shared/lib/usePersistedFilters.ts';
import { useIncidentsInfiniteQuery } from '../api/useIncidentsInfiniteQuery.ts';
import { CreateIncidentModal } from '../components/CreateIncidentModal.tsx';
import { CsvExportButton } from '../components/CsvExportButton.tsx';
import { IncidentFilterRow } from '../components/IncidentFilterRow.tsx';
import { IncidentList } from '../components/IncidentList.tsx';
import { IncidentSidePanel } from '../components/IncidentSidePanel.tsx';
import { SearchBox } from '../../../shared/ui/SearchBox.tsx';
import { IncidentSortControl } from '../components/IncidentSortControl.tsx';
import {
  countActiveFilters,
  INCIDENTS_FILTER_ENTITY,
  readOrdering,
  sanitizeIncidentParams,
  withParams,
} from '../lib/incidentQuery.ts';

/** Height of the list's scroll area: the viewport below the page header and toolbar. */
const LIST_HEIGHT = 'max(24rem, calc(100vh - 16rem))';

/** The incidents loaded so far, in order, without the duplicates that shifting pages can bring. */
function flattenPages(pages: readonly IncidentListResponse[] | undefined): IncidentListItem[] {
  const seen = new Set<number>();
  const incidents: IncidentListItem[] = [];
  for (const page of pages ?? []) {
    for (const incident of page.results) {
      if (seen.has(incident.key)) continue;
      seen.add(incident.key);
      incidents.push(incident);
    }
  }
  return incidents;
}

/**
 * /incidents (spec 000 §2 "Incident list"): search, filters, sort, CSV export and incident
 * creation over an infinite, virtualised list of cards with a summary panel. Filters, sort
 * and search live in the URL and in storage (DESIGN §7).
 */
export function IncidentsPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  useDocumentTitle(t('pages.incidents'));

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
  const incidents = useMemo(() => flattenPages(query.data?.pages), [query.data]);
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
    <Flex vertical gap="middle" data-testid="incidents-page">
      <Flex align="baseline" gap="middle">
        <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading2 }}>
          {t('pages.incidents')}
        </Typography.Title>
        {query.data && (
          <Typography.Text type="secondary" data-testid="incidents-total" aria-live="polite">
            {incidents.length === 0 && totalExact
              ? t('incidents.none')
              : t(totalExact ? 'incidents.total' : 'incidents.totalMore', {
                  low: incidents.length > 0 ? 1 : 0,
                  high: incidents.length,
                  total,
                })}
          </Typography.Text>
        )}
      </Flex>

      <Flex wrap gap="small" align="center">
        <SearchBox
          key={resets}
          placeholder={t('incidents.search.placeholder')}
          label={t('incidents.search.label')}
          buttonText={t('incidents.search.button')}
          testId="incidents-search"
          width="28rem"
          value={params.get('search') ?? ''}
          onSearch={(text) => setParams(withParams(params, { search: text }))}
        />
        <Badge count={activeFilters} size="small">
          <Button
            icon={<FilterOutlined aria-hidden />}
            type={filtersOpen ? 'primary' : 'default'}
            aria-expanded={filtersOpen}
            aria-controls={filtersOpen ? 'incidents-filter-row' : undefined}
            aria-label={
              activeFilters > 0 ? t('incidents.toolbar.filtersCount', { count: activeFilters }) : undefined
            }
            onClick={() => setFiltersOpen((open) => !open)}
            data-testid="incidents-filter-toggle"
          >
            {t('incidents.toolbar.filters')}
          </Button>
        </Badge>
        <Button
          icon={<UndoOutlined aria-hidden />}
          onClick={() => {
            persisted.reset();
            setResets((count) => count + 1);
          }}
          title={t('incidents.toolbar.resetLabel')}
          data-testid="incidents-filter-reset"
        >
          {t('incidents.toolbar.reset')}
        </Button>
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

      {filtersOpen && (
        <div id="incidents-filter-row">
          <IncidentFilterRow params={params} onChange={setParams} />
        </div>
      )}

      <Flex gap="middle" align="stretch">
        <div style={{ flex: '1 1 0', minWidth: 0 }}>
          {query.isPending ? (
            <ListSkeleton />
          ) : query.isError && !query.data ? (
            <Result
              status="error"
              title={t('incidents.list.loadFailed')}
              subTitle={query.error instanceof ApiError ? errorDescription(query.error).join(' ') : undefined}
              extra={
                <Button onClick={() => void query.refetch()} data-testid="incidents-retry">
                  {t('common.retry')}
                </Button>
              }
              data-testid="incidents-error"
            />
          ) : incidents.length === 0 ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={<Typography.Text type="secondary">{t('incidents.list.empty')}</Typography.Text>}
              data-testid="incidents-empty"
            />
          ) : (
            <IncidentList
              incidents={incidents}
              total={totalExact ? total : null}
              selectedKey={selectedKey}
              onSelect={setSelectedKey}
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
            flex: '0 0 38%',
            minWidth: 0,
            maxHeight: LIST_HEIGHT,
            display: 'flex',
            flexDirection: 'column',
          }}
        >
          {selected ? (
            <IncidentSidePanel incident={selected} onClose={() => setSelectedKey(null)} />
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
              <Typography.Text type="secondary">{t('incidents.panel.hint')}</Typography.Text>
            </Flex>
          )}
        </div>
      </Flex>

      {createMounted && (
        <CreateIncidentModal
          open={createOpen}
          onClose={() => setCreateOpen(false)}
          onCreated={(incident) => setSelectedKey(incident.key)}
        />
      )}
    </Flex>
  );
}

/** The list's loading state: card-shaped placeholders. */
function ListSkeleton() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex vertical gap="small" role="status" aria-label={t('common.loading')} data-testid="incidents-loading">
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
