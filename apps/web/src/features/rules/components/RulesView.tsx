import { ImportOutlined, SortAscendingOutlined, SortDescendingOutlined } from '@ant-design/icons';
import type { AttackLayer, Rule, RuleListResponse } from '@soc/contracts';
import { Button, Empty, Flex, Radio, Result, Skeleton, theme, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { FilterToggle, ListPage } from '@/shared/ui/ListPage.tsx';
import { PhoneDetailDrawer } from '@/shared/ui/PhoneLayout.tsx';
import { SearchBox } from '@/shared/ui/SearchBox.tsx';
import { useHasPermission } from '../../auth/index.ts';
import { ruleKeys } from '../api/ruleKeys.ts';
import { useRuleCoverageQuery } from '../api/useRuleCoverageQuery.ts';
import { useRulesInfiniteQuery } from '../api/useRulesInfiniteQuery.ts';
import {
  countActiveFilters,
  readOrdering,
  RULES_FILTER_ENTITY,
  sanitizeRuleParams,
  withoutFilters,
  withParams,
} from '../lib/ruleQuery.ts';
import { compareLayer } from '../lib/layerOverlay.ts';
import { MitreDetailPanel } from './MitreDetailPanel.tsx';
import { MitreLayerBar } from './MitreLayerBar.tsx';
import { MitreMatrix } from './MitreMatrix.tsx';
import { RuleCounters } from './RuleCounters.tsx';
import { RuleFilterBar } from './RuleFilterBar.tsx';
import { RuleList } from './RuleList.tsx';
import { RuleSidePanel } from './RuleSidePanel.tsx';
import { SigmaImportDialog } from './SigmaImportDialog.tsx';
import { shownSearch } from '@/shared/lib/filters.ts';
import '../i18n/texts.ts';

const LIST_HEIGHT = 'max(24rem, calc(100vh - 22rem))';

type Mode = 'rules' | 'mitre';

function flatten(pages: readonly RuleListResponse[] | undefined): Rule[] {
  const seen = new Set<number>();
  const rules: Rule[] = [];
  for (const page of pages ?? []) {
    for (const rule of page.results) {
      if (seen.has(rule.id)) continue;
      seen.add(rule.id);
      rules.push(rule);
    }
  }
  return rules;
}

/**
 * /docs/rules (product §B2 Rules): a Rules | MITRE button group over one set of filters. Rules
 * mode: mini dashboard, cards with a side panel (the first rule selected automatically). MITRE
 * mode: the matrix and a technique panel. Filters, sort and search live in the URL and storage.
 */
export function RulesView() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  useDocumentTitle(t('rules.title'));
  const [mode, setMode] = useState<Mode>('rules');
  const persisted = usePersistedFilters(RULES_FILTER_ENTITY);
  const params = useMemo(() => sanitizeRuleParams(persisted.params), [persisted.params]);
  const setParams = persisted.setParams;
  const activeFilters = countActiveFilters(params);
  const [barOpened, setBarOpened] = useState(false);
  const barVisible = barOpened || activeFilters > 0;
  const [resets, setResets] = useState(0);
  // the Sigma import is the administrators' (POST /admin/rules/import/)
  const canImport = useHasPermission('rules.import') === true;
  const [importOpen, setImportOpen] = useState(false);
  const ordering = readOrdering(params);
  const queryClient = useQueryClient();
  const filterKey = new URLSearchParams(params);
  filterKey.delete('ordering');

  const coverage = useRuleCoverageQuery(filterKey);
  // The filter choices of tactics and techniques come from the unfiltered matrix.
  const matrix = useRuleCoverageQuery(new URLSearchParams());

  return (
    <Flex vertical gap="middle" data-testid="rules-view" data-mode={mode}>
      <Flex align="center" gap="middle" wrap>
        <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading2 }}>
          {t('rules.title')}
        </Typography.Title>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          value={mode}
          onChange={(event) => setMode(event.target.value as Mode)}
          aria-label={t('rules.modes.label')}
          data-testid="rules-mode"
          options={[
            { value: 'rules', label: t('rules.modes.rules') },
            { value: 'mitre', label: t('rules.modes.mitre') },
          ]}
        />
      </Flex>

      <Flex wrap gap="small" align="center">
        <SearchBox
          key={resets}
          placeholder={t('rules.search.placeholder')}
          label={t('rules.search.label')}
          buttonText={t('rules.search.button')}
          testId="rules-search"
          width="24rem"
          clearsWhenEmptied
          value={shownSearch(persisted.params, params)}
          onSearch={(text) => {
            void queryClient.invalidateQueries({ queryKey: ruleKeys.all });
            setParams(withParams(params, { search: text }));
          }}
        />
        <FilterToggle
          active={activeFilters}
          open={barVisible}
          text={t('rules.toolbar.filters')}
          countLabel={t('rules.toolbar.filtersCount', { count: activeFilters })}
          testId="rules-filter-toggle"
          onToggle={() => {
            if (barVisible) {
              // toggling the bar off resets the filters (product §B4)
              setBarOpened(false);
              setResets((count) => count + 1);
              if (activeFilters > 0) setParams(withoutFilters(params));
            } else setBarOpened(true);
          }}
        />
        {mode === 'rules' && (
          <Button
            icon={
              ordering === 'created' ? (
                <SortAscendingOutlined aria-hidden />
              ) : (
                <SortDescendingOutlined aria-hidden />
              )
            }
            title={t('rules.toolbar.sort')}
            onClick={() =>
              setParams(withParams(params, { ordering: ordering === 'created' ? '-created' : 'created' }))
            }
            data-testid="rules-sort"
            data-ordering={ordering === 'created' ? 'ASC' : 'DESC'}
          >
            {t(ordering === 'created' ? 'rules.toolbar.asc' : 'rules.toolbar.desc')}
          </Button>
        )}
        {canImport && (
          <>
            <Button
              icon={<ImportOutlined aria-hidden />}
              onClick={() => setImportOpen(true)}
              data-testid="sigma-import-open"
            >
              {t('rules.sigmaImport.open')}
            </Button>
            <SigmaImportDialog open={importOpen} onClose={() => setImportOpen(false)} />
          </>
        )}
      </Flex>

      {barVisible && (
        <RuleFilterBar
          params={params}
          onChange={setParams}
          tactics={matrix.data?.tactics ?? []}
          techniques={matrix.data?.techniques ?? []}
        />
      )}

      {mode === 'rules' ? (
        <RulesMode
          params={params}
          onClear={() => {
            // the search and every filter go; the sort stays
            setResets((count) => count + 1);
            setParams(withParams(withoutFilters(params), { search: null }));
          }}
        />
      ) : (
        <MitreMode
          coverage={coverage}
          filters={filterKey}
          onShowRules={(id) => {
            setMode('rules');
            setParams(withParams(params, { mitre_technique__in: [id] }));
          }}
        />
      )}
    </Flex>
  );
}

