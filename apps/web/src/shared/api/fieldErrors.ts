import { NON_FIELD_ERRORS, type FieldMessages } from './errors.ts';

/** Server messages split into those shown under a form field and those shown above the form. */
export interface MappedFieldErrors<F extends string> {
  fields: Array<{ name: F; errors: string[] }>;
  formErrors: string[];
}

/**
 * Maps a DRF-shaped 400 answer onto a form: each payload field's messages go under the form
 * field it maps to; non-field messages, and those of fields the form does not have (prefixed
 * with the field name), go to the form-level alert.
 */
export function mapFieldErrors<F extends string>(
  fieldErrors: FieldMessages,
  fieldByServerName: Readonly<Record<string, F>>,
): MappedFieldErrors<F> {
  const fields: MappedFieldErrors<F>['fields'] = [];
  const formErrors: string[] = [];
  for (const [serverName, messages] of Object.entries(fieldErrors)) {
    const name = fieldByServerName[serverName];
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
