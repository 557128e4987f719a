import type { MfaChangeProof } from '@soc/contracts';
import { MFA_PIN_LENGTH } from '@soc/contracts';
import { Alert, Button, Card, Flex, Input, QRCode, Skeleton, Space, theme, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/shared/api/index.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useMfaStatusQuery } from '../api/useMfaStatusQuery.ts';
import {
  useTotpConfirmMutation,
  useTotpDisableMutation,
  useTotpSetupMutation,
} from '../api/useTotpMutations.ts';
import { MfaProofForm, mfaChangeError } from './MfaProofForm.tsx';

/** What the password (and code) form is open for. */
type ProofFor = 'setup' | 'disable' | null;

/**
 * The optional authenticator app (TOTP) of the profile. Setting it up, replacing it and turning
 * it off need the password and, while a factor is on, its current code; a new app replaces the
 * active one (or the SMS code at sign-in) only once confirmed with its first code.
 */
export function AuthenticatorAppCard() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const status = useMfaStatusQuery();
  const setup = useTotpSetupMutation();
  const confirm = useTotpConfirmMutation();
  const disable = useTotpDisableMutation();
  const [proofFor, setProofFor] = useState<ProofFor>(null);
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);

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
          setPinError(
            error instanceof ApiError && error.fieldErrors?.otp
              ? t('auth.mfa.wrongCode')
              : t('auth.totp.failed'),
          );
        },
      },
    );
  };

  const submitProof = (proof: MfaChangeProof) => {
    if (proofFor === 'setup') {
      setup.mutate(proof, { onSuccess: () => setProofFor(null) });
      return;
    }
    disable.mutate(proof, {
      onSuccess: () => {
        setProofFor(null);
        notifySuccess({ title: t('auth.totp.disabled') });
      },
    });
  };

  const closeProof = () => {
    setProofFor(null);
    setup.reset();
    disable.reset();
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
  else if (proofFor) {
    const failed = proofFor === 'setup' ? setup.error : disable.error;
    body = (
      <Flex vertical gap="middle">
        <Typography.Text type="secondary">
          {status.data.totp || status.data.sms ? t('auth.totp.proofWithCode') : t('auth.totp.proof')}
        </Typography.Text>
        <MfaProofForm
          status={status.data}
          submitLabel={
            proofFor === 'disable'
              ? t('auth.totp.turnOff')
              : status.data.totp
                ? t('auth.totp.replace')
                : t('auth.totp.setUp')
          }
          danger={proofFor === 'disable'}
          pending={setup.isPending || disable.isPending}
          error={failed ? mfaChangeError(failed, t('auth.totp.failed')) : null}
          onSubmit={submitProof}
          onCancel={closeProof}
        />
      </Flex>
    );
  } else if (setup.data)
    body = (
      <Flex vertical gap="middle" data-testid="totp-setup">
        {status.data.totp && <Alert type="info" showIcon title={t('auth.totp.replacing')} />}
        <Typography.Text>{t('auth.totp.scan')}</Typography.Text>
        <Flex gap="middle" align="center" wrap>
          <TotpQrCode uri={setup.data.otpauth_url} />
          <Flex vertical gap="small">
            <Typography.Text code copyable data-testid="totp-secret">
              {setup.data.secret}
            </Typography.Text>
            <Typography.Link href={setup.data.otpauth_url}>{t('auth.totp.openInApp')}</Typography.Link>
          </Flex>
        </Flex>
        <Typography.Text>{t('auth.totp.enterCode', { length: MFA_PIN_LENGTH })}</Typography.Text>
        <Input6
          value={pin}
          error={pinError}
          disabled={confirm.isPending}
          onPin={setPin}
          onComplete={submitPin}
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
  else if (status.data.totp)
    body = (
      <Flex vertical gap="middle">
        <Typography.Text data-testid="totp-on">{t('auth.totp.on')}</Typography.Text>
        <Space>
          <Button onClick={() => setProofFor('setup')} data-testid="totp-replace">
            {t('auth.totp.replace')}
          </Button>
          <Button danger onClick={() => setProofFor('disable')} data-testid="totp-disable">
            {t('auth.totp.turnOff')}
          </Button>
        </Space>
      </Flex>
    );
  else
    body = (
      <Flex vertical gap="middle">
        <Typography.Text type="secondary">
          {status.data.sms ? t('auth.totp.offWithSms') : t('auth.totp.off')}
        </Typography.Text>
        <div>
          <Button onClick={() => setProofFor('setup')} data-testid="totp-setup-start">
            {t('auth.totp.setUp')}
          </Button>
        </div>
      </Flex>
    );

  return (
    <Card style={{ width: '100%', maxWidth: token.screenMD }} data-testid="totp-card">
      <Typography.Title level={2} style={{ marginTop: 0, fontSize: token.fontSizeHeading4 }}>
        {t('auth.totp.title')}
      </Typography.Title>
      {body}
    </Card>
  );
}

/** Scanners read dark modules on a light ground: the code keeps the light theme's colours in both themes. */
const QR_COLORS = theme.getDesignToken();

type TotpQrCodeProps = {
  /** The otpauth:// URI of the new key, as the server returned it. */
  uri: string;
};

/** The new key as a QR code for the authenticator app to scan. */
function TotpQrCode({ uri }: TotpQrCodeProps) {
  const { t } = useTranslation();
  return (
    <QRCode
      type="svg"
      value={uri}
      color={QR_COLORS.colorText}
      bgColor={QR_COLORS.colorBgContainer}
      role="img"
      aria-label={t('auth.totp.qrLabel')}
      data-otpauth={uri}
      data-testid="totp-qr"
    />
  );
}

type Input6Props = {
  value: string;
  error: string | null;
  disabled: boolean;
  onPin: (value: string) => void;
  /** Called with a complete code. */
  onComplete: (value: string) => void;
};

/** The first code of the new app: submitted as soon as all digits are in. */
function Input6({ value, error, disabled, onPin, onComplete }: Input6Props) {
  const { t } = useTranslation();
  return (
    <Input.OTP
      length={MFA_PIN_LENGTH}
      value={value}
      formatter={(v) => v.replace(/\D/g, '')}
      status={error ? 'error' : undefined}
      disabled={disabled}
      aria-label={t('auth.mfa.pinLabel')}
      onInput={(cells) => onPin(cells.join(''))}
      onChange={(v) => {
        onPin(v);
        if (new RegExp(`^\\d{${MFA_PIN_LENGTH}}$`).test(v)) onComplete(v);
      }}
    />
  );
}
