import { useQueryClient } from '@tanstack/react-query';
import { Alert, Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { authKeys } from '../api/authKeys.ts';
import { useLogoutMutation } from '../api/useLogoutMutation.ts';
import { ChangePasswordCard } from '../components/ChangePasswordCard.tsx';

/**
 * Shown instead of the whole app while the password is an administrator's temporary one: the
 * server answers nothing else until it is changed; Cancel signs out.
 */
export function TemporaryPasswordPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const queryClient = useQueryClient();
  const logout = useLogoutMutation();
  useDocumentTitle(t('auth.changePassword.title'));

  return (
    <Flex
      component="main"
      vertical
      align="center"
      justify="center"
      style={{ minHeight: '100vh', padding: token.paddingLG }}
      data-testid="temporary-password-page"
    >
      <ChangePasswordCard
        notice={
          <Alert
            type="warning"
            showIcon
            title={t('auth.changePassword.temporary')}
            style={{ marginBottom: token.marginMD }}
          />
        }
        onChanged={() => void queryClient.invalidateQueries({ queryKey: authKeys.user() })}
        onCancel={() => logout.mutate()}
      />
    </Flex>
  );
}
