/** A file part of a multipart body. */
export interface MultipartFile {
  name: string;
  body: Buffer;
  /** The form field (default `attachments`, the field of comment and incident uploads). */
  field?: string;
  /** The part's content type (default `application/octet-stream`). */
  type?: string;
}

export const MULTIPART_BOUNDARY = '----soc-test-boundary';

/**
 * A multipart/form-data request for `app.inject`: text fields first, then files, as a browser's
 * FormData sends them. Spread the result into the inject options (`payload` and `headers`).
 */
export function multipart(
  fields: Record<string, string>,
  files: MultipartFile[] = [],
): { payload: Buffer; headers: { 'content-type': string } } {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${f.field ?? 'attachments'}"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      f.body,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${MULTIPART_BOUNDARY}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${MULTIPART_BOUNDARY}` },
  };
}
