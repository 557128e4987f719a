import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { PRIVATE_DIR_MODE } from '../../core/private-files.ts';
import path from 'node:path';
import type { IncidentCountCache } from './count-cache.ts';
import { countCacheKey } from './count-cache.ts';
import type { IncidentResponseCache } from './response-cache.ts';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type {
  IncidentCreate,
  IncidentFilters,
  IncidentListItem,
  IncidentOrdering,
  Language,
} from '@soc/contracts';
import {
  CSV_MAX_EXCEEDED_CODE,
  DEFAULT_INCIDENT_ORDERING,
  IncidentCreateSchema,
  IncidentFiltersSchema,
  TOTAL_COUNT_CAP,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Database, Db } from '../../db/client.ts';
import { checkStorageQuota } from '../../integrations/storage/storage-quota.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { UploadStager } from '../../integrations/storage/upload-stager.ts';
import type { Mailer } from '../../integrations/mail/mailer.ts';
import type { JobRunner } from '../../jobs/runner.ts';
import { audit } from '../../lib/audit.ts';
import { HttpError, badRequest, notFound } from '../../lib/http-errors.ts';
import { languageOf, msg } from '../../lib/messages.ts';
import type { SystemScope } from '../../lib/scope.ts';
import type { UploadPart } from '../../integrations/storage/multipart.ts';
import { expectAttachmentsField } from '../../integrations/storage/multipart.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { presentAttachment } from './attachments.service.ts';
import { incidentsCsvStream } from './incidents.csv.ts';
import type { ListTotal } from '../../lib/pagination.ts';
import type { RowCounter } from './incident-totals.repository.ts';
import { createIncidentsRepository } from './incidents.repository.ts';
import { presentIncidentListItem } from './incidents.presenter.ts';
import { createIncidentAccessRepository } from './incident-access.ts';
import { registerIncident } from './incident-registration.ts';
import { createIncidentWritesRepository } from './incident-writes.repository.ts';

export interface IncidentsDeps {
  db: Db;
  /** COPY streaming of the database, where it has it (PostgreSQL). */
  copyOut?: Database['copyOut'];
  config: Config;
  storage: FileStorage;
  mailer: Mailer;
  jobs: Pick<JobRunner, 'enqueue'>;
  /** Told about each new incident (notification e-mails). */
  onCreated?: (incidentId: string) => Promise<void>;
  /** Keeps the list totals that are counted over the incidents until an incident changes. */
  countCache?: IncidentCountCache;
  /** Keeps list pages until something they show changes. */
  responses?: IncidentResponseCache;
}

/** A list page with its total, exact or where counting stopped (`ListTotal`). */
export interface IncidentsPage extends ListTotal {
  results: IncidentListItem[];
}

export const CSV_JOB = 'incidents.csv';

