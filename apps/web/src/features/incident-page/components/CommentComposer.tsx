import { EyeOutlined } from '@ant-design/icons';
import { Flex, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChatComposer } from '@/shared/ui/chat/ChatComposer.tsx';
import { useAddCommentMutation } from '../api/useAddCommentMutation.ts';
import '../i18n/texts.ts';

export type CommentComposerProps = {
  incidentKey: number;
  /**
   * Provider staff: the server stores their comments as the SOC's (from_soc) and refuses
   * "issue completed" from them, so the flag is not offered; a line says the customer reads it,
   * unlike the internal notes.
   */
  staff?: boolean;
};

/** The composer of an incident's comments (POST {incident}/comments/). */
export function CommentComposer({ incidentKey, staff = false }: CommentComposerProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const mutation = useAddCommentMutation(incidentKey);
  if (!staff) {
    return <ChatComposer onSend={mutation.mutateAsync} pending={mutation.isPending} showIssueCompleted />;
  }
  return (
    <Flex vertical gap={token.marginXXS}>
      <Typography.Text type="secondary" data-testid="comment-audience" style={{ fontSize: token.fontSizeSM }}>
        <EyeOutlined aria-hidden style={{ marginInlineEnd: token.marginXXS }} />
        {t('incidentPage.chatAudience.toCustomer')}
      </Typography.Text>
      <ChatComposer onSend={mutation.mutateAsync} pending={mutation.isPending} />
    </Flex>
  );
}
