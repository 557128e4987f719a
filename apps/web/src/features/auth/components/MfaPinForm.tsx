import { MFA_PIN_LENGTH } from '@soc/contracts';
import { Button, Flex, Input, theme, Tooltip, Typography } from 'antd';
import type { OTPRef } from 'antd/es/input/OTP';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '@/shared/ui/visuallyHidden.ts';
import { formatCountdown } from '../lib/mfaErrors.ts';

/** How often the resend countdown is redrawn (product §A4: about every 300 ms). */
export const COUNTDOWN_TICK_MS = 300;

export type MfaPinFormProps = {
  /** Called once all 6 digits are entered. */
  onSubmit: (otp: string) => void;
  /** Leaves the second-factor step (the MFA state is reset). */
  onCancel: () => void;
  /** Requests a new code; offered only after the countdown. */
  onResend: () => void;
  /** A PIN check is running. */
  pending: boolean;
  /** A resend request is running. */
  resending: boolean;
  /** Message of the last failed check or resend, shown in a tooltip on the PIN; marks it invalid. */
  error: string | null;
  /** Epoch milliseconds from which another code may be requested. */
  resendAvailableAt: number;
  /** `totp`: the code comes from the user's authenticator app, so there is nothing to resend. */
  method?: 'sms' | 'totp';
};

const digitsOnly = (value: string) => value.replace(/\D/g, '');

/** Seconds left until `at`, redrawn every COUNTDOWN_TICK_MS while above zero. */
function useSecondsUntil(at: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const id = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= at) window.clearInterval(id);
    }, COUNTDOWN_TICK_MS);
    return () => window.clearInterval(id);
  }, [at]);
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** The 6-digit PIN entry of a sign-in with a second factor (product §A2, §A4). */
export function MfaPinForm({
  onSubmit,
  onCancel,
  onResend,
  pending,
  resending,
  error,
  resendAvailableAt,
  method = 'sms',
}: MfaPinFormProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [value, setValue] = useState('');
  const otpRef = useRef<OTPRef>(null);
  const secondsLeft = useSecondsUntil(resendAvailableAt);

  useEffect(() => {
    otpRef.current?.focus();
  }, []);

  // A refused PIN is cleared so that the next one can be typed straight away.
  useEffect(() => {
    if (error) {
      setValue('');
      otpRef.current?.focus();
    }
  }, [error]);

  return (
    <Flex vertical gap="middle" data-testid="mfa-form">
      <div>
        <Typography.Title level={2} style={{ fontSize: token.fontSizeHeading5, margin: 0 }}>
          {method === 'totp' ? t('auth.mfa.totpTitle') : t('auth.mfa.title')}
        </Typography.Title>
        <Typography.Text type="secondary" id="mfa-hint">
          {method === 'totp'
            ? t('auth.mfa.totpHint', { length: MFA_PIN_LENGTH })
            : t('auth.mfa.hint', { length: MFA_PIN_LENGTH })}
        </Typography.Text>
      </div>
      <Tooltip title={error} open={Boolean(error)} placement="bottom" color={token.colorError}>
        <Flex justify="center" data-testid="mfa-pin" aria-invalid={error ? true : undefined}>
          <Input.OTP
            ref={otpRef}
            length={MFA_PIN_LENGTH}
            value={value}
            formatter={digitsOnly}
            status={error ? 'error' : undefined}
            disabled={pending}
            autoComplete="one-time-code"
            aria-label={t('auth.mfa.pinLabel')}
            aria-describedby="mfa-hint"
            onInput={(cells) => setValue(cells.join(''))}
            onChange={(pin) => {
              setValue(pin);
              if (new RegExp(`^\\d{${MFA_PIN_LENGTH}}$`).test(pin)) onSubmit(pin);
            }}
          />
        </Flex>
      </Tooltip>
      {error && (
        // the tooltip is what sighted users see; screen readers hear the same text announced
        <span role="alert" style={visuallyHidden} data-testid="mfa-error">
          {error}
        </span>
      )}
      <Flex justify="space-between" align="center" gap="small" style={{ marginTop: token.marginSM }}>
        <Button onClick={onCancel} data-testid="mfa-cancel">
          {t('auth.mfa.cancel')}
        </Button>
        {method === 'sms' && (
          <Button
            type="link"
            onClick={onResend}
            disabled={secondsLeft > 0 || pending}
            loading={resending}
            data-testid="mfa-resend"
          >
            {secondsLeft > 0
              ? t('auth.mfa.resendIn', { time: formatCountdown(secondsLeft) })
              : t('auth.mfa.resend')}
          </Button>
        )}
      </Flex>
    </Flex>
  );
}
