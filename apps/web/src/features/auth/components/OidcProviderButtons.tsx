import { API_BASE } from '@soc/contracts';
import { Button, Flex, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePortalConfig } from '../../../shared/config/PortalConfigContext.tsx';
import { useOidcProvidersQuery } from '../api/useOidcProvidersQuery.ts';

/** Where the browser goes to start a sign-in with a provider. */
export const oidcStartUrl = (providerName: string): string =>
  `${API_BASE}/auth/oidc/${encodeURIComponent(providerName)}/start/`;

/**
 * "Sign in with" buttons of the configured identity providers, below the login form. Hidden
 * for brand variants with `hide_oidc_buttons` and when no provider is configured.
 */
export function OidcProviderButtons() {
  const { t } = useTranslation();
  const config = usePortalConfig();
  const hidden = config?.flags.hide_oidc_buttons ?? false;
  const providers = useOidcProvidersQuery(!hidden);
  const { token } = theme.useToken();

  if (hidden || !providers.data || providers.data.length === 0) return null;
  return (
    <Flex vertical gap="small" data-testid="oidc-providers" style={{ marginTop: token.marginLG }}>
      <Typography.Text type="secondary" id="oidc-providers-label">
        {t('auth.login.oidcLabel')}
      </Typography.Text>
      <Flex vertical gap="small" role="group" aria-labelledby="oidc-providers-label">
        {providers.data.map((provider) => (
          <Button key={provider.name} block href={oidcStartUrl(provider.name)}>
            {provider.name}
          </Button>
        ))}
      </Flex>
    </Flex>
  );
}
