import { createFileStorage } from '../../integrations/storage/create-storage.ts';
import { backupTo, restoreFrom } from './backup.ts';
import type { CommandGroup } from './command-context.ts';
import { CommandError, json } from './command-context.ts';

/**
 * `backup --to DIR` and `restore --from DIR [--force]` (backup.ts): the database and every stored
 * file, checked by a manifest of SHA-256s. Run them with the servers stopped.
 */
export const backupCommands: CommandGroup = async (ctx) => {
  const { database, config, log } = ctx;
  if (!database) throw new CommandError('backup and restore run from the command line only.');
  const storage = createFileStorage(config);
  try {
    if (ctx.action === 'backup') {
      if (!ctx.o.to) throw new CommandError('Missing --to DIR.');
      const manifest = await backupTo(ctx.o.to, { database, config, storage, log });
      const { checksums, ...summary } = manifest;
      return json({ to: ctx.o.to, ...summary, checksums: Object.keys(checksums).length });
    }
    if (!ctx.o.from) throw new CommandError('Missing --from DIR.');
    const restored = await restoreFrom(ctx.o.from, {
      database,
      config,
      storage,
      log,
      force: ctx.o.force ?? false,
    });
    ctx.replaceDatabase?.(restored.database);
    const { checksums, ...summary } = restored.manifest;
    return json({ from: ctx.o.from, ...summary, checksums: Object.keys(checksums).length });
  } finally {
    storage.close();
  }
};
