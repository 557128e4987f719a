import { Button, Flex } from 'antd';
import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUserQuery } from '../../features/auth/index.ts';
import { useLogoutMutation } from '../../features/auth/index.ts';
import { useIsAuthenticated } from '@/shared/api/index.ts';
import { lazyPage } from '@/shared/lib/chunkLoad.ts';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary.tsx';
import { FullPageSpinner } from '@/shared/ui/FullPageSpinner.tsx';
import { StatusScreen } from '@/shared/ui/StatusScreen.tsx';
import { loadLoginPage, loadTemporaryPasswordPage } from '../../features/auth/routes.ts';

const LoginPage = lazyPage(loadLoginPage, 'LoginPage');
const TemporaryPasswordPage = lazyPage(loadTemporaryPasswordPage, 'TemporaryPasswordPage');

export type AuthGateProps = {
  /** The shell, rendered once the signed-in user is known. */
  children: ReactNode;
};

/**
 * Spec 000 §2: logged out → the login screen (at whatever URL was opened); logged in but the
 * user record not loaded yet → a spinner; a temporary password to change → that screen alone;
 * then the shell.
 */
export function AuthGate({ children }: AuthGateProps) {
  const isAuthenticated = useIsAuthenticated();
  const user = useCurrentUserQuery();

  if (!isAuthenticated) return <FullScreen page={<LoginPage />} />;
  if (user.isPending) return <FullPageSpinner />;
  if (user.isError) return <UserLoadFailed onRetry={() => void user.refetch()} />;
  // the server answers nothing else until the administrator's temporary password is changed
  if (user.data.must_change_password) return <FullScreen page={<TemporaryPasswordPage />} />;
  return children;
}

/** A lazily loaded page shown instead of the shell. */
function FullScreen({ page }: { page: ReactNode }) {
  return (
    <ErrorBoundary>
      <Suspense fallback={<FullPageSpinner />}>{page}</Suspense>
    </ErrorBoundary>
  );
}

type UserLoadFailedProps = {
  onRetry: () => void;
};

/** The user record could not be loaded (server down): retry, or leave. */
function UserLoadFailed({ onRetry }: UserLoadFailedProps) {
  const { t } = useTranslation();
  const logout = useLogoutMutation();
  return (
    <Flex component="main" justify="center" align="center" style={{ minHeight: '100vh' }}>
      <StatusScreen
        status="error"
        title={t('auth.user.loadFailed')}
        data-testid="user-load-failed"
        extra={
          <Flex gap="small" justify="center">
            <Button onClick={() => logout.mutate()}>{t('common.logout')}</Button>
            <Button type="primary" onClick={onRetry}>
              {t('common.retry')}
            </Button>
          </Flex>
        }
      />
    </Flex>
  );
}
