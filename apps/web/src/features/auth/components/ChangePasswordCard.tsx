import { Alert, Card, Form, theme, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, authStore, notifyApiError } from '@/shared/api/index.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { usePasswordChangeMutation } from '../api/usePasswordChangeMutation.ts';
import { mapPasswordChangeErrors } from '../lib/passwordChangeErrors.ts';
import { ChangePasswordForm, type ChangePasswordValues } from './ChangePasswordForm.tsx';

export type ChangePasswordCardProps = {
  /** Shown between the title and the form. */
  notice?: ReactNode;
  /** Called once the password was changed. */
  onChanged: () => void;
  onCancel: () => void;
  /** One card of the security page (a section under its heading), not a page of its own. */
  embedded?: boolean;
};

/**
 * The change-password form in its card: sends it, puts the server's messages on the fields. A
 * change ends every session of the user, this one too, so the app signs out after it.
 */
export function ChangePasswordCard({
  notice,
  onChanged,
  onCancel,
  embedded = false,
}: ChangePasswordCardProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [form] = Form.useForm<ChangePasswordValues>();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const mutation = usePasswordChangeMutation();

  const submit = (values: ChangePasswordValues) => {
    setFormErrors([]);
    mutation.mutate(
      { old_password: values.oldPassword, password: values.newPassword, confirmed_password: values.confirm },
      {
        onSuccess: () => {
          // the server ended every session, this one too: sign in again with the new password
          notifySuccess({ title: t('auth.changePassword.success') });
          onChanged();
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

  return (
    <Card
      style={
        embedded ? { width: '100%', maxWidth: token.screenMD } : { width: token.screenSM, maxWidth: '100%' }
      }
    >
      <Typography.Title
        level={embedded ? 2 : 1}
        style={{ marginTop: 0, fontSize: embedded ? token.fontSizeHeading4 : token.fontSizeHeading3 }}
      >
        {t('auth.changePassword.title')}
      </Typography.Title>
      {notice}
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
        onCancel={onCancel}
        pending={mutation.isPending}
        formErrors={formErrors}
      />
    </Card>
  );
}
