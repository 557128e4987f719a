import { Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { ApiTokensCard } from '../../api-tokens/index.ts';
import { AuthenticatorAppCard } from '../components/AuthenticatorAppCard.tsx';
import { ChangePasswordCard } from '../components/ChangePasswordCard.tsx';

/**
 * /changepassword, the security page: the signed-in user changes their password, manages the
 * authenticator app and their personal API tokens, in cards of one width under one heading (the
 * page was titled "Change password" while holding all three).
 */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { token } = theme.useToken();
  useDocumentTitle(t('auth.security.title'));

  // The first history entry has the key 'default': there is nothing to go back to.
  const cancel = () => void (location.key === 'default' ? navigate('/dashboard') : navigate(-1));

  return (
    <Flex vertical align="center" gap="large" data-testid="security-page">
      <Typography.Title level={1} style={{ margin: 0, width: '100%', maxWidth: token.screenMD }}>
        {t('auth.security.title')}
      </Typography.Title>
      <ChangePasswordCard embedded onChanged={() => void navigate('/dashboard')} onCancel={cancel} />
      <AuthenticatorAppCard />
      <ApiTokensCard />
    </Flex>
  );
}
