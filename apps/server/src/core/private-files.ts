import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The data folder (embedded database, uploaded files, the signing key, the mail outbox) is the
 * server's alone: folders 0700, files 0600 (issue 25, item 16). Other accounts of the host must
 * not read a customer's files or the key that signs every session.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and missing parents) readable by the server's user only; narrows it if it exists. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Narrows every folder and file under `root` (and `root` itself) to the server's user: what an
 * older version, a restore or another tool left readable to others. Symbolic links are left
 * alone (their mode means nothing, their target may be outside). A missing `root` is fine.
 */
export function restrictTree(root: string): void {
  let stat;
  try {
    stat = lstatSync(root);
  } catch {
    return;
  }
  if (stat.isSymbolicLink()) return;
  if (!stat.isDirectory()) {
    if ((stat.mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(root, PRIVATE_FILE_MODE);
    return;
  }
  if ((stat.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(root, PRIVATE_DIR_MODE);
  for (const name of readdirSync(root)) restrictTree(path.join(root, name));
}