function RulesMode({ params, onClear }: { params: URLSearchParams; onClear: () => void }) {
  const { t } = useTranslation();
  const filterKey = new URLSearchParams(params);
  filterKey.delete('ordering');
  const query = useRulesInfiniteQuery(params);
  const rules = useMemo(() => flatten(query.data?.pages), [query.data]);
  const total = query.data?.pages.at(-1)?.total ?? 0;
  const [selectedId, setSelectedId] = useState<number | null>(null);
  // the first rule is selected automatically (product §B2), except on a phone, where the
  // detail covers the list
  const isPhone = useIsPhone();
  const selected = rules.find((rule) => rule.id === selectedId) ?? (isPhone ? null : (rules[0] ?? null));

  return (
    <ListPage
      testId="rules"
      rootTestId={null}
      header={
        <>
          <RuleCounters filters={filterKey} />
          {query.data && (
            <Typography.Text type="secondary" data-testid="rules-total" aria-live="polite">
              {t('rules.list.total', { low: rules.length > 0 ? 1 : 0, high: rules.length, total })}
            </Typography.Text>
          )}
        </>
      }
      query={query}
      isEmpty={rules.length === 0}
      loadFailedText={t('rules.list.loadFailed')}
      emptyText={t('rules.list.empty')}
      emptyFiltered={{ search: params.get('search'), filters: countActiveFilters(params), onClear }}
      panel={selected && <RuleSidePanel key={selected.id} rule={selected} />}
      onPanelClose={() => setSelectedId(null)}
      panelHint={t('rules.panel.hint')}
      height={LIST_HEIGHT}
      skeletonRows={1}
    >
      <RuleList
        rules={rules}
        total={total}
        selectedId={selected?.id ?? null}
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

type MitreModeProps = {
  coverage: ReturnType<typeof useRuleCoverageQuery>;
  filters: URLSearchParams;
  onShowRules: (id: string) => void;
};

function MitreMode({ coverage, filters, onShowRules }: MitreModeProps) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  // the compared layer stays while the filters change; its gaps follow the filtered coverage
  const [layer, setLayer] = useState<AttackLayer | null>(null);
  const overlay = useMemo(
    () => (layer && coverage.data ? compareLayer(layer, coverage.data) : null),
    [layer, coverage.data],
  );
  if (coverage.isPending) {
    return (
      <div role="status" aria-label={t('common.loading')} data-testid="mitre-loading">
        <Skeleton active paragraph={{ rows: 8 }} />
      </div>
    );
  }
  if (coverage.isError) {
    return (
      <Result
        status="error"
        title={t('rules.mitre.loadFailed')}
        extra={<Button onClick={() => void coverage.refetch()}>{t('common.retry')}</Button>}
        data-testid="mitre-error"
      />
    );
  }
  const data = coverage.data;
  const selected = data.techniques.find((tech) => tech.technique_id === selectedId) ?? null;
  const detail = (technique: NonNullable<typeof selected>) => (
    <MitreDetailPanel
      coverage={data}
      technique={technique}
      filters={filters}
      onSelect={setSelectedId}
      onShowRules={onShowRules}
    />
  );
  return (
    <Flex gap="middle" align="start">
      <Flex vertical gap="small" style={{ flex: '1 1 0', minWidth: 0 }}>
        <MitreLayerBar filters={filters} overlay={overlay} onLayer={setLayer} />
        {!selected && (
          <Typography.Text type="secondary" data-testid="mitre-hint">
            {t('rules.mitre.hint')}
          </Typography.Text>
        )}
        {data.techniques.length === 0 ? (
          <Empty description={t('rules.list.empty')} data-testid="mitre-empty" />
        ) : (
          <MitreMatrix coverage={data} selectedId={selectedId} onSelect={setSelectedId} overlay={overlay} />
        )}
      </Flex>
      {/* the panel takes its width only once a technique is chosen: an empty panel cut the
          matrix at Privilege Escalation */}
      {isPhone ? (
        <PhoneDetailDrawer open={selected !== null} onClose={() => setSelectedId(null)}>
          {selected && detail(selected)}
        </PhoneDetailDrawer>
      ) : (
        selected && <div style={{ flex: '0 0 21rem', minWidth: 0 }}>{detail(selected)}</div>
      )}
    </Flex>
  );
}
