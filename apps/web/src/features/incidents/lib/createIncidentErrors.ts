import { ApiError, mapFieldErrors, type FieldMessages, type MappedFieldErrors } from '@/shared/api/index.ts';

/** Field names of the create-incident form (product §A3 "Create-incident form"). */
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
export type MappedCreateErrors = MappedFieldErrors<CreateIncidentField>;

/**
 * Maps a 400 answer of POST /soc/incs/ onto the form (product §A5, §A8): each payload field's
 * messages go under its form field; non-field messages, and those of fields the form does not
 * have, go to the form-level alert.
 */
export const mapCreateIncidentErrors = (fieldErrors: FieldMessages): MappedCreateErrors =>
  mapFieldErrors(fieldErrors, FIELD_BY_SERVER_NAME);

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
