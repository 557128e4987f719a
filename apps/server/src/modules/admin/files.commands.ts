import type { FileStorage, StorageDriver } from '../../integrations/storage/file-storage.ts';
import { LocalFileStorage } from '../../integrations/storage/local-storage.ts';
import { S3FileStorage } from '../../integrations/storage/s3-storage.ts';
import type { CommandContext, CommandGroup } from './command-context.ts';
import { CommandError, CommandFailed, int, json } from './command-context.ts';
import { migrateFiles } from './files-migrate.ts';
import { createFilesMigrateRepository } from './files-migrate.repository.ts';

/** The storage of one driver from the configuration (DATA_DIR/files, or the S3_* bucket). */
function configuredStorage({ config }: CommandContext, driver: StorageDriver): FileStorage {
  if (driver === 'local') return new LocalFileStorage(config.filesDir);
  if (!config.storage.s3) throw new CommandError('Set S3_BUCKET (and the other S3_* settings) first.');
  return new S3FileStorage(config.storage.s3);
}

/**
 * `files migrate --to s3|local`: copies every stored file between the local folder and the S3
 * bucket, verifying each copy's SHA-256, resuming past what is already there. Run it with the
 * servers stopped (or twice: once live, once stopped, for the files added meanwhile), then set
 * STORAGE to the target.
 */
export const fileCommands: CommandGroup = async (ctx) => {
  if (ctx.action !== 'migrate') return undefined;
  const to = ctx.o.to;
  if (to !== 's3' && to !== 'local') throw new CommandError('--to must be s3 or local.');
  const concurrency = int(ctx.o.concurrency, '--concurrency') ?? 4;
  if (concurrency < 1 || concurrency > 64) throw new CommandError('--concurrency must be 1 to 64.');
  const open = ctx.openStorage ?? ((driver: StorageDriver) => configuredStorage(ctx, driver));
  const source = open(to === 's3' ? 'local' : 's3');
  const target = open(to);
  try {
    const stored = createFilesMigrateRepository(ctx.db);
    const { files, bytes } = await stored.countStoredFiles();
    ctx.log(`files migrate: ${files} files (${(bytes / 1024 / 1024).toFixed(1)} MB recorded) to ${to}`);
    const summary = await migrateFiles({
      source,
      target,
      files: stored.storedFiles(),
      total: files,
      log: ctx.log,
      concurrency,
    });
    const output = json({ to, ...summary });
    if (summary.failed) throw new CommandFailed(output);
    return output;
  } finally {
    source.close();
    target.close();
  }
};
