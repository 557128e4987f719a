import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import type { StoredFileRef } from './files-migrate.repository.ts';

/** What a migration did: every file is copied, already there (verified) or failed (with why). */
export interface MigrationSummary {
  total: number;
  copied: number;
  /** Already in the target with the right checksum (an earlier, interrupted run copied them). */
  skipped: number;
  bytesCopied: number;
  failed: number;
  /** The first failures (at most 100), with why. */
  failures: { key: string; reason: string }[];
}

const FAILURES_SHOWN = 100;

export interface MigrateFilesOptions {
  source: FileStorage;
  target: FileStorage;
  files: AsyncIterable<StoredFileRef>;
  /** Files the database refers to, for the progress lines. */
  total: number;
  /** Receives the progress lines. */
  log: (line: string) => void;
  /** Files copied at a time. */
  concurrency?: number;
  /** Milliseconds between progress lines (the last one always comes). */
  progressEveryMs?: number;
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const reasonOf = (err: unknown) =>
  (err as { code?: string }).code === 'ENOENT'
    ? 'missing in the source storage'
    : err instanceof Error
      ? err.message
      : String(err);

/**
 * Copies every stored file from `source` to `target` under the same key and reads each copy
 * back to check its SHA-256: the one the database recorded, or the source's where it recorded
 * none (reports, quarantined mail). A file already in the target with the right checksum is
 * skipped, so a run that was interrupted resumes where it stopped. The source is left as it was.
 */
export async function migrateFiles(options: MigrateFilesOptions): Promise<MigrationSummary> {
  const { source, target, total, log } = options;
  const summary: MigrationSummary = { total, copied: 0, skipped: 0, bytesCopied: 0, failed: 0, failures: [] };
  let done = 0;
  let lastLog = 0;
  const progress = (final = false) => {
    const now = Date.now();
    if (!final && now - lastLog < (options.progressEveryMs ?? 2000)) return;
    lastLog = now;
    const mb = (summary.bytesCopied / 1024 / 1024).toFixed(1);
    log(
      `files migrate: ${done}/${total} files (${summary.copied} copied, ${mb} MB; ` +
        `${summary.skipped} already there; ${summary.failed} failed)`,
    );
  };

  const one = async (file: StoredFileRef) => {
    const present = await target.size(file.key);
    if (present !== null && (file.size === null || present === file.size)) {
      const expected = file.sha256 ?? (await sha256Of(await source.open(file.key)).catch(() => null));
      if (expected && (await sha256Of(await target.open(file.key))) === expected) {
        summary.skipped++;
        return;
      }
    }
    const copied = await target.putAt(file.key, await source.open(file.key));
    if (file.sha256 && copied.sha256 !== file.sha256) {
      await target.remove(file.key);
      throw new Error('the source differs from the SHA-256 recorded in the database');
    }
    if ((await sha256Of(await target.open(file.key))) !== copied.sha256) {
      await target.remove(file.key);
      throw new Error('the copy read back differs from the source');
    }
    summary.copied++;
    summary.bytesCopied += copied.size;
  };

  // a few files at a time: the target's latency, not the bandwidth, bounds a copy of many small files
  const workers = new Set<Promise<void>>();
  const run = async (file: StoredFileRef) => {
    try {
      await one(file);
    } catch (err) {
      summary.failed++;
      if (summary.failures.length < FAILURES_SHOWN)
        summary.failures.push({ key: file.key, reason: reasonOf(err) });
    }
    done++;
    progress();
  };
  for await (const file of options.files) {
    const p: Promise<void> = run(file).finally(() => workers.delete(p));
    workers.add(p);
    if (workers.size >= (options.concurrency ?? 4)) await Promise.race(workers);
  }
  await Promise.all(workers);
  progress(true);
  return summary;
}
