import type { TokenObtainRequest } from '@soc/contracts';
import { Alert, Card, Flex, Layout, Space, theme, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authStore } from '../../../shared/api/index.ts';
import { usePortalName } from '../../../shared/config/PortalConfigContext.tsx';
import { useDocumentTitle } from '../../../shared/hooks/useDocumentTitle.ts';
import { BrandLogo } from '../../../shared/ui/BrandLogo.tsx';
import { LanguageSwitch } from '../../../shared/ui/LanguageSwitch.tsx';
import { ThemeSwitch } from '../../../shared/ui/ThemeSwitch.tsx';
import { useLoginMutation } from '../api/useLoginMutation.ts';
import { LoginForm } from '../components/LoginForm.tsx';
import { OidcProviderButtons } from '../components/OidcProviderButtons.tsx';
import { loginErrorMessage } from '../lib/loginErrorMessage.ts';

/**
 * The login screen, shown at any URL while logged out; after sign-in the same URL opens.
 * Sign-in is a sequence of steps; today only the password step exists, so a user with a
 * second factor is told that it is required (the PIN step of spec 000 §4 plugs in here).
 */
export function LoginPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const portalName = usePortalName();
  const loginMutation = useLoginMutation();
  const [error, setError] = useState<string | null>(null);
  // The server refused to renew the session: say so, or the login screen looks like a glitch.
  const [sessionEnded, setSessionEnded] = useState(() => authStore.lastLogoutReason() === 'forced');
  useDocumentTitle(t('auth.login.title'));

  const submit = (credentials: TokenObtainRequest) => {
    setError(null);
    setSessionEnded(false);
    loginMutation.mutate(credentials, {
      onSuccess: (result) => {
        if (result.kind === 'mfa-required') setError(t('auth.login.mfaRequired'));
      },
      onError: (failure) => setError(loginErrorMessage(failure, t)),
    });
  };

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{
          background: 'transparent',
          display: 'flex',
          justifyContent: 'flex-end',
          alignItems: 'center',
        }}
      >
        <Space size="middle">
          <LanguageSwitch />
          <ThemeSwitch />
        </Space>
      </Layout.Header>
      <Layout.Content>
        <Flex justify="center" align="flex-start" style={{ paddingBlock: token.paddingXL }}>
          <Card style={{ width: token.screenXS }} data-testid="login-card">
            <Flex vertical align="center" gap="small" style={{ marginBottom: token.marginLG }}>
              <BrandLogo size="large" showName={false} />
              <Typography.Title
                level={1}
                style={{ margin: 0, fontSize: token.fontSizeHeading3, textAlign: 'center' }}
              >
                {portalName}
              </Typography.Title>
              <Typography.Text type="secondary">{t('auth.login.title')}</Typography.Text>
            </Flex>
            {sessionEnded && (
              <Alert
                type="info"
                showIcon
                title={t('auth.login.sessionEnded')}
                data-testid="session-ended"
                style={{ marginBottom: token.marginLG }}
              />
            )}
            <LoginForm onSubmit={submit} pending={loginMutation.isPending} error={error} />
            <OidcProviderButtons />
          </Card>
        </Flex>
      </Layout.Content>
    </Layout>
  );
}
