import { unsafeUploadName, visibleFileName } from '@soc/contracts';
import type { HttpError } from '../../lib/http-errors.ts';
import { badRequest } from '../../lib/http-errors.ts';
import { Localized } from '../../lib/messages.ts';

/** What the first bytes of a file say about it. Declared content types are never trusted. */
export interface SniffResult {
  executable: boolean;
  /** The type to store and serve; unknown content is `application/octet-stream`. */
  contentType: string;
}

const startsWith = (head: Buffer, bytes: number[]) => bytes.every((b, i) => head[i] === b);

const TEXT_EXTENSIONS: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  md: 'text/markdown; charset=utf-8',
};

export function sniffFile(head: Buffer, filename: string): SniffResult {
  const executable =
    startsWith(head, [0x4d, 0x5a]) || // MZ: Windows PE
    startsWith(head, [0x7f, 0x45, 0x4c, 0x46]) || // ELF
    startsWith(head, [0xcf, 0xfa, 0xed, 0xfe]) || // Mach-O 64
    startsWith(head, [0xce, 0xfa, 0xed, 0xfe]) || // Mach-O 32
    startsWith(head, [0xca, 0xfe, 0xba, 0xbe]); // Mach-O fat / Java class
  if (executable) return { executable: true, contentType: 'application/octet-stream' };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47])) return { executable: false, contentType: 'image/png' };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { executable: false, contentType: 'image/jpeg' };
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38])) return { executable: false, contentType: 'image/gif' };
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46]))
    return { executable: false, contentType: 'application/pdf' };
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]))
    return { executable: false, contentType: 'application/zip' };
  if (
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return { executable: false, contentType: 'image/webp' };
  }
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  return { executable: false, contentType: TEXT_EXTENSIONS[ext] ?? 'application/octet-stream' };
}

export type UnsafeUploadReason = 'executable' | 'extension' | 'bidi';

const UNSAFE_UPLOAD_MESSAGES: Record<
  'ru' | 'en',
  Record<UnsafeUploadReason, (name: string, extension: string) => string>
> = {
  en: {
    executable: (name) => `"${name}" is an executable file; pack it into a password-protected archive.`,
    extension: (name, ext) =>
      `"${name}": files of type .${ext} are not accepted; pack it into a password-protected archive.`,
    bidi: (name) =>
      `"${name}": the name contains text-direction control characters that can disguise the file type; rename the file.`,
  },
  ru: {
    executable: (name) => `«${name}» — исполняемый файл; упакуйте его в архив с паролем.`,
    extension: (name, ext) => `«${name}»: файлы типа .${ext} не принимаются; упакуйте его в архив с паролем.`,
    bidi: (name) =>
      `«${name}»: имя файла содержит символы управления направлением текста, которые могут скрыть тип файла; переименуйте файл.`,
  },
};

/** The 400 for an unsafe upload, naming the file in the caller's language under `field`. */
export function unsafeUploadError(
  field: string,
  filename: string,
  reason: UnsafeUploadReason,
  extension = '',
): HttpError {
  const name = visibleFileName(filename);
  return badRequest({
    [field]: [
      new Localized(
        UNSAFE_UPLOAD_MESSAGES.en[reason](name, extension),
        UNSAFE_UPLOAD_MESSAGES.ru[reason](name, extension),
      ),
    ],
  });
}

/**
 * The one check of every upload, run on the first bytes (FileStorage.put's `inspect`, so that a
 * refused file is removed and nothing recorded): a dangerous name or executable content is a 400
 * naming the file under `field`. Returns the content type to store.
 */
export function checkUpload(field: string, filename: string, head: Buffer): string {
  const byName = unsafeUploadName(filename);
  if (byName) {
    throw unsafeUploadError(
      field,
      filename,
      byName.reason,
      byName.reason === 'extension' ? byName.extension : '',
    );
  }
  const verdict = sniffFile(head, filename);
  if (verdict.executable) throw unsafeUploadError(field, filename, 'executable');
  return verdict.contentType;
}
