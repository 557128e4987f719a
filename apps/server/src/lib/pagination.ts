import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';

/** Origin of absolute links in list answers: PUBLIC_URL, else the request's own. */
export function requestOrigin(request: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl.replace(/\/$/, '');
  return `${request.protocol}://${request.host}`;
}

/** `next`/`previous` links of a limit/offset list, keeping every other query parameter. */
export function offsetLinks(
  request: FastifyRequest,
  publicUrl: string | undefined,
  total: number,
  limit: number,
  offset: number,
): { next: string | null; previous: string | null } {
  const url = new URL(request.url, requestOrigin(request, publicUrl));
  const at = (o: number) => {
    const u = new URL(url);
    u.searchParams.set('limit', String(limit));
    u.searchParams.set('offset', String(o));
    return u.toString();
  };
  return {
    next: offset + limit < total ? at(offset + limit) : null,
    previous: offset > 0 ? at(Math.max(0, offset - limit)) : null,
  };
}

/** `next`/`previous` links of a page/page_size list. */
export function pageLinks(
  request: FastifyRequest,
  publicUrl: string | undefined,
  total: number,
  page: number,
  pageSize: number,
): { next: string | null; previous: string | null } {
  const url = new URL(request.url, requestOrigin(request, publicUrl));
  const at = (p: number) => {
    const u = new URL(url);
    u.searchParams.set('page', String(p));
    return u.toString();
  };
  return {
    next: page * pageSize < total ? at(page + 1) : null,
    previous: page > 1 ? at(page - 1) : null,
  };
}

/** Escapes LIKE wildcards so that user text matches literally. */
export const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Values as a comma-separated list of bind parameters, for `IN (…)`. */
export const sqlList = (values: readonly (string | number)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
