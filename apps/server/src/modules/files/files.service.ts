import type { FileKind } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../core/auth.ts';
import { loadIncident } from '../incidents/index.ts';
import type { FileRecord } from './files.repository.ts';
import { createFilesRepository } from './files.repository.ts';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const INCIDENT_PATH = new RegExp(`^incidents/(\\d{1,15})/(${UUID})$`, 'i');
const DOCUMENT_PATH = /^(instructions|response_instructions|articles)\/(\d{1,9})\/(\d{1,9})$/;
const DOCUMENT_KIND = {
  instructions: 'instruction',
  response_instructions: 'response_instruction',
  articles: 'article',
} as const satisfies Record<Exclude<FileKind, 'incidents'>, string>;

/**
 * Resolves a viewer path (`<kind>/<owner id>/<file id>`, see FileInfoSchema) to a stored file
 * the caller may see. The path is only ever matched against these patterns: it never reaches
 * the file system (storage keys come from the database), so `..` and the like are a 404.
 */
export function createFilesService(db: Db) {
  const repo = createFilesRepository(db);
  return {
    async resolve(path: string, auth: AuthContext): Promise<FileRecord> {
      const incident = INCIDENT_PATH.exec(path);
      if (incident) {
        const key = Number(incident[1]);
        if (!Number.isSafeInteger(key)) throw notFound();
        // another tenant's incident is a 404 here as on the incident page
        const row = await loadIncident(db, key, auth);
        const file = await repo.incidentAttachment(row.id, incident[2]!.toLowerCase());
        if (!file) throw notFound();
        return file;
      }
      const doc = DOCUMENT_PATH.exec(path);
      if (doc) {
        // documents are provider-wide: every signed-in user reads them (issue 8)
        const kind = DOCUMENT_KIND[doc[1] as keyof typeof DOCUMENT_KIND];
        const file = await repo.documentAttachment(kind, Number(doc[2]), Number(doc[3]));
        if (!file) throw notFound();
        return file;
      }
      throw notFound();
    },
  };
}
export type FilesService = ReturnType<typeof createFilesService>;
