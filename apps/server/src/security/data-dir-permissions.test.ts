import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../db/open.ts';
import { createMailer } from '../integrations/mail/mailer.ts';
import { LocalFileStorage } from '../integrations/storage/local-storage.ts';
import { restrictTree } from '../core/private-files.ts';

/*
 * Issue 25, item 16: the data folder is the server's user's alone. The app is started on a
 * temporary DATA_DIR the way main.ts starts it (existing files narrowed first), with the usual
 * umask 022 so that only the server's own modes can make the result private; then it stores an
 * upload and writes a mail to the outbox, and every folder must be 0700 and every file 0600.
 */

const root = mkdtempSync(path.join(tmpdir(), 'soc-data-'));
const previousUmask = process.umask(0o022);

afterAll(() => {
  process.umask(previousUmask);
  rmSync(root, { recursive: true, force: true });
});

/** `path mode` of everything under `dir` whose mode is not the private one. */
function open(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const stat = lstatSync(p);
    if (stat.isSymbolicLink()) return;
    const mode = stat.mode & 0o777;
    const wanted = stat.isDirectory() ? 0o700 : 0o600;
    if (mode !== wanted) out.push(`${path.relative(dir, p) || '.'} ${mode.toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return out;
}

describe('the data folder', () => {
  it('holds folders 0700 and files 0600 only, also what an older version left open', async () => {
    const dataDir = path.join(root, 'data');
    // an older installation's leftovers, readable by everyone
    mkdirSync(path.join(dataDir, 'outbox'), { recursive: true });
    chmodSync(dataDir, 0o755);
    writeFileSync(path.join(dataDir, 'outbox', 'old.eml'), 'Subject: old\n\nold', { mode: 0o644 });

    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    restrictTree(config.dataDir);
    const database = await openConfiguredDatabase(config);
    try {
      await database.migrate();
      const app = await buildApp({ config, database });
      await app.ready();
      try {
        await new LocalFileStorage(config.filesDir).put(
          'attachments',
          Readable.from([Buffer.from('hello')]),
          100,
        );
        await createMailer({ from: 'portal@example.com', outboxDir: config.mail.outboxDir }).send({
          to: 'someone@example.com',
          subject: 'Report',
          text: 'attached',
        });
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }

    expect(readdirSync(dataDir).sort()).toEqual(
      expect.arrayContaining(['files', 'jwt-secret', 'outbox', 'pgdata']),
    );
    expect(open(dataDir)).toEqual([]);
  }, 120_000);
});
