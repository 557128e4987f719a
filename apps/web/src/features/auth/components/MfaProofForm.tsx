import type { MfaChangeProof, MfaStatus } from '@soc/contracts';
import { MFA_PIN_LENGTH } from '@soc/contracts';
import { Alert, Button, Flex, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/shared/api/index.ts';
import { useMfaChangeCodeMutation } from '../api/useTotpMutations.ts';

export type MfaProofFormProps = {
  /** The factors on now: with one on, its current code is asked for too. */
  status: MfaStatus;
  /** Label of the submit button (what the proof allows). */
  submitLabel: string;
  /** The submit changes something that cannot be undone by Cancel (turning off): red button. */
  danger?: boolean;
  pending: boolean;
  /** The server's answer to the last try, shown above the buttons. */
  error: string | null;
  onSubmit: (proof: MfaChangeProof) => void;
  onCancel: () => void;
};

/** The message of a refused change: the server's own (ru/en) where it gave one. */
export const mfaChangeError = (error: unknown, fallback: string): string =>
  error instanceof ApiError &&
  error.detail &&
  (error.status === 400 || error.status === 403 || error.status === 429)
    ? error.detail
    : fallback;

/**
 * The proof a change of second factors needs: the password and, while a factor is on, its
 * current code (the authenticator app's, or one sent by SMS on request).
 */
export function MfaProofForm({
  status,
  submitLabel,
  danger,
  pending,
  error,
  onSubmit,
  onCancel,
}: MfaProofFormProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const sendCode = useMfaChangeCodeMutation();
  const needsCode = status.totp || status.sms;
  const bySms = status.sms && !status.totp;
  const ready = password.length > 0 && (!needsCode || otp.length === MFA_PIN_LENGTH);

  return (
    <Form
      layout="vertical"
      requiredMark={false}
      onFinish={() => onSubmit(needsCode ? { password, otp } : { password })}
      data-testid="mfa-proof-form"
    >
      <Form.Item label={t('auth.totp.password')}>
        <Input.Password
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
          data-testid="totp-password"
        />
      </Form.Item>
      {needsCode && (
        <Form.Item label={bySms ? t('auth.totp.smsCode') : t('auth.totp.appCode')}>
          <Flex vertical gap="small">
            <Input.OTP
              length={MFA_PIN_LENGTH}
              value={otp}
              formatter={(value) => value.replace(/\D/g, '')}
              aria-label={t('auth.mfa.pinLabel')}
              onChange={setOtp}
              data-testid="totp-current-code"
            />
            {bySms && (
              <Flex align="center" gap="small">
                <Button
                  onClick={() => sendCode.mutate()}
                  loading={sendCode.isPending}
                  data-testid="mfa-send-code"
                >
                  {t('auth.totp.sendCode')}
                </Button>
                {sendCode.isSuccess && (
                  <Typography.Text type="secondary">{t('auth.totp.codeSent')}</Typography.Text>
                )}
                {sendCode.isError && (
                  <Typography.Text type="danger">
                    {mfaChangeError(sendCode.error, t('auth.totp.failed'))}
                  </Typography.Text>
                )}
              </Flex>
            )}
          </Flex>
        </Form.Item>
      )}
      {error && (
        <Form.Item>
          <Alert type="error" showIcon title={error} data-testid="mfa-proof-error" role="alert" />
        </Form.Item>
      )}
      <Space>
        <Button onClick={onCancel}>{t('auth.mfa.cancel')}</Button>
        <Button
          type="primary"
          danger={danger}
          htmlType="submit"
          loading={pending}
          disabled={!ready}
          data-testid="mfa-proof-submit"
        >
          {submitLabel}
        </Button>
      </Space>
    </Form>
  );
}
