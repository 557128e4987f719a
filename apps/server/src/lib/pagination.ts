import type { FastifyRequest } from 'fastify';

/** Stands in for the origin while the links are built relative (no PUBLIC_URL). */
const NO_ORIGIN = 'http://origin.invalid';

/**
 * Builds the links of a list answer from the request's path and query: absolute under
 * PUBLIC_URL when it is set, else relative to the server's root. Never from the Host header,
 * which the caller writes (issue 25, item 17): a forged one would put another site in the links.
 */
function linkBuilder(request: FastifyRequest, publicUrl: string | undefined) {
  const origin = publicUrl?.replace(/\/$/, '') ?? NO_ORIGIN;
  // concatenated, not resolved: a path that starts with `//` must not name a host
  const url = new URL(`${origin}/${request.url.replace(/^\/+/, '')}`);
  return (params: Record<string, number | string>): string => {
    const u = new URL(url);
    for (const [name, value] of Object.entries(params)) u.searchParams.set(name, String(value));
    return publicUrl ? u.toString() : `${u.pathname}${u.search}`;
  };
}

/** The URL of the request with `cursor` set: the next page of a cursor-paged answer (a `Link` header). */
export const cursorLink = (request: FastifyRequest, publicUrl: string | undefined, cursor: string): string =>
  linkBuilder(request, publicUrl)({ cursor });

/** The envelope's fields beside `total` and `results` (contracts' `pageOf`). */
export interface ListLinks {
  next: string | null;
  previous: string | null;
  total_exact: boolean;
}

/** A list that fits on one page: no links, an exact total. */
export const ONE_PAGE: ListLinks = { next: null, previous: null, total_exact: true };

/**
 * `next`/`previous` links of a limit/offset list, keeping every other query parameter. `exact`
 * false: `total` is a cap that counting stopped at, so a next page is offered past it.
 */
export function offsetLinks(
  request: FastifyRequest,
  publicUrl: string | undefined,
  total: number,
  limit: number,
  offset: number,
  exact = true,
): ListLinks {
  const link = linkBuilder(request, publicUrl);
  const at = (o: number) => link({ limit, offset: o });
  return {
    next: offset + limit < total || !exact ? at(offset + limit) : null,
    previous: offset > 0 ? at(Math.max(0, offset - limit)) : null,
    total_exact: exact,
  };
}

/** `next`/`previous` links of a page/page_size list. */
export function pageLinks(
  request: FastifyRequest,
  publicUrl: string | undefined,
  total: number,
  page: number,
  pageSize: number,
): ListLinks {
  const link = linkBuilder(request, publicUrl);
  const at = (p: number) => link({ page: p });
  return {
    next: page * pageSize < total ? at(page + 1) : null,
    previous: page > 1 ? at(page - 1) : null,
    total_exact: true,
  };
}

/** Escapes LIKE wildcards so that user text matches literally. */
export const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A list total: exact, or where counting stopped (`total` is then the cap, and there are more). */
export interface ListTotal {
  total: number;
  exact: boolean;
}

/** A count that stopped at `cap` + 1 rows, as a total. */
export const stoppedAt = (n: number, cap: number): ListTotal =>
  n > cap ? { total: cap, exact: false } : { total: n, exact: true };
