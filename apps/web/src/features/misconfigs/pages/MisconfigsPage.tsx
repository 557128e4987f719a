import { Button, Empty, Flex, Result, Skeleton, theme, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { countFilterParams } from '@/shared/lib/filters.ts';
import { pageItems } from '@/shared/lib/pageItems.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { InfiniteFeed } from '@/shared/ui/InfiniteFeed.tsx';
import { EmptyResults } from '@/shared/ui/ListPage.tsx';
import { PhoneDetailDrawer } from '@/shared/ui/PhoneLayout.tsx';
import { useMisconfigGroupsInfiniteQuery } from '../api/useMisconfigGroupsInfiniteQuery.ts';
import { MisconfigGroupCard } from '../components/MisconfigGroupCard.tsx';
import { MisconfigFilterBar } from '../components/MisconfigFilterBar.tsx';
import { MisconfigPanel, MisconfigPanelHint } from '../components/MisconfigPanel.tsx';
import { MISCONFIGS_FILTER_ENTITY, sanitizeMisconfigParams } from '../lib/misconfigQuery.ts';
import '../i18n/texts.ts';

const LIST_HEIGHT = 'max(24rem, calc(100vh - 16rem))';
const CARD_HEIGHT = 72;

/**
 * /misconfigs (product §A2): the security recommendations of the customer's systems, grouped
 * by title so that one recommendation found on many assets is one entry (open groups first),
 * loaded page by page on scroll, with filters and search in the URL and storage; a group opens
 * to its findings, and a finding in the side panel is marked fixed or its risk accepted.
 */
export function MisconfigsPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const isPhone = useIsPhone();
  useDocumentTitle(t('pages.misconfigs'));
  const persisted = usePersistedFilters(MISCONFIGS_FILTER_ENTITY);
  const params = useMemo(() => sanitizeMisconfigParams(persisted.params), [persisted.params]);
  const query = useMisconfigGroupsInfiniteQuery(params);
  const items = useMemo(() => pageItems(query.data?.pages, (group) => group.title), [query.data]);
  const firstPage = query.data?.pages[0];
  const total = firstPage?.total ?? 0;
  const totalExact = firstPage?.total_exact ?? true;
  const filters = countFilterParams(params);
  const [selected, setSelected] = useState<number | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (title: string) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(title)) next.add(title);
      return next;
    });

  return (
    <Flex vertical gap="middle" data-testid="misconfigs-page">
      <div>
        <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading3 }}>
          {t('misconfigs.title')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('misconfigs.subtitle')}</Typography.Text>
      </div>
      <MisconfigFilterBar params={params} onChange={persisted.setParams} />
      {query.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : query.isError && items.length === 0 ? (
        <Result
          status="error"
          title={t('misconfigs.list.loadFailed')}
          extra={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
          data-testid="misconfigs-error"
        />
      ) : items.length === 0 && (params.get('search') || filters > 0) ? (
        <EmptyResults
          testId="misconfigs"
          search={params.get('search')}
          filters={filters}
          onClear={() => persisted.setParams(new URLSearchParams())}
        />
      ) : items.length === 0 ? (
        <Empty description={t('misconfigs.list.empty')} data-testid="misconfigs-empty" />
      ) : (
        <Flex gap="middle" align="flex-start">
          <Flex vertical gap="small" style={{ flex: '1 1 auto', minWidth: 0 }}>
            <Typography.Text type="secondary" data-testid="misconfigs-count">
              {t(totalExact ? 'misconfigs.groups.count' : 'misconfigs.groups.countMore', {
                low: 1,
                high: items.length,
                total,
              })}
            </Typography.Text>
            <InfiniteFeed
              items={items}
              getKey={(g) => g.title}
              renderItem={(g, position) => (
                <MisconfigGroupCard
                  group={g}
                  filters={params}
                  expanded={expanded.has(g.title)}
                  onToggle={toggle}
                  selected={selected}
                  onSelect={setSelected}
                  position={position}
                  setSize={total}
                />
              )}
              hasNextPage={query.hasNextPage}
              isFetchingNextPage={query.isFetchingNextPage}
              nextPageFailed={query.isFetchNextPageError}
              fetchNextPage={() => void query.fetchNextPage()}
              height={LIST_HEIGHT}
              label={t('misconfigs.list.label')}
              testId="misconfigs-list"
              estimateSize={CARD_HEIGHT}
            />
          </Flex>
          {isPhone ? (
            <PhoneDetailDrawer open={selected !== null} onClose={() => setSelected(null)}>
              {selected !== null && (
                <MisconfigPanel
                  key={selected}
                  misconfigId={selected}
                  onClose={() => setSelected(null)}
                  fullWidth
                />
              )}
            </PhoneDetailDrawer>
          ) : selected === null ? (
            <MisconfigPanelHint />
          ) : (
            <MisconfigPanel key={selected} misconfigId={selected} onClose={() => setSelected(null)} />
          )}
        </Flex>
      )}
    </Flex>
  );
}
