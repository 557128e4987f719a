import type { ExternalLoginErrorCode } from '@soc/contracts';
import { Button, Flex, Result } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { FullPageSpinner } from '@/shared/ui/FullPageSpinner.tsx';
import { ApiError } from '@/shared/api/index.ts';
import { exchangeTicket } from '../api/useTicketExchangeMutation.ts';
import { pendingMfaState } from '../lib/pendingMfa.ts';

/** Failure codes the server puts into the callback URL (and `ticket`: the exchange failed), and their messages. */
const ERROR_KEYS = {
  no_account: 'auth.callback.noAccount',
  oidc_unavailable: 'auth.callback.unavailable',
  oidc_failed: 'auth.callback.failed',
  sso_failed: 'auth.callback.failed',
  other_browser: 'auth.callback.otherBrowser',
  email_unverified: 'auth.callback.emailUnverified',
  email_taken: 'auth.callback.emailTaken',
  ticket: 'auth.callback.expired',
} as const satisfies Record<ExternalLoginErrorCode | 'ticket', string>;
type CallbackError = keyof typeof ERROR_KEYS;

const isCallbackError = (value: string | null): value is CallbackError =>
  value !== null && Object.hasOwn(ERROR_KEYS, value);

/** A path inside the portal to open after sign-in; anything else opens the dashboard. */
const safeNext = (value: string | null): string =>
  value?.startsWith('/') && !value.startsWith('//') ? value : '/dashboard';

/**
 * The end of an OIDC or SSO sign-in (`/auth/callback?ticket=…&next=…`): the ticket is
 * exchanged for tokens, which are stored; then the requested page opens and the auth gate
 * loads the user (product §A7). Where the portal's second factor applies, the requested page
 * opens on the login screen's code step instead, which completes the sign-in.
 */
export function ExternalLoginCallbackPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const ticket = params.get('ticket');
  const serverError = params.get('error');
  const [error, setError] = useState<CallbackError | null>(() =>
    isCallbackError(serverError) ? serverError : ticket ? null : 'oidc_failed',
  );
  useDocumentTitle(t('auth.login.title'));

  useEffect(() => {
    if (!ticket || serverError) return;
    const next = safeNext(params.get('next'));
    let active = true;
    exchangeTicket(ticket).then(
      (result) => {
        if (!active) return;
        void navigate(next, {
          replace: true,
          state: result.kind === 'mfa-required' ? pendingMfaState(result.pending) : undefined,
        });
      },
      (failure: unknown) => {
        // 403: the ticket was issued to another browser (or its sign-in cookie was blocked)
        if (active)
          setError(failure instanceof ApiError && failure.status === 403 ? 'other_browser' : 'ticket');
      },
    );
    return () => {
      active = false;
    };
  }, [ticket, serverError, params, navigate]);

  if (!error) return <FullPageSpinner />;
  return (
    <Flex component="main" justify="center" align="center" style={{ minHeight: '100vh' }}>
      <Result
        status="error"
        title={t('auth.callback.title')}
        subTitle={t(ERROR_KEYS[error])}
        data-testid="login-callback-error"
        extra={
          <Button type="primary" onClick={() => void navigate('/dashboard', { replace: true })}>
            {t('auth.callback.backToLogin')}
          </Button>
        }
      />
    </Flex>
  );
}
