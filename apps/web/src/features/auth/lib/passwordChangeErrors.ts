import type { FieldMessages } from '@/shared/api/index.ts';
import { mapFieldErrors, type MappedFieldErrors } from '@/shared/api/index.ts';

/** Form field names of the change-password form. */
export type PasswordFormField = 'oldPassword' | 'newPassword' | 'confirm';

/** Server payload field → form field. */
const FIELD_BY_SERVER_NAME: Record<string, PasswordFormField> = {
  old_password: 'oldPassword',
  password: 'newPassword',
  confirmed_password: 'confirm',
};

/** Server messages split into those shown on a field and those shown above the form. */
export type MappedPasswordErrors = MappedFieldErrors<PasswordFormField>;

/**
 * Maps a 400 answer of PUT /auth/password_change/ onto the form: `old_password` messages go to
 * the old-password field (product §A5), the other known fields to theirs, and non-field or
 * unknown ones to the form-level alert.
 */
export const mapPasswordChangeErrors = (fieldErrors: FieldMessages): MappedPasswordErrors =>
  mapFieldErrors(fieldErrors, FIELD_BY_SERVER_NAME);
