/** The validators of an answer: an entity tag (quoted) and when it last changed (ms), if known. */
export interface Validators {
  etag: string;
  lastModified: number | null;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/**
 * Whether a GET's preconditions (RFC 9110 §13.2.2) say the client's copy is current, so that the
 * answer is 304: If-None-Match when the request has it (weak comparison, `*` or a list), else
 * If-Modified-Since (HTTP dates have whole seconds). An origin server evaluates them whatever
 * `Cache-Control: no-cache` the request carries: that directive is for caches on the way, and
 * clients that follow the Fetch standard send it with every conditional request.
 */
export function notModified(
  headers: { 'if-none-match'?: string | undefined; 'if-modified-since'?: string | undefined },
  current: Validators,
): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() === '*') return true;
    const mine = opaque(current.etag);
    return ifNoneMatch.split(',').some((tag) => opaque(tag) === mine);
  }
  const ifModifiedSince = headers['if-modified-since'];
  if (ifModifiedSince === undefined || current.lastModified === null) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && Math.floor(current.lastModified / 1000) * 1000 <= since;
}
