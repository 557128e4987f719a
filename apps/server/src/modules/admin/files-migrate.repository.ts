import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';

/** A stored file as the database knows it: its key, and its size and SHA-256 where recorded. */
export interface StoredFileRef {
  key: string;
  size: number | null;
  sha256: string | null;
}

/**
 * Every table that refers to stored objects: the key column, what it records of the bytes, and
 * its primary key (pages are read by it, through its index, however many rows there are).
 */
const SOURCES = [
  { table: 'attachments', key: 'storage_key', size: 'size', sha: 'sha256', id: 'id', idType: 'uuid' },
  { table: 'task_attachments', key: 'storage_key', size: 'size', sha: 'sha256', id: 'id', idType: 'uuid' },
  {
    table: 'document_attachments',
    key: 'storage_key',
    size: 'size',
    sha: 'sha256',
    id: 'id',
    idType: 'bigint',
  },
  { table: 'reports', key: 'storage_key', size: 'size', sha: 'NULL', id: 'id', idType: 'bigint' },
  { table: 'mail_quarantine', key: 'raw_key', size: 'NULL::bigint', sha: 'NULL', id: 'id', idType: 'bigint' },
] as const;

const PAGE = 500;

/** The stored files the database refers to, for the migration between stores and the backup. */
export function createFilesMigrateRepository(db: Db) {
  return {
    /** How many stored files the database refers to (the migration's progress counts against it). */
    async countStoredFiles(): Promise<{ files: number; bytes: number }> {
      let files = 0;
      let bytes = 0;
      for (const s of SOURCES) {
        const [row] = await queryRows<{ n: string | number; bytes: string | number }>(
          db,
          sql`SELECT count(*) AS n, coalesce(sum(${sql.raw(s.size)}), 0) AS bytes FROM ${sql.raw(s.table)}
              WHERE ${sql.raw(s.key)} IS NOT NULL`,
        );
        files += Number(row?.n ?? 0);
        bytes += Number(row?.bytes ?? 0);
      }
      return { files, bytes };
    },

    /** Every stored file the database refers to, table by table, a page at a time. */
    async *storedFiles(): AsyncGenerator<StoredFileRef> {
      for (const s of SOURCES) {
        let after: string | null = null;
        for (;;) {
          const rows: { id: string; key: string; size: string | number | null; sha256: string | null }[] =
            await queryRows(
              db,
              sql`SELECT ${sql.raw(s.id)}::text AS id, ${sql.raw(s.key)} AS key, ${sql.raw(s.size)} AS size,
                         ${sql.raw(s.sha)} AS sha256
                  FROM ${sql.raw(s.table)}
                  WHERE ${sql.raw(s.key)} IS NOT NULL
                    ${after === null ? sql`` : sql`AND ${sql.raw(s.id)} > ${after}::${sql.raw(s.idType)}`}
                  ORDER BY ${sql.raw(s.id)} LIMIT ${PAGE}`,
            );
          for (const r of rows) {
            yield { key: r.key, size: r.size === null ? null : Number(r.size), sha256: r.sha256 };
          }
          if (rows.length < PAGE) break;
          after = rows[rows.length - 1]!.id;
        }
      }
    },
  };
}
