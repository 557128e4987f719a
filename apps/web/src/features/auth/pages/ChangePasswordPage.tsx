import { Alert, Card, Flex, Form, theme, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ApiError, authStore, notifyApiError } from '../../../shared/api/index.ts';
import { useDocumentTitle } from '../../../shared/hooks/useDocumentTitle.ts';
import { notifySuccess } from '../../../shared/ui/notifications.tsx';
import { usePasswordChangeMutation } from '../api/usePasswordChangeMutation.ts';
import { ApiTokensCard } from '../../api-tokens/components/ApiTokensCard.tsx';
import { AuthenticatorAppCard } from '../components/AuthenticatorAppCard.tsx';
import { ChangePasswordForm, type ChangePasswordValues } from '../components/ChangePasswordForm.tsx';
import { mapPasswordChangeErrors } from '../lib/passwordChangeErrors.ts';

/**
 * /changepassword: the signed-in user changes their password, manages the authenticator app and
 * their personal API tokens.
 */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const location = useLocation();
  const [form] = Form.useForm<ChangePasswordValues>();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const mutation = usePasswordChangeMutation();
  useDocumentTitle(t('auth.changePassword.title'));

  const submit = (values: ChangePasswordValues) => {
    setFormErrors([]);
    mutation.mutate(
      { old_password: values.oldPassword, password: values.newPassword, confirmed_password: values.confirm },
      {
        onSuccess: () => {
          // the server ended every session, this one too: sign in again with the new password
          notifySuccess({ title: t('auth.changePassword.success') });
          void navigate('/dashboard');
          authStore.clear('logout');
        },
        onError: (error) => {
          const fieldErrors = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
          if (!fieldErrors) {
            notifyApiError(error, t('auth.changePassword.failed'));
            return;
          }
          const mapped = mapPasswordChangeErrors(fieldErrors);
          form.setFields(mapped.fields);
          setFormErrors(mapped.formErrors);
        },
      },
    );
  };

  // The first history entry has the key 'default': there is nothing to go back to.
  const cancel = () => void (location.key === 'default' ? navigate('/dashboard') : navigate(-1));

  return (
    <Flex vertical align="center" gap="large">
      <Card style={{ width: token.screenSM }}>
        <Typography.Title level={1} style={{ marginTop: 0, fontSize: token.fontSizeHeading3 }}>
          {t('auth.changePassword.title')}
        </Typography.Title>
        <Alert
          type="warning"
          showIcon
          title={t('auth.changePassword.signOutNotice')}
          style={{ marginBottom: token.marginLG }}
          data-testid="cp-sign-out-notice"
        />
        <ChangePasswordForm
          form={form}
          onSubmit={submit}
          onCancel={cancel}
          pending={mutation.isPending}
          formErrors={formErrors}
        />
      </Card>
      <AuthenticatorAppCard />
      <ApiTokensCard />
    </Flex>
  );
}
