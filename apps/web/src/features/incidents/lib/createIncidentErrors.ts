import { ApiError, NON_FIELD_ERRORS, type FieldMessages } from '../../../shared/api/index.ts';

/** Field names of the create-incident form (spec 000 §3 "Create-incident form"). */
export type CreateIncidentField =
  | 'issueType'
  | 'summary'
  | 'description'
  | 'system'
  | 'mainCategory'
  | 'additionalCategories'
  | 'priority'
  | 'attachments';

/** Payload field of POST /soc/incs/ → form field. */
const FIELD_BY_SERVER_NAME: Record<string, CreateIncidentField> = {
  system: 'system',
  summary: 'summary',
  issuetype: 'issueType',
  priority: 'priority',
  description: 'description',
  primary_category: 'mainCategory',
  secondary_category: 'additionalCategories',
};

/** Server messages split into those shown under a field and those shown above the buttons. */
export interface MappedCreateErrors {
  fields: Array<{ name: CreateIncidentField; errors: string[] }>;
  formErrors: string[];
}

/**
 * Maps a 400 answer of POST /soc/incs/ onto the form (spec 000 §5, §8): each payload field's
 * messages go under its form field; non-field messages, and those of fields the form does not
 * have, go to the form-level alert.
 */
export function mapCreateIncidentErrors(fieldErrors: FieldMessages): MappedCreateErrors {
  const fields: MappedCreateErrors['fields'] = [];
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

/**
 * The server's messages about a failed upload (POST add_file/): `{attachments: [...]}`, a
 * `{detail}` (413 and others) or other field messages. Empty when the answer carries none.
 */
export function uploadErrorMessages(error: unknown): string[] {
  if (!(error instanceof ApiError) || error.kind !== 'http') return [];
  if (error.detail) return [error.detail];
  const fields = error.fieldErrors;
  if (!fields) return [];
  return Object.entries(fields).flatMap(([, messages]) => messages);
}
