import type { Readable } from 'node:stream';
import { ATTACHMENTS_MAX_FILES, ATTACHMENT_MAX_BYTES } from '@soc/contracts';
import { HttpError, badRequest } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import type { FileStorage } from './file-storage.ts';
import { FileTooLargeError } from './file-storage.ts';
import { checkUpload } from './sniff.ts';

/** A file put in storage but not yet recorded: its storage key and what was learnt reading it. */
export interface StagedFile {
  key: string;
  size: number;
  sha256: string;
  filename: string;
  contentType: string;
}

/** A display name for a stored file: no path, no control characters, at most 200 characters. */
export function sanitizeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'file').slice(-200);
}

/**
 * Stages uploaded files in storage with the limits of add_file (1–10 files, 50 MB each, no
 * executables). The caller records them, or calls `discard` when the request fails.
 */
export class UploadStager {
  readonly files: StagedFile[] = [];
  constructor(private readonly storage: FileStorage) {}

  async stage(filename: string, source: Readable): Promise<void> {
    if (this.files.length >= ATTACHMENTS_MAX_FILES) {
      source.resume();
      throw badRequest({
        attachments: [msg('tooManyFiles', ATTACHMENTS_MAX_FILES)],
      });
    }
    const name = sanitizeFilename(filename);
    let contentType = 'application/octet-stream';
    try {
      const object = await this.storage.put('attachments', source, ATTACHMENT_MAX_BYTES, (head) => {
        contentType = checkUpload('attachments', name, head);
      });
      this.files.push({ ...object, filename: name, contentType });
      if (object.size === 0) throw badRequest({ attachments: [msg('emptyFile', name)] });
    } catch (err) {
      if (err instanceof FileTooLargeError) {
        throw new HttpError(413, msg('fileTooLarge', ATTACHMENT_MAX_BYTES / 1024 / 1024));
      }
      throw err;
    }
  }

  /**
   * Removes the staged files. Never throws: it runs while another error is on its way to the
   * client (a storage that went down meanwhile leaves objects no row refers to, not a 500).
   */
  async discard(): Promise<void> {
    await Promise.allSettled(this.files.map((f) => this.storage.remove(f.key)));
  }
}
