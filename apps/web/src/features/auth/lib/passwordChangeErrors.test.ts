import { describe, expect, it } from 'vitest';
import { mapPasswordChangeErrors } from './passwordChangeErrors.ts';

describe('mapPasswordChangeErrors', () => {
  it('puts server fields on form fields and the rest on the form', () => {
    expect(
      mapPasswordChangeErrors({
        old_password: ['Wrong'],
        password: ['Too common'],
        confirmed_password: ['Must match'],
        non_field_errors: ['Try later'],
        other: ['Odd'],
      }),
    ).toEqual({
      fields: [
        { name: 'oldPassword', errors: ['Wrong'] },
        { name: 'newPassword', errors: ['Too common'] },
        { name: 'confirm', errors: ['Must match'] },
      ],
      formErrors: ['Try later', 'other: Odd'],
    });
  });
});
