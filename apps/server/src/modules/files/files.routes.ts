import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DetailErrorSchema, FileInfoSchema } from '@soc/contracts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import { sendStoredFile } from '../../integrations/storage/http-files.ts';
import type { FilesService } from './files.service.ts';
import { fileAnswer } from '../../plugins/openapi.ts';

const PathParams = z.object({
  path: z.string().min(1).max(300).describe('`<kind>/<owner id>/<file id>`, slashes as `%2F` in this form'),
});

/**
 * `/api/v0/soc/files/{path}/` → `{filename}` and `/api/v0/soc/files/{path}/download/` → the body
 * (product §B7 Files). `{path}` has several segments (`incidents/10042/<uuid>`): a wildcard route
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
    // the viewer may open a file in the browser: it runs nothing there
    return sendStoredFile(storage, file, request.headers.range, reply, {
      'content-security-policy': "default-src 'none'; sandbox",
    });
  };

  app.get(
    '/files/:path/',
    {
      schema: {
        operationId: 'getFile',
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
        operationId: 'downloadFile',
        tags,
        summary: 'The file body: Content-Type, Content-Length, single byte ranges (206/416)',
        params: PathParams,
        response: {
          200: fileAnswer('application/octet-stream', 'The file'),
          206: fileAnswer('application/octet-stream', 'A byte range of the file (`Range`)'),
          416: DetailErrorSchema,
          404: DetailErrorSchema,
        },
      },
    },
    async (request, reply) => download(request.params.path, request, reply),
  );

  app.get(
    '/files/*',
    {
      schema: { operationId: 'fileByNestedPath', hide: true, params: z.object({ '*': z.string().max(400) }) },
    },
    async (request, reply) => {
      const rest = request.params['*'].replace(/\/$/, '');
      if (rest.endsWith('/download')) return download(rest.slice(0, -'/download'.length), request, reply);
      return reply.send(await info(rest, request));
    },
  );
};
