import { ATTACHMENT_MAX_BYTES, visibleFileName } from '@soc/contracts';
import type { TFunction } from 'i18next';
import { notifyError } from '../ui/notifications.tsx';

/** The per-file upload limit in MB, as messages state it (product §A5: 50 MB). */
export const ATTACHMENT_MAX_MB = ATTACHMENT_MAX_BYTES / (1024 * 1024);

/** Chosen files split into those within the per-file limit and those over it. */
export function splitBySizeLimit(
  files: FileList | readonly File[],
  maxBytes: number = ATTACHMENT_MAX_BYTES,
): { accepted: File[]; refused: File[] } {
  const accepted: File[] = [];
  const refused: File[] = [];
  // Array.from: a FileList is only array-like in some environments
  for (const file of Array.from(files)) (file.size > maxBytes ? refused : accepted).push(file);
  return { accepted, refused };
}

/**
 * The files of a choice or a drop that may be attached. Files over the limit are refused at
 * once, with a toast naming each, rather than kept until sending (every upload form: the comment
 * and task chat composer, the create-incident and create-task forms).
 */
export function keepFilesWithinLimit(files: FileList | readonly File[], t: TFunction): File[] {
  const { accepted, refused } = splitBySizeLimit(files);
  if (refused.length > 0) {
    notifyError({
      title: t('uploads.notAttached'),
      description: refused.map((file) =>
        t('uploads.fileTooLarge', { name: visibleFileName(file.name), size: ATTACHMENT_MAX_MB }),
      ),
    });
  }
  return accepted;
}
