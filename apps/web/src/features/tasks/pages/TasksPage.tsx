import { PlusOutlined } from '@ant-design/icons';
import { taskPath } from '@soc/contracts';
import { Button, Flex, theme, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { countFilterParams } from '@/shared/lib/filters.ts';
import { usePersistedFilters } from '@/shared/lib/usePersistedFilters.ts';
import { InfiniteFeed } from '@/shared/ui/InfiniteFeed.tsx';
import { ListPage } from '@/shared/ui/ListPage.tsx';
import { useTasksInfiniteQuery } from '../api/useTasksInfiniteQuery.ts';
import { CreateTaskModal } from '../components/CreateTaskModal.tsx';
import { TaskCard } from '../components/TaskCard.tsx';
import { TaskFilterBar } from '../components/TaskFilterBar.tsx';
import { sanitizeTaskParams, TASKS_FILTER_ENTITY } from '../lib/taskQuery.ts';
import { pageItems } from '@/shared/lib/pageItems.ts';
import '../i18n/texts.ts';

const LIST_HEIGHT = 'max(24rem, calc(100vh - 20rem))';
const CARD_HEIGHT = 84;

/**
 * The task list (/issues/issues/task, menu Issues → Tasks): search, filters and sort kept in
 * the URL and storage, cards loaded page by page on scroll, and the create-task form.
 */
export function TasksPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  useDocumentTitle(t('pages.tasks'));
  const persisted = usePersistedFilters(TASKS_FILTER_ENTITY);
  const params = useMemo(() => sanitizeTaskParams(persisted.params), [persisted.params]);
  const query = useTasksInfiniteQuery(params);
  const [creating, setCreating] = useState(false);
  const tasks = useMemo(() => pageItems(query.data?.pages, (item) => item.id), [query.data]);
  const total = query.data?.pages[0]?.total ?? 0;

  return (
    <>
      <ListPage
        testId="tasks"
        header={
          <>
            <Flex align="center" gap="middle">
              <div>
                <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading3 }}>
                  {t('tasks.title')}
                </Typography.Title>
                <Typography.Text type="secondary">{t('tasks.subtitle')}</Typography.Text>
              </div>
              <Button
                type="primary"
                icon={<PlusOutlined aria-hidden />}
                onClick={() => setCreating(true)}
                style={{ marginInlineStart: 'auto' }}
                data-testid="tasks-create"
              >
                {t('tasks.list.create')}
              </Button>
            </Flex>
            <TaskFilterBar params={params} onChange={persisted.setParams} />
          </>
        }
        query={query}
        isEmpty={tasks.length === 0}
        loadFailedText={t('tasks.list.loadFailed')}
        emptyText={t('tasks.list.empty')}
        emptyFiltered={{
          search: params.get('search'),
          filters: countFilterParams(params),
          onClear: () => persisted.setParams(new URLSearchParams()),
        }}
        height={LIST_HEIGHT}
      >
        <Flex vertical gap="small">
          <Typography.Text type="secondary" data-testid="tasks-count">
            {t('tasks.list.count', { low: 1, high: tasks.length, total })}
          </Typography.Text>
          <InfiniteFeed
            items={tasks}
            getKey={(task) => task.id}
            renderItem={(task, position) => <TaskCard task={task} position={position} setSize={total} />}
            hasNextPage={query.hasNextPage}
            isFetchingNextPage={query.isFetchingNextPage}
            nextPageFailed={query.isFetchNextPageError}
            fetchNextPage={() => void query.fetchNextPage()}
            height={LIST_HEIGHT}
            label={t('tasks.list.label')}
            testId="tasks-list"
            estimateSize={CARD_HEIGHT}
          />
        </Flex>
      </ListPage>
      <CreateTaskModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(task) => void navigate(taskPath(task))}
      />
    </>
  );
}
