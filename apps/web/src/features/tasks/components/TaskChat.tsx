import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChatComposer } from '@/shared/ui/chat/ChatComposer.tsx';
import { ChatPanel } from '@/shared/ui/chat/ChatPanel.tsx';
import { useAddTaskMessageMutation } from '../api/useAddTaskMessageMutation.ts';
import { useTaskMessagesQuery } from '../api/useTaskMessagesQuery.ts';
import '../i18n/texts.ts';

export type TaskChatProps = {
  taskId: number;
  /** A closed task takes no messages until it is reopened. */
  closed: boolean;
};

/** The chat of a task: the incident comments' panel and composer over the task's messages. */
export function TaskChat({ taskId, closed }: TaskChatProps) {
  const { t } = useTranslation();
  const messages = useTaskMessagesQuery(taskId);
  const mutation = useAddTaskMessageMutation(taskId);
  return (
    <ChatPanel
      comments={messages}
      composer={
        closed ? (
          <Alert type="info" showIcon title={t('tasks.page.closedHint')} data-testid="task-closed-hint" />
        ) : (
          <ChatComposer onSend={mutation.mutateAsync} pending={mutation.isPending} />
        )
      }
    />
  );
}
