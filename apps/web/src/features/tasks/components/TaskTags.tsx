import type { TaskPriority, TaskStatus, TaskType } from '@soc/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ContrastTag } from '@/shared/ui/ContrastTag.tsx';
import '../i18n/texts.ts';
import { TASK_PRIORITY_COLORS, TASK_STATUS_COLORS } from '@/shared/theme/domainColors.ts';

/** A task status as a tag (the text keeps the theme's text colour for contrast in both themes). */
export function TaskStatusTag({ status }: { status: TaskStatus }) {
  const { t } = useTranslation();
  return (
    <ContrastTag
      color={TASK_STATUS_COLORS[status]}
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
    <ContrastTag color={TASK_PRIORITY_COLORS[priority]} variant="outlined" data-priority={priority}>
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
