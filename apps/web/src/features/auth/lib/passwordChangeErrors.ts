import type { FieldMessages } from '../../../shared/api/index.ts';
import { NON_FIELD_ERRORS } from '../../../shared/api/index.ts';

/** Form field names of the change-password form. */
export type PasswordFormField = 'oldPassword' | 'newPassword' | 'confirm';

/** Server payload field → form field. */
const FIELD_BY_SERVER_NAME: Record<string, PasswordFormField> = {
  old_password: 'oldPassword',
  password: 'newPassword',
  confirmed_password: 'confirm',
};

/** Server messages split into those shown on a field and those shown above the form. */
export interface MappedPasswordErrors {
  fields: Array<{ name: PasswordFormField; errors: string[] }>;
  formErrors: string[];
}

/**
 * Maps a 400 answer of PUT /auth/password_change/ onto the form: `old_password` messages go to
 * the old-password field (spec 000 §5), the other known fields to theirs, and non-field or
 * unknown ones to the form-level alert.
 */
export function mapPasswordChangeErrors(fieldErrors: FieldMessages): MappedPasswordErrors {
  const fields: MappedPasswordErrors['fields'] = [];
  const formErrors: string[] = [];
  for (const [serverName, messages] of Object.entries(fieldErrors)) {
    const name = FIELD_BY_SERVER_NAME[serverName];
    if (name) fields.push({ name, errors: messages });
    else
      formErrors.push(
        ...messages.map((message) =>
          serverName === NON_FIELD_ERRORS ? message : `${serverName}: ${message}`,
        ),
      );
  }
  return { fields, formErrors };
}
