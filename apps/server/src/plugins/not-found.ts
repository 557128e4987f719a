import type { FastifyInstance } from 'fastify';
import { msg } from '../lib/messages.ts';
import { requestLanguage } from './auth.ts';

/**
 * A request path as a lenient server or proxy might read it (decoded, lower case, slashes
 * collapsed, dot segments and `;` parameters removed), so that no spelling of an API path is
 * answered with the app's page.
 */
function normalisedPath(url: string): string {
  let text = url.split('?')[0]!;
  try {
    text = decodeURIComponent(text);
  } catch {
    // a malformed escape is left as written
  }
  text = text
    .toLowerCase()
    .replace(/[\\/]+/g, '/')
    .replace(/;[^/]*/g, '');
  // always a path (never a scheme or a host that could fail to parse), dot segments resolved
  return new URL(`/${text.replace(/^\//, '')}`, 'http://host').pathname;
}

/**
 * The answer to an unknown path: the web app's page for a browser's GET outside the API and
 * the assets (client-side routes survive a reload), else 404. Set last, on the root.
 */
export function setNotFoundHandler(app: FastifyInstance, webDist: string | undefined): void {
  app.setNotFoundHandler((request, reply) => {
    // a missing asset is a real 404, so that a stale chunk reference fails loudly in the browser
    const wantsPage =
      request.method === 'GET' && !/^\/(api|assets)(\/|$)/.test(normalisedPath(request.url)) && webDist;
    if (wantsPage) {
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({ detail: msg('notFound').in(requestLanguage(request)) });
  });
}
