import { MFA_PIN_LENGTH } from '@soc/contracts';
import { Alert, Button, Card, Flex, Form, Input, Skeleton, Space, theme, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/index.ts';
import { notifySuccess } from '../../../shared/ui/notifications.tsx';
import { useMfaStatusQuery } from '../api/useMfaStatusQuery.ts';
import {
  useTotpConfirmMutation,
  useTotpDisableMutation,
  useTotpSetupMutation,
} from '../api/useTotpMutations.ts';

/** The first server message of a field, if the failure carries one. */
const fieldMessage = (error: unknown, field: string): string | null =>
  error instanceof ApiError ? (error.fieldErrors?.[field]?.[0] ?? null) : null;

/**
 * The optional authenticator app (TOTP) of the profile: set up with a secret and a first code;
 * once on, it replaces the SMS code at sign-in. Turning it off needs the password.
 */
export function AuthenticatorAppCard() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const status = useMfaStatusQuery();
  const setup = useTotpSetupMutation();
  const confirm = useTotpConfirmMutation();
  const disable = useTotpDisableMutation();
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [password, setPassword] = useState('');

  const submitPin = (otp: string) => {
    setPinError(null);
    confirm.mutate(
      { otp },
      {
        onSuccess: () => {
          setup.reset();
          notifySuccess({ title: t('auth.totp.enabled') });
        },
        onError: (error) => {
          setPin('');
          setPinError(fieldMessage(error, 'otp') ? t('auth.mfa.wrongCode') : t('auth.totp.failed'));
        },
      },
    );
  };

  const submitDisable = () => {
    setPasswordError(null);
    disable.mutate(
      { password },
      {
        onSuccess: () => {
          setDisabling(false);
          setPassword('');
          notifySuccess({ title: t('auth.totp.disabled') });
        },
        onError: (error) =>
          setPasswordError(
            fieldMessage(error, 'password') ? t('auth.totp.wrongPassword') : t('auth.totp.failed'),
          ),
      },
    );
  };

  let body;
  if (status.isPending) body = <Skeleton active paragraph={{ rows: 2 }} />;
  else if (status.isError)
    body = (
      <Alert
        type="error"
        showIcon
        title={t('auth.totp.loadFailed')}
        action={<Button onClick={() => void status.refetch()}>{t('common.retry')}</Button>}
      />
    );
  else if (status.data.totp)
    body = (
      <Flex vertical gap="middle">
        <Typography.Text data-testid="totp-on">{t('auth.totp.on')}</Typography.Text>
        {disabling ? (
          <Form layout="vertical" onFinish={submitDisable} requiredMark={false}>
            <Form.Item
              label={t('auth.totp.password')}
              validateStatus={passwordError ? 'error' : undefined}
              help={passwordError}
            >
              <Input.Password
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                autoComplete="current-password"
                data-testid="totp-password"
              />
            </Form.Item>
            <Space>
              <Button onClick={() => setDisabling(false)}>{t('auth.mfa.cancel')}</Button>
              <Button danger htmlType="submit" loading={disable.isPending} disabled={!password}>
                {t('auth.totp.turnOff')}
              </Button>
            </Space>
          </Form>
        ) : (
          <div>
            <Button danger onClick={() => setDisabling(true)} data-testid="totp-disable">
              {t('auth.totp.turnOff')}
            </Button>
          </div>
        )}
      </Flex>
    );
  else if (setup.data)
    body = (
      <Flex vertical gap="middle" data-testid="totp-setup">
        <Typography.Text>{t('auth.totp.scan')}</Typography.Text>
        <Typography.Text code copyable data-testid="totp-secret">
          {setup.data.secret}
        </Typography.Text>
        <Typography.Link href={setup.data.otpauth_url}>{t('auth.totp.openInApp')}</Typography.Link>
        <Typography.Text>{t('auth.totp.enterCode', { length: MFA_PIN_LENGTH })}</Typography.Text>
        <Input.OTP
          length={MFA_PIN_LENGTH}
          value={pin}
          formatter={(value) => value.replace(/\D/g, '')}
          status={pinError ? 'error' : undefined}
          disabled={confirm.isPending}
          aria-label={t('auth.mfa.pinLabel')}
          onInput={(cells) => setPin(cells.join(''))}
          onChange={(value) => {
            setPin(value);
            if (/^\d{6}$/.test(value)) submitPin(value);
          }}
        />
        {pinError && (
          <Typography.Text type="danger" role="alert">
            {pinError}
          </Typography.Text>
        )}
        <div>
          <Button onClick={() => setup.reset()}>{t('auth.mfa.cancel')}</Button>
        </div>
      </Flex>
    );
  else
    body = (
      <Flex vertical gap="middle">
        <Typography.Text type="secondary">
          {status.data.sms ? t('auth.totp.offWithSms') : t('auth.totp.off')}
        </Typography.Text>
        <div>
          <Button onClick={() => setup.mutate()} loading={setup.isPending} data-testid="totp-setup-start">
            {t('auth.totp.setUp')}
          </Button>
        </div>
      </Flex>
    );

  return (
    <Card style={{ width: token.screenSM }} data-testid="totp-card">
      <Typography.Title level={2} style={{ marginTop: 0, fontSize: token.fontSizeHeading4 }}>
        {t('auth.totp.title')}
      </Typography.Title>
      {body}
    </Card>
  );
}
