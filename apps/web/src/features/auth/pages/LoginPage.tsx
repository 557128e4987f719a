import { MFA_DEFAULT_TIMEOUT_S, type TokenObtainRequest } from '@soc/contracts';
import { Alert, Card, Flex, Layout, Space, theme, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { authStore, type TokenType } from '@/shared/api/index.ts';
import { usePortalName } from '@/shared/config/PortalConfigContext.tsx';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { BrandLogo } from '@/shared/ui/BrandLogo.tsx';
import { LanguageSwitch } from '@/shared/ui/LanguageSwitch.tsx';
import { ThemeSwitch } from '@/shared/ui/ThemeSwitch.tsx';
import { useLoginMutation } from '../api/useLoginMutation.ts';
import { useMfaChallengeMutation } from '../api/useMfaChallengeMutation.ts';
import { useMfaObtainMutation } from '../api/useMfaObtainMutation.ts';
import { LoginForm } from '../components/LoginForm.tsx';
import { MfaPinForm } from '../components/MfaPinForm.tsx';
import { mfaFailure } from '../lib/mfaErrors.ts';
import { OidcProviderButtons } from '../components/OidcProviderButtons.tsx';
import { loginErrorMessage } from '../lib/loginErrorMessage.ts';
import { pendingMfaFrom } from '../lib/pendingMfa.ts';

/** A sign-in waiting for its second factor (product §A3: mfa token and timeToGetNextMfaToken). */
interface MfaState {
  token: string;
  method: 'sms' | 'totp';
  /** Epoch milliseconds from which another code may be requested. */
  resendAvailableAt: number;
  /** How the tokens are stored: the password flow's, or those of an OIDC/SSO sign-in. */
  tokenType: TokenType;
}

const resendAt = (seconds: number | null | undefined) =>
  Date.now() + (seconds ?? MFA_DEFAULT_TIMEOUT_S) * 1000;

/**
 * The login screen, shown at any URL while logged out; after sign-in the same URL opens.
 * Sign-in is a sequence of steps: the password, then, for users with a second factor, the
 * 6-digit PIN sent by SMS (product §A4). An OIDC or SSO sign-in that still needs the portal's
 * second factor arrives here with it pending (location state) and starts at the PIN.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const portalName = usePortalName();
  const loginMutation = useLoginMutation();
  const mfaObtain = useMfaObtainMutation();
  const mfaChallenge = useMfaChallengeMutation();
  const [error, setError] = useState<string | null>(null);
  const location = useLocation();
  const [mfa, setMfa] = useState<MfaState | null>(() => {
    const pending = pendingMfaFrom(location.state);
    return (
      pending && {
        token: pending.mfaToken,
        method: pending.method,
        resendAvailableAt: resendAt(pending.challengeTimeoutSeconds),
        tokenType: pending.tokenType,
      }
    );
  });
  const [pinError, setPinError] = useState<string | null>(null);
  // The server refused to renew the session: say so, or the login screen looks like a glitch.
  const [sessionEnded, setSessionEnded] = useState(() => authStore.lastLogoutReason() === 'forced');
  useDocumentTitle(t('auth.login.title'));

  const submit = (credentials: TokenObtainRequest) => {
    setError(null);
    setSessionEnded(false);
    loginMutation.mutate(credentials, {
      onSuccess: (result) => {
        if (result.kind === 'mfa-required') {
          setPinError(null);
          setMfa({
            token: result.mfaToken,
            method: result.method,
            resendAvailableAt: resendAt(result.challengeTimeoutSeconds),
            tokenType: 'SOCPortal',
          });
        }
      },
      onError: (failure) => {
        // the password was right but no code could be sent: the MFA texts say so
        const mfaOutcome = mfaFailure(failure, t);
        setError(mfaOutcome.resetMfa ? mfaOutcome.message : loginErrorMessage(failure, t));
      },
    });
  };

  const resetMfa = () => {
    setMfa(null);
    setPinError(null);
  };

  /** A failed check or resend: stay on the PIN with the message, or start over on a new-token error. */
  const failMfa = (failure: unknown) => {
    const outcome = mfaFailure(failure, t);
    if (outcome.resetMfa) {
      resetMfa();
      setError(outcome.message);
      return;
    }
    setPinError(outcome.message);
    if (outcome.retryAfterSeconds !== null) {
      setMfa((current) => current && { ...current, resendAvailableAt: resendAt(outcome.retryAfterSeconds) });
    }
  };

  const submitPin = (otp: string) => {
    if (!mfa) return;
    setPinError(null);
    mfaObtain.mutate(
      { input: { mfa_token: mfa.token, otp }, tokenType: mfa.tokenType },
      { onError: failMfa },
    );
  };

  const resend = () => {
    if (!mfa) return;
    setPinError(null);
    mfaChallenge.mutate(
      { mfa_token: mfa.token },
      {
        onSuccess: (answer) =>
          setMfa(
            (current) =>
              current && {
                ...current,
                token: answer.mfa_token,
                method: 'sms',
                resendAvailableAt: resendAt(answer.generate_challenge_timeout),
              },
          ),
        onError: failMfa,
      },
    );
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
            {mfa ? (
              <MfaPinForm
                onSubmit={submitPin}
                onCancel={resetMfa}
                onResend={resend}
                pending={mfaObtain.isPending}
                resending={mfaChallenge.isPending}
                error={pinError}
                resendAvailableAt={mfa.resendAvailableAt}
                method={mfa.method}
              />
            ) : (
              <>
                <LoginForm onSubmit={submit} pending={loginMutation.isPending} error={error} />
                <OidcProviderButtons />
              </>
            )}
          </Card>
        </Flex>
      </Layout.Content>
    </Layout>
  );
}
