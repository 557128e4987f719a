import { Button, Flex, Form, Input, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRevalidateOnLanguageChange } from '@/shared/hooks/useRevalidateOnLanguageChange.ts';
import { confirmPasswordRules, newPasswordRules } from '../lib/passwordRules.ts';
import { FormErrorAlert } from '@/shared/ui/FormErrorAlert.tsx';

/** Values of the change-password form. */
export interface ChangePasswordValues {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

export type ChangePasswordFormProps = {
  /** The form instance, so that the page can put server messages on the fields. */
  form: FormInstance<ChangePasswordValues>;
  /** Called once client validation passes. */
  onSubmit: (values: ChangePasswordValues) => void;
  onCancel: () => void;
  /** The request is running. */
  pending: boolean;
  /** Server messages that belong to no field, shown above the buttons. */
  formErrors: string[];
};

/** Field names whose messages may come from the server (kept on a language switch). */
const SERVER_FIELDS = new Set(['oldPassword']);

/** Old password, new password and confirmation, with the client rules of product §A5. */
export function ChangePasswordForm({
  form,
  onSubmit,
  onCancel,
  pending,
  formErrors,
}: ChangePasswordFormProps) {
  const { t } = useTranslation();
  useRevalidateOnLanguageChange(form, SERVER_FIELDS);

  return (
    <Form<ChangePasswordValues>
      form={form}
      name="change-password"
      layout="vertical"
      requiredMark={false}
      onFinish={onSubmit}
      data-testid="change-password-form"
    >
      <Form.Item
        label={t('auth.changePassword.oldPassword')}
        name="oldPassword"
        rules={[{ required: true, message: t('validation.required') }]}
      >
        <Input.Password autoComplete="current-password" data-testid="cp-old" />
      </Form.Item>
      <Form.Item label={t('auth.changePassword.newPassword')} name="newPassword" rules={newPasswordRules(t)}>
        <Input.Password autoComplete="new-password" data-testid="cp-new" />
      </Form.Item>
      <Form.Item
        label={t('auth.changePassword.confirm')}
        name="confirm"
        dependencies={['newPassword']}
        rules={confirmPasswordRules(t)}
      >
        <Input.Password autoComplete="new-password" data-testid="cp-confirm" />
      </Form.Item>
      <FormErrorAlert messages={formErrors} testId="cp-form-error" />
      <Flex gap="small" justify="flex-end">
        <Button onClick={onCancel} data-testid="cp-cancel">
          {t('auth.changePassword.cancel')}
        </Button>
        <Button type="primary" htmlType="submit" loading={pending} data-testid="cp-submit">
          {t('auth.changePassword.submit')}
        </Button>
      </Flex>
    </Form>
  );
}
