import type { TaskDetail, TaskStatus } from '@soc/contracts';
import { TASKS_ROUTE, taskPath } from '@soc/contracts';
import {
  Breadcrumb,
  Button,
  Card,
  Descriptions,
  Flex,
  Result,
  Skeleton,
  Space,
  theme,
  Typography,
  type DescriptionsProps,
} from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '@/shared/api/index.ts';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { AttachmentList } from '@/shared/ui/chat/AttachmentList.tsx';
import { useTaskQuery } from '../api/useTaskQuery.ts';
import { useTaskStatusMutation } from '../api/useTaskStatusMutation.ts';
import { TaskChat } from '../components/TaskChat.tsx';
import { TaskPriorityTag, TaskStatusTag, TaskTypeTag } from '../components/TaskTags.tsx';
import '../i18n/texts.ts';

export type TaskPageProps = { taskId: number };

/**
 * The task page (/issues/issues/task?model=request&type=…&id=…): the request, its files and
 * status actions on the left, the chat with the SOC on the right.
 */
export function TaskPage({ taskId }: TaskPageProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const isPhone = useIsPhone();
  useDocumentTitle(t('tasks.page.title', { id: taskId }));
  const query = useTaskQuery(taskId);
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const task = query.data;

  // Links may carry a stale or missing type: keep the address in the route's canonical form.
  useEffect(() => {
    if (task && (search.get('type') !== task.type || search.get('model') === null)) {
      void navigate(taskPath(task), { replace: true });
    }
  }, [task, search, navigate]);

  const breadcrumbs = (
    <Breadcrumb
      data-testid="task-breadcrumbs"
      items={[
        { title: <Link to="/dashboard">{t('pages.dashboard')}</Link> },
        { title: <Link to={TASKS_ROUTE}>{t('tasks.page.breadcrumb')}</Link> },
        { title: <span aria-current="page">#{taskId}</span> },
      ]}
    />
  );

  if (query.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (query.isError || !task) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Flex vertical gap="middle">
        {breadcrumbs}
        <Result
          status={missing ? '404' : 'error'}
          title={missing ? t('tasks.page.notFound') : t('tasks.page.loadFailed')}
          extra={
            <Space>
              {!missing && <Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
              <Link to={TASKS_ROUTE}>{t('tasks.page.back')}</Link>
            </Space>
          }
          data-testid="task-error"
        />
      </Flex>
    );
  }

  return (
    <Flex vertical gap="middle" data-testid="task-page" data-id={task.id}>
      {breadcrumbs}
      <Typography.Title
        level={1}
        style={{ margin: 0, fontSize: token.fontSizeHeading3 }}
        data-testid="task-subject"
      >
        #{task.id} {task.subject}
      </Typography.Title>
      {/* on a phone the chat goes below the task: one column */}
      <Flex vertical={isPhone} gap="middle" align="stretch">
        <Flex vertical gap="middle" style={{ flex: isPhone ? 'none' : '1 1 auto', minWidth: 0 }}>
          <TaskInfo task={task} />
          <Card size="small" title={t('tasks.page.description')}>
            <div
              data-testid="task-description"
              style={{ overflowWrap: 'anywhere' }}
              // Sanitised on the server (the comment rules).
              dangerouslySetInnerHTML={{ __html: task.rendered_description }}
            />
            {task.attachments.length > 0 && (
              <>
                <Typography.Title level={2} style={{ fontSize: token.fontSizeHeading5 }}>
                  {t('tasks.page.attachments')}
                </Typography.Title>
                <AttachmentList attachments={task.attachments} testId="task-attachments" />
              </>
            )}
          </Card>
        </Flex>
        <TaskChat taskId={task.id} closed={task.status === 'closed'} />
      </Flex>
    </Flex>
  );
}

function TaskInfo({ task }: { task: TaskDetail }) {
  const { t, i18n } = useTranslation();
  const mutation = useTaskStatusMutation(task.id);
  const setStatus = (status: TaskStatus) =>
    mutation.mutate(status, { onSuccess: () => notifySuccess({ title: t('tasks.page.statusChanged') }) });
  const items: DescriptionsProps['items'] = [
    { key: 'number', label: t('tasks.page.number'), children: task.id },
    { key: 'type', label: t('tasks.page.type'), children: <TaskTypeTag type={task.type} /> },
    { key: 'status', label: t('tasks.page.status'), children: <TaskStatusTag status={task.status} /> },
    {
      key: 'priority',
      label: t('tasks.page.priority'),
      children: <TaskPriorityTag priority={task.priority} />,
    },
    {
      key: 'system',
      label: t('tasks.page.system'),
      children: `${task.system.is_id} · ${task.system.full_name}`,
    },
    { key: 'author', label: t('tasks.page.author'), children: task.author },
    { key: 'created', label: t('tasks.page.created'), children: formatDateTime(task.created, i18n.language) },
    { key: 'updated', label: t('tasks.page.updated'), children: formatDateTime(task.updated, i18n.language) },
  ];
  return (
    <Card size="small">
      <Descriptions size="small" column={2} items={items} data-testid="task-info" />
      {task.available_statuses.length > 0 && (
        <Flex gap="small" wrap align="center" data-testid="task-actions">
          <Typography.Text type="secondary">{t('tasks.page.setStatus')}:</Typography.Text>
          {task.available_statuses.map((status) => (
            <Button
              key={status}
              size="small"
              loading={mutation.isPending && mutation.variables === status}
              disabled={mutation.isPending}
              onClick={() => setStatus(status)}
              data-testid={`task-action-${status}`}
            >
              {t(`tasks.page.actions.${status}`)}
            </Button>
          ))}
        </Flex>
      )}
    </Card>
  );
}
