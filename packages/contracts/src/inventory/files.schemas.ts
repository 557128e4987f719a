import { z } from 'zod';

/**
 * The file viewer (product §B2 File viewer, §7 Files). One path scheme names every file the
 * portal serves: `<kind>/<owner id>/<file id>`, e.g. `incidents/10042/<attachment uuid>` or
 * `instructions/12/34`. The web route is `/files/download/<path>`; the API is
 * `GET /soc/files/<path>/` (name) and `GET /soc/files/<path>/download/` (body).
 */
export const FILE_KINDS = ['incidents', 'instructions', 'response_instructions', 'articles'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** Texts at least this long are not previewed: they download in the background (product §B9). */
export const TEXT_PREVIEW_LIMIT = 6_553_600;

/** The viewer's web route prefix (product §B2). */
export const FILE_VIEWER_PREFIX = '/files/download/';

/** The viewer path of an incident attachment. */
export const incidentFilePath = (incidentKey: number, attachmentId: string) =>
  `incidents/${incidentKey}/${attachmentId}`;

/** GET /soc/files/{path}/ (product §B3 File response). */
export const FileInfoSchema = z.object({
  filename: z.string(),
  content_type: z.string(),
  size: z.number().int().nonnegative(),
});
export type FileInfo = z.infer<typeof FileInfoSchema>;
