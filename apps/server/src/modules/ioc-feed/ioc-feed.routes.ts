import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FieldErrorsSchema, IOC_FEED_CONTENT_TYPES, IOC_FEED_PATH, IocFeedQuerySchema } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { notModified } from '../../lib/conditional.ts';
import { cursorLink } from '../../lib/pagination.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { IocFeedService } from './ioc-feed.service.ts';

const FILE_NAMES = { stix: 'iocs.json', csv: 'iocs.csv', txt: 'iocs.txt' } as const;

/** `/api/v0/soc/iocs/feed/`: the IOCs of the caller's incidents for blocking tools (issue 29 §3). */
export const iocFeedRoutes: FastifyPluginAsyncZod<{ iocFeed: IocFeedService; config: Config }> = async (
  app,
  { iocFeed, config },
) => {
  app.get(
    IOC_FEED_PATH,
    {
      config: { costLimit: 'feed' },
      schema: {
        operationId: 'getIocFeed',
        tags: ['iocs'],
        summary: 'The IOCs of the caller’s incidents as a STIX 2.1 bundle, CSV or plain text',
        description:
          'For firewalls, EDRs and TIPs that poll with a personal API token (`Authorization: Bearer socp_…`). ' +
          '`format=stix` answers a STIX 2.1 bundle of `indicator` objects (one per system and value, ids ' +
          'stable across polls), `csv` a header line and one row per indicator, `txt` one value per line ' +
          '(distinct over the systems; filter by `ioc_type__in`). Pages of `limit` indicators in a stable ' +
          'order; the next page is in the `Link` header (`rel="next"`). Every answer has an `ETag` and a ' +
          '`Last-Modified`: a poll with `If-None-Match` (or `If-Modified-Since`) answers 304 without a body ' +
          'while the feed is unchanged.',
        querystring: IocFeedQuerySchema,
        response: {
          200: z.string().describe('The feed in the requested format'),
          304: z.null().describe('The client’s copy is current: no body'),
          400: FieldErrorsSchema,
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const feed = await iocFeed.feed(requireAuth(request), query);
      // no cache keeps a signed-in answer (SECURITY.md); a poller sends the ETag back itself and
      // gets a 304 without a body while the feed is unchanged
      void reply
        .header('etag', feed.etag)
        .header('cache-control', 'no-store')
        .header('vary', 'Authorization');
      const lastModified = feed.lastModified === null ? undefined : new Date(feed.lastModified).toUTCString();
      if (lastModified) void reply.header('last-modified', lastModified);
      if (notModified(request.headers, feed)) {
        // nothing to serialise: a serialised `null` would announce 4 bytes in Content-Length that a
        // 304 never carries, and clients would wait for them
        return reply.status(304).send(undefined as unknown as null);
      }
      const page = await feed.page();
      if (page.next)
        void reply.header('link', `<${cursorLink(request, config.publicUrl, page.next)}>; rel="next"`);
      return reply
        .header('content-type', IOC_FEED_CONTENT_TYPES[query.format])
        .header('content-disposition', `inline; filename="${FILE_NAMES[query.format]}"`)
        .header('x-content-type-options', 'nosniff')
        .send(page.body);
    },
  );
};
