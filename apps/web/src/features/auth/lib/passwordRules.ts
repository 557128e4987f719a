import { hasControlCharacter, isEntirelyNumeric, PASSWORD_MIN_LENGTH } from '@soc/contracts';
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';

/**
 * Client rules of the new password (product §A5, issue 25): required, 9+ characters, not only
 * digits or white space, no control characters. The strength check (zxcvbn against the user's
 * names) is the server's; its message shows on the field.
 */
export const newPasswordRules = (t: TFunction): FormRule[] => [
  { required: true, message: t('validation.required') },
  { min: PASSWORD_MIN_LENGTH, message: t('auth.changePassword.minLength', { min: PASSWORD_MIN_LENGTH }) },
  {
    validator: (_rule, value: unknown) =>
      typeof value === 'string' && value !== '' && isEntirelyNumeric(value)
        ? Promise.reject(new Error(t('auth.changePassword.numeric')))
        : Promise.resolve(),
  },
  {
    validator: (_rule, value: unknown) => {
      if (typeof value !== 'string' || value === '') return Promise.resolve();
      if (hasControlCharacter(value)) return Promise.reject(new Error(t('auth.changePassword.control')));
      if (value.trim() === '') return Promise.reject(new Error(t('auth.changePassword.blank')));
      return Promise.resolve();
    },
  },
];

/** Client rules of the confirmation: required and equal to the new password. */
export const confirmPasswordRules = (t: TFunction): FormRule[] => [
  { required: true, message: t('validation.required') },
  ({ getFieldValue }) => ({
    validator: (_rule, value: unknown) =>
      !value || value === getFieldValue('newPassword')
        ? Promise.resolve()
        : Promise.reject(new Error(t('auth.changePassword.mismatch'))),
  }),
];
