import type { TaskPriority, TaskStatus, TaskType } from '@soc/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ContrastTag } from '../../../shared/ui/ContrastTag.tsx';
import '../i18n/texts.ts';

/** antd status colours per task status: open work stands out, finished work is muted. */
const STATUS_COLORS: Record<TaskStatus, string> = {
  open: 'processing',
  in_progress: 'processing',
  waiting_for_customer: 'warning',
  resolved: 'success',
  closed: 'default',
};
const PRIORITY_COLORS: Record<TaskPriority, string> = { high: 'error', medium: 'warning', low: 'default' };

/** A task status as a tag (the text keeps the theme's text colour for contrast in both themes). */
export function TaskStatusTag({ status }: { status: TaskStatus }) {
  const { t } = useTranslation();
  return (
    <ContrastTag
      color={STATUS_COLORS[status]}
      variant="outlined"
      data-testid="task-status"
      data-status={status}
    >
      {t(`tasks.statuses.${status}`)}
    </ContrastTag>
  );
}

export function TaskPriorityTag({ priority }: { priority: TaskPriority }) {
  const { t } = useTranslation();
  return (
    <ContrastTag color={PRIORITY_COLORS[priority]} variant="outlined" data-priority={priority}>
      {t(`tasks.priorities.${priority}`)}
    </ContrastTag>
  );
}

export function TaskTypeTag({ type }: { type: TaskType }) {
  const { t } = useTranslation();
  return (
    <Tag data-type={type} style={{ marginInlineEnd: 0 }}>
      {t(`tasks.types.${type}`)}
    </Tag>
  );
}
