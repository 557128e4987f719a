import { Button, Empty, Flex, Result, Skeleton, theme, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { InfiniteFeed } from '@/shared/ui/InfiniteFeed.tsx';
import { useMisconfigsInfiniteQuery } from '../api/useMisconfigsInfiniteQuery.ts';
import { MisconfigCard } from '../components/MisconfigCard.tsx';
import { MisconfigFilterBar } from '../components/MisconfigFilterBar.tsx';
import { MisconfigPanel, MisconfigPanelHint } from '../components/MisconfigPanel.tsx';
import { MISCONFIGS_FILTER_ENTITY, sanitizeMisconfigParams } from '../lib/misconfigQuery.ts';
import '../i18n/texts.ts';
import { pageItems } from '@/shared/lib/pageItems.ts';

const LIST_HEIGHT = 'max(24rem, calc(100vh - 16rem))';
const CARD_HEIGHT = 96;

/**
 * /misconfigs (product §A2): the security recommendations of the customer's systems, loaded
 * page by page on scroll, with filters and search in the URL and storage, and a side panel
 * where a recommendation is marked fixed or its risk accepted.
 */
export function MisconfigsPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  useDocumentTitle(t('pages.misconfigs'));
  const persisted = usePersistedFilters(MISCONFIGS_FILTER_ENTITY);
  const params = useMemo(() => sanitizeMisconfigParams(persisted.params), [persisted.params]);
  const query = useMisconfigsInfiniteQuery(params);
  const items = useMemo(() => pageItems(query.data?.pages, (item) => item.id), [query.data]);
  const total = query.data?.pages[0]?.total ?? 0;
  const [selected, setSelected] = useState<number | null>(null);

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
      ) : items.length === 0 ? (
        <Empty description={t('misconfigs.list.empty')} data-testid="misconfigs-empty" />
      ) : (
        <Flex gap="middle" align="flex-start">
          <Flex vertical gap="small" style={{ flex: '1 1 auto', minWidth: 0 }}>
            <Typography.Text type="secondary" data-testid="misconfigs-count">
              {t('misconfigs.list.count', { low: 1, high: items.length, total })}
            </Typography.Text>
            <InfiniteFeed
              items={items}
              getKey={(m) => m.id}
              renderItem={(m, position) => (
                <MisconfigCard
                  misconfig={m}
                  selected={m.id === selected}
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
          {selected === null ? (
            <MisconfigPanelHint />
          ) : (
            <MisconfigPanel key={selected} misconfigId={selected} onClose={() => setSelected(null)} />
          )}
        </Flex>
      )}
    </Flex>
  );
}
