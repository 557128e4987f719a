import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { UploadStager } from './upload-stager.ts';
import { badRequest } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';

/** One uploaded file as the multipart parser hands it over. */
export interface UploadPart {
  fieldname: string;
  filename: string;
  mimetype: string;
  file: Readable & { truncated?: boolean };
}

/** A multipart part as @fastify/multipart gives it: a file or a text field. */
export type MultipartPart = UploadPart | { type: 'field'; fieldname: string; value: unknown };

/** Refuses a file of any field but `attachments` (its stream is drained first). */
export function expectAttachmentsField(part: UploadPart): void {
  if (part.fieldname === 'attachments') return;
  part.file.resume();
  throw badRequest({ [part.fieldname]: [msg('unexpectedFileField')] });
}

/**
 * Reads a multipart request the way the chat does: files of the field `attachments` are staged
 * (the add_file limits), text fields collected; any other file field is refused.
 */
export async function readChatParts(
  parts: AsyncIterable<MultipartPart>,
  stager: Pick<UploadStager, 'stage'>,
): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  for await (const part of parts) {
    if ('file' in part) {
      expectAttachmentsField(part);
      await stager.stage(part.filename, part.file);
    } else {
      fields[part.fieldname] = part.value;
    }
  }
  return fields;
}

/** The text fields of a multipart request checked by a contract schema; a 400 in the DRF shape. */
export function parseMultipartFields<T extends z.ZodType>(
  schema: T,
  fields: Record<string, unknown>,
): z.output<T> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'non_field_errors');
    const message = issue.code === 'unrecognized_keys' ? 'Unknown field.' : issue.message;
    if (issue.code === 'unrecognized_keys') for (const k of issue.keys) (errors[k] ??= []).push(message);
    else (errors[field] ??= []).push(message);
  }
  throw badRequest(errors);
}
