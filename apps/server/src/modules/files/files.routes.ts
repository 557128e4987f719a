import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DetailErrorSchema, FileInfoSchema } from '@soc/contracts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { contentDisposition, parseRange } from '../incidents/attachments.service.ts';
import type { FilesService } from './files.service.ts';

const PathParams = z.object({
  path: z.string().min(1).max(300).describe('`<kind>/<owner id>/<file id>`, slashes as `%2F` in this form'),
});

/**
 * `/api/v0/soc/files/{path}/` → `{filename}` and `/api/v0/soc/files/{path}/download/` → the body
 * (spec 001 §7 Files). `{path}` has several segments (`incidents/10042/<uuid>`): a wildcard route
 * serves them as written; the two documented routes serve the same with `%2F`-encoded slashes.
 */
export const filesRoutes: FastifyPluginAsyncZod<{ files: FilesService; storage: FileStorage }> = async (
  app,
  { files, storage },
) => {
  const tags = ['files'];

  const info = async (path: string, request: FastifyRequest) => {
    const file = await files.resolve(path, requireAuth(request));
    return { filename: file.filename, content_type: file.contentType, size: file.size };
  };

  const download = async (path: string, request: FastifyRequest, reply: FastifyReply) => {
    const file = await files.resolve(path, requireAuth(request));
    const range = parseRange(request.headers.range, file.size);
    if (range === 'invalid') {
      return reply
        .status(416)
        .header('content-range', `bytes */${file.size}`)
        .send({ detail: 'Range not satisfiable.' });
    }
    void reply
      .header('content-type', file.contentType)
      .header('content-disposition', contentDisposition(file.filename))
      .header('accept-ranges', 'bytes')
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('etag', `"${file.sha256}"`);
    if (!range) {
      return reply
        .status(200)
        .header('content-length', String(file.size))
        .send(storage.open(file.storageKey));
    }
    return reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('content-length', String(range.end - range.start + 1))
      .send(storage.openRange(file.storageKey, range.start, range.end));
  };

  app.get(
    '/files/:path/',
    {
      schema: {
        tags,
        summary: 'Name, type and size of a file the caller may see',
        params: PathParams,
        response: { 200: FileInfoSchema, 404: DetailErrorSchema },
      },
    },
    async (request) => info(request.params.path, request),
  );

  app.get(
    '/files/:path/download/',
    {
      schema: {
        tags,
        summary: 'The file body: Content-Type, Content-Length, single byte ranges (206/416)',
        params: PathParams,
        response: { 404: DetailErrorSchema },
      },
    },
    async (request, reply) => download(request.params.path, request, reply),
  );

  app.get(
    '/files/*',
    { schema: { hide: true, params: z.object({ '*': z.string().max(400) }) } },
    async (request, reply) => {
      const rest = request.params['*'].replace(/\/$/, '');
      if (rest.endsWith('/download')) return download(rest.slice(0, -'/download'.length), request, reply);
      return reply.send(await info(rest, request));
    },
  );
};
