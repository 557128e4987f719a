import { Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { ApiTokensCard } from '../../api-tokens/index.ts';
import { AuthenticatorAppCard } from '../components/AuthenticatorAppCard.tsx';
import { ChangePasswordCard } from '../components/ChangePasswordCard.tsx';

/**
 * /changepassword: the signed-in user changes their password, manages the authenticator app and
 * their personal API tokens.
 */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  useDocumentTitle(t('auth.changePassword.title'));

  // The first history entry has the key 'default': there is nothing to go back to.
  const cancel = () => void (location.key === 'default' ? navigate('/dashboard') : navigate(-1));

  return (
    <Flex vertical align="center" gap="large">
      <ChangePasswordCard onChanged={() => void navigate('/dashboard')} onCancel={cancel} />
      <AuthenticatorAppCard />
      <ApiTokensCard />
    </Flex>
  );
}
