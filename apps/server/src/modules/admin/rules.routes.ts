import type {} from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Readable } from 'node:stream';
import {
  DetailErrorSchema,
  SIGMA_IMPORT_LIMITS,
  SigmaImportOptionsSchema,
  SigmaImportResultSchema,
} from '@soc/contracts';
import { HttpError, badRequest } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import type { MultipartPart } from '../../integrations/storage/multipart.ts';
import { parseMultipartFields } from '../../integrations/storage/multipart.ts';
import { requestLanguage } from '../../plugins/auth.ts';
import type { RuleFiles } from '../rules/index.ts';
import { SigmaImportRefused, formatBytes, presentImport, ruleFilesOf } from '../rules/index.ts';
import { caller, errors } from './admin.http.ts';
import type { AdminRulesService } from './rules.service.ts';

/** A file's bytes, or null when it holds more than `limit` (the stream is read to its end either way). */
async function readCapped(stream: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return size > limit ? null : Buffer.concat(chunks);
}

/**
 * `POST /api/v0/admin/rules/import/` (issue 30): Sigma rules from YAML files and zip archives
 * (multipart field `files`) with the options `services`, `activation`, `dry_run` as text fields.
 * A file over its limit or unreadable is refused by name; the others are imported. A hostile file
 * (nested deeper than any rule, or too slow or big to parse in the worker) refuses all: 422.
 */
export const adminRuleRoutes: FastifyPluginAsyncZod<{ rules: AdminRulesService }> = async (
  app,
  { rules },
) => {
  app.post(
    '/rules/import/',
    {
      config: { costLimit: 'upload' },
      schema: {
        tags: ['admin'],
        operationId: 'importSigmaRules',
        summary:
          'Import Sigma rules: multipart `files` (YAML files, zip archives; 1 MB a rule, 20 MB in all), ' +
          '`services` (CSV of service levels), `activation` (auto|manual), `dry_run`',
        consumes: ['multipart/form-data'],
        response: {
          200: SigmaImportResultSchema,
          ...errors,
          413: DetailErrorSchema,
          415: DetailErrorSchema,
          422: DetailErrorSchema,
        },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw new HttpError(415, msg('expectedMultipart'));
      const who = caller(request);
      const input: RuleFiles = { files: [], failures: [] };
      const fields: Record<string, unknown> = {};
      let total = 0;
      const parts = request.parts({
        limits: { files: SIGMA_IMPORT_LIMITS.files, fileSize: SIGMA_IMPORT_LIMITS.uploadBytes + 1 },
      }) as AsyncIterable<MultipartPart>;
      for await (const part of parts) {
        if (!('file' in part)) {
          fields[part.fieldname] = part.value;
          continue;
        }
        if (part.fieldname !== 'files') {
          part.file.resume();
          throw badRequest({ [part.fieldname]: [msg('unexpectedFileField')] });
        }
        const limit = /\.zip$/i.test(part.filename)
          ? SIGMA_IMPORT_LIMITS.uploadBytes
          : SIGMA_IMPORT_LIMITS.fileBytes;
        const bytes = await readCapped(part.file, limit);
        if (!bytes) {
          input.failures.push({ file: part.filename, message: msg('sigmaFileTooLarge', formatBytes(limit)) });
          continue;
        }
        total += bytes.length;
        if (total > SIGMA_IMPORT_LIMITS.uploadBytes) throw new HttpError(413, msg('bodyTooLarge'));
        const read = ruleFilesOf(part.filename, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
        input.files.push(...read.files);
        input.failures.push(...read.failures);
      }
      const options = parseMultipartFields(SigmaImportOptionsSchema, fields);
      if (!input.files.length && !input.failures.length) throw badRequest({ files: [msg('sigmaNoFiles')] });
      const report = await rules.importSigma(input, options, who).catch((err: unknown) => {
        // a file nested deeper than any rule, or too slow or big to parse: nothing was imported
        throw err instanceof SigmaImportRefused ? new HttpError(422, err.detail) : err;
      });
      return presentImport(report, requestLanguage(request));
    },
  );
};
