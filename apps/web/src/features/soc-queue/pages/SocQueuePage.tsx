import { QUEUE_BULK_MAX } from '@soc/contracts';
import { PlusOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { countFilterParams } from '@/shared/lib/filters.ts';
import { pageItems } from '@/shared/lib/pageItems.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { ListPage } from '@/shared/ui/ListPage.tsx';
import { notifyWarning } from '@/shared/ui/notifications.tsx';
import { StaffNotAvailable } from '@/shared/ui/staff/StaffNotAvailable.tsx';
import { useCurrentUserQuery, useIsStaff } from '../../auth/index.ts';
import { SOC_REGISTER_PATH } from '../../soc-register/index.ts';
import { useQueueInfiniteQuery } from '../api/useQueueInfiniteQuery.ts';
import { QueueBulkBar, useQueueBulk } from '../components/QueueBulkBar.tsx';
import { QueueCounts } from '../components/QueueCounts.tsx';
import { QueueFilterBar } from '../components/QueueFilterBar.tsx';
import { QueueTable } from '../components/QueueTable.tsx';
import { ShortcutsDialog } from '../components/ShortcutsDialog.tsx';
import { useQueueShortcuts } from '../components/useQueueShortcuts.ts';
import {
  readQueueList,
  sanitizeQueueParams,
  SOC_QUEUE_FILTER_ENTITY,
  withQueueParams,
} from '../lib/queueListQuery.ts';
import '../i18n/texts.ts';

const LIST_HEIGHT = 'max(24rem, calc(100vh - 15rem))';

/**
 * /soc/queue (design §9, staff area): what waits for the SOC across every tenant. A customer who
 * opens the address is told the page is not available, and the page asks the analyst API nothing.
 */
export function SocQueuePage() {
  const isStaff = useIsStaff();
  if (isStaff === false) return <StaffNotAvailable />;
  if (isStaff === undefined) return null;
  return <QueueScreen />;
}

function QueueScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('socQueue.title'));
  const me = useCurrentUserQuery().data;
  const persisted = usePersistedFilters(SOC_QUEUE_FILTER_ENTITY);
  const params = useMemo(() => sanitizeQueueParams(persisted.params), [persisted.params]);
  const query = useQueueInfiniteQuery(params);
  const items = useMemo(() => pageItems(query.data?.pages, (item) => item.key), [query.data]);
  const firstPage = query.data?.pages[0];
  const total = firstPage?.total ?? 0;
  const totalExact = firstPage?.total_exact ?? true;
  const [selected, setSelected] = useState<number[]>([]);
  // a row that left the queue (changed elsewhere, live) is no longer selected
  const selectedKeys = useMemo(
    () => selected.filter((key) => items.some((item) => item.key === key)),
    [selected, items],
  );
  const select = (keys: number[]) => {
    if (keys.length > QUEUE_BULK_MAX) {
      notifyWarning({ title: t('socQueue.bulk.limit', { max: QUEUE_BULK_MAX }), key: 'soc-queue-limit' });
      setSelected(keys.slice(0, QUEUE_BULK_MAX));
    } else setSelected(keys);
  };
  const tenants = readQueueList(params, 'system__in');
  const bulk = useQueueBulk();
  const navigate = useNavigate();
  const [focusedKey, setFocusedKey] = useState<number | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [bulkDialogOpen, setBulkDialogOpen] = useState(false);
  const focusedIndex = items.findIndex((item) => item.key === focusedKey);
  useQueueShortcuts(
    {
      move: (offset) => {
        const next = items[Math.min(Math.max(focusedIndex + offset, 0), items.length - 1)];
        if (!next) return;
        setFocusedKey(next.key);
        // the highlighted row stays in view (jsdom has no scrolling: hence the optional call)
        document.querySelector(`[data-testid="soc-queue-row"][data-key="${next.key}"]`)?.scrollIntoView?.({
          block: 'nearest',
        });
      },
      open: () => {
        if (focusedIndex >= 0) void navigate(`/inc/${focusedKey}`);
      },
      assign: () => {
        if (focusedIndex >= 0 && me && !bulk.isPending && focusedKey !== null) {
          bulk.run([focusedKey], { action: 'assign', soc_assignee: me.id });
        }
      },
      help: () => setHelpOpen(true),
    },
    helpOpen || bulkDialogOpen,
  );

  return (
    <ListPage
      testId="soc-queue"
      title={t('socQueue.title')}
      total={
        query.data
          ? t(totalExact ? 'socQueue.total' : 'socQueue.totalMore', {
              low: items.length > 0 ? 1 : 0,
              high: items.length,
              total,
            })
          : null
      }
      header={
        <Flex vertical gap="small">
          <QueueFilterBar params={params} onChange={persisted.setParams} />
          <QueueCounts
            params={params}
            selected={tenants}
            onPick={(id) => persisted.setParams(withQueueParams(params, { system__in: id }))}
          />
          <Flex gap="small" align="flex-start" justify="space-between" wrap>
            <div style={{ flex: '1 1 auto', minWidth: 0 }}>
              <QueueBulkBar
                selectedKeys={selectedKeys}
                myId={me?.id}
                onClear={() => setSelected([])}
                bulk={bulk}
                onDialogChange={setBulkDialogOpen}
              />
            </div>
            <Flex gap="small" wrap>
              <Button
                type="text"
                icon={<QuestionCircleOutlined aria-hidden />}
                onClick={() => setHelpOpen(true)}
                data-testid="soc-queue-shortcuts-open"
              >
                {t('socQueue.shortcuts.open')}
              </Button>
              <Button
                type="primary"
                icon={<PlusOutlined aria-hidden />}
                onClick={() => void navigate(SOC_REGISTER_PATH)}
                data-testid="soc-queue-register"
              >
                {t('socQueue.register')}
              </Button>
            </Flex>
          </Flex>
          <ShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
        </Flex>
      }
      query={query}
      isEmpty={items.length === 0}
      loadFailedText={t('socQueue.loadFailed')}
      emptyText={t('socQueue.empty')}
      emptyFiltered={{
        search: null,
        filters: countFilterParams(params),
        onClear: () => persisted.setParams(new URLSearchParams()),
      }}
      height={LIST_HEIGHT}
    >
      <QueueTable
        items={items}
        selectedKeys={selectedKeys}
        onSelect={select}
        focusedKey={focusedIndex >= 0 ? focusedKey : null}
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        nextPageFailed={query.isFetchNextPageError}
        fetchNextPage={() => void query.fetchNextPage()}
      />
    </ListPage>
  );
}
