import type { FastifyReply } from 'fastify';
import type { Attachment } from '@soc/contracts';
import type { FileStorage } from './file-storage.ts';

/** Whether a path segment can be an attachment id (anything else is a 404 without a query). */
export const isUuid = (id: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** What the API shows of a stored file's row (incident, task and other attachments). */
export interface StoredFileInfo {
  id: string;
  filename: string;
  size: number;
  contentType: string;
  created: Date;
}

/** A stored file as the API shows it, with its download link. */
export const presentStoredFile = (r: StoredFileInfo, link: string): Attachment => ({
  id: r.id,
  filename: r.filename,
  size: r.size,
  content_type: r.contentType,
  link,
  created: r.created.getTime(),
});

/** `attachment; filename="ascii"; filename*=UTF-8''percent-encoded` (RFC 6266 / RFC 5987). */
export function contentDisposition(filename: string, kind: 'attachment' | 'inline' = 'attachment'): string {
  // the quoted fallback must be printable ASCII
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A single `bytes=` range of a file of `size` bytes; null: serve the whole file; 'invalid': 416. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // several ranges or another unit: the whole file is a valid answer (RFC 9110 §14.2)
  if (!m) return header.trim().startsWith('bytes=') && header.includes(',') ? null : 'invalid';
  const [, a, b] = m;
  if (a === '' && b === '') return 'invalid';
  let start: number;
  let end: number;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
    if (b !== '' && Number(b) < start) return 'invalid';
  }
  if (start >= size) return 'invalid';
  return { start, end };
}

/** What sendStoredFile needs of a stored file's row (incident, task and other attachments). */
export interface StoredFileRow {
  filename: string;
  contentType: string;
  size: number;
  storageKey: string;
  sha256: string;
}

/**
 * Streams a stored file the caller may see: Content-Type, Content-Length, Content-Disposition,
 * Accept-Ranges and a single byte range (206 with Content-Range, 416 when unsatisfiable).
 * `headers` go with the file (the viewer's sandbox policy, say).
 */
export async function sendStoredFile(
  storage: FileStorage,
  file: StoredFileRow,
  rangeHeader: string | undefined,
  reply: FastifyReply,
  headers: Record<string, string> = {},
): Promise<FastifyReply> {
  const size = Number(file.size);
  const range = parseRange(rangeHeader, size);
  if (range === 'invalid') {
    return reply
      .status(416)
      .header('content-range', `bytes */${size}`)
      .send({ detail: 'Range not satisfiable.' });
  }
  void reply
    .header('content-type', file.contentType)
    .header('content-disposition', contentDisposition(file.filename))
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .header('etag', `"${file.sha256}"`)
    .headers(headers);
  if (!range) {
    return reply
      .status(200)
      .header('content-length', String(size))
      .send(await storage.open(file.storageKey));
  }
  return reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
    .header('content-length', String(range.end - range.start + 1))
    .send(await storage.openRange(file.storageKey, range.start, range.end));
}
