import { ChatPanel } from '@/shared/ui/chat/ChatPanel.tsx';
import { useCommentsQuery } from '../api/useCommentsQuery.ts';
import { CommentComposer } from './CommentComposer.tsx';

export type CommentsPanelProps = {
  incidentKey: number;
  /** Provider staff write to the customer as the SOC. */
  staff?: boolean;
};

/** The comments of an incident. */
export function CommentsPanel({ incidentKey, staff = false }: CommentsPanelProps) {
  const comments = useCommentsQuery(incidentKey);
  return (
    <ChatPanel comments={comments} composer={<CommentComposer incidentKey={incidentKey} staff={staff} />} />
  );
}
