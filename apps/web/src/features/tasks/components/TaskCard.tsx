import { MessageOutlined } from '@ant-design/icons';
import type { Task } from '@soc/contracts';
import { taskPath } from '@soc/contracts';
import { Badge, Card, Flex, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { TaskPriorityTag, TaskStatusTag, TaskTypeTag } from './TaskTags.tsx';
import '../i18n/texts.ts';

export type TaskCardProps = {
  task: Task;
  /** 1-based position in the whole list, and its size (for screen readers). */
  position: number;
  setSize: number;
};

/** A task in the list: number and subject (a link to its page), type, status, priority, system and activity. */
export function TaskCard({ task, position, setSize }: TaskCardProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const unread = task.last_from_soc && task.status !== 'closed';
  return (
    <Card
      size="small"
      role="article"
      aria-posinset={position}
      aria-setsize={setSize}
      data-testid="task-card"
      data-id={task.id}
      styles={{ body: { padding: token.paddingSM } }}
    >
      <Flex vertical gap={token.marginXXS}>
        <Flex align="center" gap="small" wrap>
          <Typography.Text type="secondary">#{task.id}</Typography.Text>
          <Link to={taskPath(task)} data-testid="task-link" style={{ fontWeight: token.fontWeightStrong }}>
            {task.subject}
          </Link>
          {unread && (
            <Badge status="processing" text={t('tasks.list.socReplied')} data-testid="task-soc-replied" />
          )}
        </Flex>
        <Flex align="center" gap="small" wrap>
          <TaskTypeTag type={task.type} />
          <TaskStatusTag status={task.status} />
          <TaskPriorityTag priority={task.priority} />
          <Typography.Text type="secondary">
            {task.system.is_id} · {task.author}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ marginInlineStart: 'auto' }}>
            <MessageOutlined aria-hidden /> {t('tasks.list.messages', { count: task.messages_count })} ·{' '}
            {t('tasks.list.updated', { date: formatDateTime(task.updated, i18n.language) })}
          </Typography.Text>
        </Flex>
      </Flex>
    </Card>
  );
}
