import { LockOutlined, UserOutlined } from '@ant-design/icons';
import type { TokenObtainRequest } from '@soc/contracts';
import { Alert, Button, Form, Input, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRevalidateOnLanguageChange } from '@/shared/hooks/useRevalidateOnLanguageChange.ts';

export type LoginFormProps = {
  /** Called with the trimmed username and the password once client validation passes. */
  onSubmit: (credentials: TokenObtainRequest) => void;
  /** A sign-in request is running: the button shows progress and ignores clicks. */
  pending: boolean;
  /** Message of the last failure, shown under the form (never as a toast, product §A8). */
  error: string | null;
};

interface LoginFormValues {
  username: string;
  password: string;
}

/** Username and password form of the login screen. */
export function LoginForm({ onSubmit, pending, error }: LoginFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LoginFormValues>();
  const { token } = theme.useToken();
  useRevalidateOnLanguageChange(form);

  return (
    <>
      <Form<LoginFormValues>
        form={form}
        name="login"
        layout="vertical"
        requiredMark={false}
        data-testid="login-form"
        onFinish={(values) => onSubmit({ username: values.username.trim(), password: values.password })}
      >
        <Form.Item
          label={t('auth.login.username')}
          name="username"
          rules={[{ required: true, whitespace: true, message: t('auth.login.usernameRequired') }]}
        >
          <Input
            prefix={<UserOutlined aria-hidden />}
            autoComplete="username"
            autoFocus
            data-testid="login-username"
          />
        </Form.Item>
        <Form.Item
          label={t('auth.login.password')}
          name="password"
          rules={[{ required: true, message: t('auth.login.passwordRequired') }]}
        >
          <Input.Password
            prefix={<LockOutlined aria-hidden />}
            autoComplete="current-password"
            data-testid="login-password"
          />
        </Form.Item>
        <Form.Item style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" block loading={pending} data-testid="login-submit">
            {t('auth.login.submit')}
          </Button>
        </Form.Item>
      </Form>
      {error && (
        <Alert
          type="error"
          showIcon
          title={error}
          role="alert"
          data-testid="login-error"
          style={{ marginTop: token.marginMD }}
        />
      )}
    </>
  );
}
