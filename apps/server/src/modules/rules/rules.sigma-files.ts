import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { Unzip, UnzipInflate } from 'fflate';
import { SIGMA_IMPORT_LIMITS } from '@soc/contracts';
import type { Localized } from '../../lib/messages.ts';
import { msg } from '../../lib/messages.ts';
import { formatBytes } from './rules.sigma.ts';

/** One rule file to import, named as the report shows it (an archive's entries as `zip/entry`). */
export interface RuleFile {
  name: string;
  bytes: Uint8Array;
}

/** A file refused before it was read as a rule: nothing of it is imported. */
export interface FileFailure {
  file: string;
  message: Localized;
}

export interface RuleFiles {
  files: RuleFile[];
  failures: FileFailure[];
}

export const isYamlName = (name: string) => /\.ya?ml$/i.test(name);
export const isZipName = (name: string) => /\.zip$/i.test(name);
/** Compressed bytes handed to the inflater at a time: deflate expands ~1,000-fold at most. */
const ZIP_CHUNK = 16 * 1024;

/**
 * The YAML entries of a zip archive, inflated in bounded steps: an entry stops at the per-file
 * limit (that entry fails), the archive stops at its entry count or its total inflated size (the
 * whole archive fails and nothing of it is imported). Sizes are counted as the bytes come out,
 * not taken from the headers, which a zip bomb may fake.
 */
export function unzipRuleFiles(
  zipName: string,
  zip: Uint8Array,
  limits: Record<keyof typeof SIGMA_IMPORT_LIMITS, number> = SIGMA_IMPORT_LIMITS,
): RuleFiles {
  const files: RuleFile[] = [];
  const failures: FileFailure[] = [];
  let entries = 0;
  let inflated = 0;
  /** Why the whole archive is refused (callbacks cannot throw through the inflater). */
  let refused: Localized | null = null;
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.onfile = (entry) => {
    if (refused || entry.name.endsWith('/')) return;
    if (++entries > limits.files) {
      refused = msg('sigmaZipTooManyEntries', limits.files);
      return;
    }
    if (!isYamlName(entry.name)) return;
    const name = `${zipName}/${entry.name}`;
    const chunks: Uint8Array[] = [];
    let size = 0;
    let failed = false;
    entry.ondata = (err, chunk, final) => {
      if (failed || refused) return;
      if (err) {
        failed = true;
        failures.push({ file: name, message: msg('sigmaZipInvalid', err.message) });
        return;
      }
      size += chunk.length;
      inflated += chunk.length;
      if (inflated > limits.unzippedBytes) {
        refused = msg('sigmaZipTooLarge', formatBytes(limits.unzippedBytes));
        entry.terminate();
        return;
      }
      if (size > limits.fileBytes) {
        failed = true;
        entry.terminate();
        failures.push({ file: name, message: msg('sigmaFileTooLarge', formatBytes(limits.fileBytes)) });
        return;
      }
      chunks.push(chunk);
      if (final) files.push({ name, bytes: concat(chunks, size) });
    };
    if ((entry.originalSize ?? 0) > limits.fileBytes) {
      failures.push({ file: name, message: msg('sigmaFileTooLarge', formatBytes(limits.fileBytes)) });
      return;
    }
    entry.start();
  };
  try {
    if (zip.length < 4 || zip[0] !== 0x50 || zip[1] !== 0x4b) throw new Error('no zip signature');
    for (let at = 0; at < zip.length && !refused; at += ZIP_CHUNK)
      unzip.push(zip.subarray(at, at + ZIP_CHUNK), at + ZIP_CHUNK >= zip.length);
  } catch (err) {
    refused ??= msg('sigmaZipInvalid', err instanceof Error ? err.message : String(err));
  }
  // the callbacks above may have set it
  const why = refused;
  return why ? { files: [], failures: [{ file: zipName, message: why }] } : { files, failures };
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** An uploaded or read file: a YAML file as it is, a zip as its YAML entries; anything else fails. */
export function ruleFilesOf(name: string, bytes: Uint8Array): RuleFiles {
  if (isZipName(name)) return unzipRuleFiles(name, bytes);
  if (isYamlName(name)) return { files: [{ name, bytes }], failures: [] };
  return { files: [], failures: [{ file: name, message: msg('sigmaNotRuleFile') }] };
}

/**
 * The rule files under a path (`npm run admin -- rules import-sigma`): a YAML file, a zip, or a
 * folder walked in name order for both (other files, e.g. a README, are passed over). A file over
 * its limit fails without being read.
 */
export async function readRuleFiles(path: string): Promise<RuleFiles> {
  const out: RuleFiles = { files: [], failures: [] };
  const root = (await stat(path)).isDirectory() ? path : null;
  const add = async (file: string, size: number) => {
    const name = root ? relative(root, file) : basename(file);
    const limit = isZipName(file) ? SIGMA_IMPORT_LIMITS.uploadBytes : SIGMA_IMPORT_LIMITS.fileBytes;
    if (size > limit) {
      out.failures.push({ file: name, message: msg('sigmaFileTooLarge', formatBytes(limit)) });
      return;
    }
    const read = ruleFilesOf(name, new Uint8Array(await readFile(file)));
    out.files.push(...read.files);
    out.failures.push(...read.failures);
  };
  const walk = async (dir: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile() && (isYamlName(e.name) || isZipName(e.name))) await add(p, (await stat(p)).size);
    }
  };
  if (root) await walk(root);
  else await add(path, (await stat(path)).size);
  return out;
}
