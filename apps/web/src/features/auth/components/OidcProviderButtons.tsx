import { API_BASE } from '@soc/contracts';
import { Button, Flex, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { usePortalConfig } from '@/shared/config/PortalConfigContext.tsx';
import { useOidcProvidersQuery } from '../api/useOidcProvidersQuery.ts';

/** Where the browser goes to start a sign-in with a provider; `next` opens after it. */
export const oidcStartUrl = (providerName: string, next: string): string =>
  `${API_BASE}/auth/oidc/${encodeURIComponent(providerName)}/start/?${new URLSearchParams({ next }).toString()}`;

/** Single sign-on through the deployment's reverse proxy (it authenticates the user first). */
export const ssoStartUrl = (next: string): string =>
  `${API_BASE}/auth/sso/?${new URLSearchParams({ next }).toString()}`;

/**
 * "Sign in with" buttons below the login form: corporate single sign-on where the deployment
 * has it, and the configured OIDC providers (hidden for brand variants with `hide_oidc_buttons`).
 */
export function OidcProviderButtons() {
  const { t } = useTranslation();
  const config = usePortalConfig();
  const hidden = config?.flags.hide_oidc_buttons ?? false;
  const providers = useOidcProvidersQuery(!hidden);
  const { token } = theme.useToken();
  // the login screen shows at whatever URL was opened: come back to it
  const location = useLocation();
  const next = `${location.pathname}${location.search}`;

  const shown = hidden ? [] : (providers.data ?? []);
  const sso = config?.sso_enabled ?? false;
  if (shown.length === 0 && !sso) return null;
  return (
    <Flex vertical gap="small" data-testid="oidc-providers" style={{ marginTop: token.marginLG }}>
      <Typography.Text type="secondary" id="oidc-providers-label">
        {t('auth.login.oidcLabel')}
      </Typography.Text>
      <Flex vertical gap="small" role="group" aria-labelledby="oidc-providers-label">
        {sso && (
          <Button block href={ssoStartUrl(next)} data-testid="sso-login">
            {t('auth.login.sso')}
          </Button>
        )}
        {shown.map((provider) => (
          <Button key={provider.name} block href={oidcStartUrl(provider.name, next)}>
            {provider.name}
          </Button>
        ))}
      </Flex>
    </Flex>
  );
}
