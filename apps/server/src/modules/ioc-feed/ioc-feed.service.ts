import { createHash } from 'node:crypto';
import type { IocFeedFormat, IocFeedQuery } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { badRequest } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import { effectiveSystems } from '../../lib/scope.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { feedCsv, feedText, stixBundle } from './ioc-feed.presenter.ts';
import type { IocFeedPosition, IocFeedRepository } from './ioc-feed.repository.ts';
import { createIocFeedRepository } from './ioc-feed.repository.ts';

/** A page of the feed, rendered. */
export interface IocFeedPage {
  body: string;
  /** Where the next page starts (the `cursor` of its link); null: the last page. */
  next: string | null;
}

/** What a poll needs before the feed is read: enough to answer 304. */
export interface IocFeedValidators {
  etag: string;
  /** ms; null when the caller's systems never had an IOC. */
  lastModified: number | null;
  /** Reads and renders the page (only when the client's copy is stale). */
  page(): Promise<IocFeedPage>;
}

/** Cursors are opaque to clients: base64url of the last key of the page before. */
export const encodeCursor = (p: IocFeedPosition): string =>
  Buffer.from(JSON.stringify([p.system_id, p.ioc_type, p.ioc])).toString('base64url');

function decodeCursor(cursor: string): IocFeedPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 3 &&
      (value[0] === null || Number.isSafeInteger(value[0])) &&
      typeof value[1] === 'string' &&
      typeof value[2] === 'string'
    ) {
      return { system_id: value[0] as number | null, ioc_type: value[1], ioc: value[2] };
    }
  } catch {
    // answered below
  }
  throw badRequest({ cursor: [msg('invalidFeedCursor')] });
}

/**
 * The IOC feed of the caller's systems (issue 29 §3). The validators come from the systems'
 * feed versions alone, so a poll whose copy is current costs one small indexed read; the page is
 * read only when it is not.
 */
export function createIocFeedService(
  { db }: { db: Db },
  repo: IocFeedRepository = createIocFeedRepository(db),
) {
  return {
    async feed(auth: AuthContext, query: IocFeedQuery): Promise<IocFeedValidators> {
      const systems = effectiveSystems(query, systemScope(auth));
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      const version = await repo.version(systems);
      // the systems in effect, not the filter as asked: another tenant's system id and a missing
      // one both leave the caller's scope empty and must give the same answer (tenant isolation)
      const { language: _language, system__in: _asked, ...shape } = query;
      const etag = createHash('sha256')
        .update(
          JSON.stringify({
            systems: systems === null ? '*' : [...systems].sort((a, b) => a - b),
            shape,
            version: [version.sum, version.rows],
          }),
        )
        .digest('base64url')
        .slice(0, 32);
      const format: IocFeedFormat = query.format;
      return {
        etag: `"${etag}"`,
        lastModified: version.changed_at,
        async page() {
          const bySystem = format !== 'txt';
          const rows = await repo.page({
            systems,
            types: query.ioc_type__in,
            statuses: query.status__in,
            since: query.since,
            bySystem,
            after,
            limit: query.limit,
          });
          const more = rows.length > query.limit;
          const shown = more ? rows.slice(0, query.limit) : rows;
          const last = shown.at(-1);
          const next =
            more && last
              ? encodeCursor({
                  system_id: bySystem ? last.system_id : null,
                  ioc_type: last.ioc_type,
                  ioc: last.ioc,
                })
              : null;
          const body =
            format === 'stix'
              ? stixBundle(shown, `${etag}`)
              : format === 'csv'
                ? feedCsv(shown, after === undefined)
                : feedText(shown);
          return { body, next };
        },
      };
    },
  };
}
export type IocFeedService = ReturnType<typeof createIocFeedService>;
