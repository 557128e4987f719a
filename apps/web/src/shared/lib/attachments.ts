import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_MAX_FILES,
  unsafeUploadName,
  visibleFileName,
} from '@soc/contracts';
import type { TFunction } from 'i18next';
import { ATTACHMENT_MAX_MB } from './fileSizeLimit.ts';

/** Why a set of attachments cannot be uploaded (product §A5: 1–10 files, each up to 50 MB). */
export type AttachmentProblem =
  | { kind: 'too-many'; max: number }
  | { kind: 'too-large'; name: string; maxMb: number }
  /** A name no upload accepts (a dangerous extension or direction controls); see unsafeUploadName. */
  | { kind: 'unsafe-name'; name: string; reason: 'extension' | 'bidi'; extension: string };

/** The problems of a set of files; empty when it may be uploaded. */
export function attachmentProblems(files: readonly File[]): AttachmentProblem[] {
  const problems: AttachmentProblem[] = [];
  if (files.length > ATTACHMENTS_MAX_FILES) problems.push({ kind: 'too-many', max: ATTACHMENTS_MAX_FILES });
  for (const file of files) {
    const unsafe = unsafeUploadName(file.name);
    if (unsafe) {
      problems.push({
        kind: 'unsafe-name',
        name: visibleFileName(file.name),
        reason: unsafe.reason,
        extension: unsafe.reason === 'extension' ? unsafe.extension : '',
      });
    }
    if (file.size > ATTACHMENT_MAX_BYTES)
      problems.push({ kind: 'too-large', name: file.name, maxMb: ATTACHMENT_MAX_MB });
  }
  return problems;
}

/** The text of an unsafe name, the same on every upload form (ru and en in `uploads`). */
export function unsafeNameText(
  t: TFunction,
  problem: Extract<AttachmentProblem, { kind: 'unsafe-name' }>,
): string {
  return problem.reason === 'bidi'
    ? t('uploads.bidiName', { name: problem.name })
    : t('uploads.dangerousExtension', { name: problem.name, extension: problem.extension });
}
