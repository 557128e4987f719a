import { ChatComposer } from '@/shared/ui/chat/ChatComposer.tsx';
import { useAddCommentMutation } from '../api/useAddCommentMutation.ts';

export type CommentComposerProps = {
  incidentKey: number;
};

/** The composer of an incident's comments (POST {incident}/comments/). */
export function CommentComposer({ incidentKey }: CommentComposerProps) {
  const mutation = useAddCommentMutation(incidentKey);
  return <ChatComposer onSend={mutation.mutateAsync} pending={mutation.isPending} showIssueCompleted />;
}