export function createIncidentsService({
  db,
  copyOut,
  config,
  storage,
  mailer,
  jobs,
  onCreated,
  countCache,
  responses,
}: IncidentsDeps) {
  const repo = createIncidentsRepository(db, copyOut);
  const writes = createIncidentWritesRepository(db);
  /** Totals counted over the incidents, kept by the count cache where they read the incidents alone. */
  const countRows: RowCounter = (filters, scope) => {
    const key = countCache && countCacheKey(filters, scope);
    return key
      ? countCache.get(key, (version) => repo.countWithVersion(filters, scope, version))
      : repo.countRows(filters, scope);
  };

  async function one(key: number, scope: SystemScope, lang: Language): Promise<IncidentListItem | undefined> {
    const [row] = await repo.page({ key__in: [key] }, scope, DEFAULT_INCIDENT_ORDERING, 1, 0, lang);
    return row && presentIncidentListItem(row);
  }

  /** The id of an incident the caller may see; another tenant's incident is a 404. */
  async function findScoped(key: number, auth: AuthContext): Promise<{ id: string; systemId: number }> {
    const row = await writes.incidentInScope(key, systemScope(auth));
    if (!row) throw notFound();
    return row;
  }

  return {
    repo,

    async list(
      filters: IncidentFilters,
      auth: AuthContext,
      ordering: IncidentOrdering,
      limit: number,
      offset: number,
      lang: Language,
    ) {
      const scope = systemScope(auth);
      const build = async (): Promise<IncidentsPage> => {
        const { total, exact, rows } = await repo.pageAndTotal(
          filters,
          scope,
          ordering,
          limit,
          offset,
          lang,
          countRows,
        );
        return { total, exact, results: rows.map(presentIncidentListItem) };
      };
      return responses ? responses.page(filters, scope, ordering, limit, offset, lang, build) : build();
    },

    /** Registers an incident raised by the caller (product §A3 create payload, §5 rules). */
    async create(
      raw: IncidentCreate,
      auth: AuthContext,
      ip: string,
      lang: Language,
    ): Promise<IncidentListItem> {
      const created = await registerIncident(db, IncidentCreateSchema.parse(raw), auth, ip);
      await onCreated?.(created.id);
      return (await one(created.key, systemScope(auth), lang))!;
    },

    /**
     * Streams the files of a multipart request into storage. All or nothing: any refused file
     * removes the ones already stored and nothing is recorded.
     */
    async addFiles(key: number, parts: AsyncIterable<UploadPart>, auth: AuthContext, ip: string) {
      const incident = await findScoped(key, auth);
      const stager = new UploadStager(storage);
      try {
        for await (const part of parts) {
          expectAttachmentsField(part);
          await stager.stage(part.filename, part.file);
        }
        if (!stager.files.length) throw badRequest({ attachments: [msg('noFile')] });
        const rows = await db.transaction(async (tx) => {
          // the incident row first, then the quota lock: the order of every writer of its files
          await createIncidentAccessRepository(tx).lockIncident(incident.id);
          await checkStorageQuota(tx, incident.systemId, stager.files, config.storageQuotaBytesPerSystem);
          const inserted = await createIncidentWritesRepository(tx).insertAttachments(
            stager.files.map((s) => ({
              incidentId: incident.id,
              filename: s.filename,
              contentType: s.contentType,
              size: s.size,
              storageKey: s.key,
              sha256: s.sha256,
              uploadedBy: auth.userId,
            })),
          );
          await createIncidentWritesRepository(tx).touchIncident(incident.id);
          // in the transaction: a failure after the commit must not remove the files of the rows
          await audit(tx, {
            userId: auth.userId,
            action: 'incident.add_files',
            objectType: 'incident',
            objectId: key,
            ip,
            details: { files: inserted.map((r) => ({ id: r.id, filename: r.filename, size: r.size })) },
          });
          return inserted;
        });
        return rows.map((r) => presentAttachment(key, r));
      } catch (err) {
        await stager.discard();
        throw err;
      }
    },

    /** The synchronous CSV, or the "maximum exceeded" answer that sends the client to the e-mail variant. */
    async csv(
      filters: IncidentFilters,
      auth: AuthContext,
      ordering: IncidentOrdering,
      lang: Language,
    ): Promise<Readable> {
      const scope = systemScope(auth);
      const max = config.csvSyncMaxRows;
      const counted = await repo.countUpTo(filters, scope, max);
      if (!counted.exact || counted.total > max) {
        // the list's total, as the list shows it: past TOTAL_COUNT_CAP the list counts no further
        // either, so only a limit below the cap needs a count of its own
        const total = counted.exact
          ? counted.total
          : max >= TOTAL_COUNT_CAP
            ? TOTAL_COUNT_CAP
            : (await repo.count(filters, scope, countRows)).total;
        throw new HttpError(
          400,
          msg('downloadTooLarge'),
          undefined,
          {},
          {
            detail: msg('downloadTooLarge'),
            code: CSV_MAX_EXCEEDED_CODE,
            max_records: max,
            total,
          },
        );
      }
      return incidentsCsvStream(repo, filters, scope, ordering, lang);
    },

    /** Queues the e-mail variant of the CSV for the caller. */
    async queueCsv(
      query: Record<string, unknown>,
      auth: AuthContext,
      lang: Language,
      ip: string,
    ): Promise<{ email: string }> {
      const email = await writes.userEmail(auth.userId);
      if (!email) throw badRequest({ non_field_errors: [msg('noEmail')] });
      // an API token's system limit goes with the job: it runs later with the user's rights
      const limit = auth.tokenId ? systemScope(auth) : null;
      await jobs.enqueue(CSV_JOB, { userId: auth.userId, query, language: lang, limit });
      await audit(db, {
        userId: auth.userId,
        action: 'incident.csv_requested',
        objectType: 'incident',
        ip,
        details: { query },
      });
      return { email };
    },

    /** Job handler: builds the CSV with the user's current rights (within the token's limit, if any) and mails it. */
    async runCsvJob(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
      const userId = Number(payload.userId);
      const lang = languageOf(payload.language);
      const found = await writes.userWithSystems(userId);
      if (!found?.user.isActive || !found.user.email) return { skipped: 'user inactive or without e-mail' };
      const { user, systemIds } = found;
      const limit = Array.isArray(payload.limit) ? payload.limit.map(Number) : null;
      const own = user.role === 'customer' ? systemIds : null;
      const scope = limit ? (own ?? limit).filter((id) => limit.includes(id)) : own;
      const { ordering, ...rest } = (payload.query ?? {}) as Record<string, unknown>;
      const filters = IncidentFiltersSchema.parse(rest);
      const order = (ordering as IncidentOrdering | undefined) ?? DEFAULT_INCIDENT_ORDERING;
      const max = config.csvAsyncMaxRows;
      const { total, exact } = await repo.countUpTo(filters, scope, max);
      const stamp = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, '');
      const name = `incidents-${stamp}.csv`;
      const dir = path.join(tmpdir(), `soc-csv-${randomUUID()}`);
      // the export is a customer's data: not readable by other accounts of the host
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      try {
        const subject = msg('csvMailSubject').in(lang);
        if (!exact || total > max) {
          // counting stopped past the limit: "more than", without a number
          await mailer.send({
            kind: 'incident_csv',
            to: user.email,
            subject,
            text: msg('csvMailTooMany', max).in(lang),
          });
          return { total, total_exact: exact, attached: false };
        }
        const csvPath = path.join(dir, name);
        await pipeline(incidentsCsvStream(repo, filters, scope, order, lang), createWriteStream(csvPath));
        let attachment = { filename: name, path: csvPath, contentType: 'text/csv; charset=utf-8' };
        if ((await stat(csvPath)).size > config.mail.attachmentMaxBytes) {
          const gzPath = `${csvPath}.gz`;
          await pipeline(createReadStream(csvPath), createGzip(), createWriteStream(gzPath));
          attachment = { filename: `${name}.gz`, path: gzPath, contentType: 'application/gzip' };
        }
        const fits = (await stat(attachment.path)).size <= config.mail.attachmentMaxBytes;
        await mailer.send({
          kind: 'incident_csv',
          to: user.email,
          subject,
          text: (fits ? msg('csvMailAttached', total) : msg('csvMailTooLarge', total)).in(lang),
          attachments: fits ? [attachment] : [],
        });
        return { total, attached: fits, filename: attachment.filename };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

export type IncidentsService = ReturnType<typeof createIncidentsService>;
