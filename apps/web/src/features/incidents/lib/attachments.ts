import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_MAX_FILES } from '@soc/contracts';

/** The per-file limit in MB, as messages state it. */
export const ATTACHMENT_MAX_MB = ATTACHMENT_MAX_BYTES / (1024 * 1024);

/** Why a set of attachments cannot be uploaded (spec 000 §5: 1–10 files, each up to 50 MB). */
export type AttachmentProblem =
  { kind: 'too-many'; max: number } | { kind: 'too-large'; name: string; maxMb: number };

/** The problems of a set of files; empty when it may be uploaded. */
export function attachmentProblems(files: readonly File[]): AttachmentProblem[] {
  const problems: AttachmentProblem[] = [];
  if (files.length > ATTACHMENTS_MAX_FILES) problems.push({ kind: 'too-many', max: ATTACHMENTS_MAX_FILES });
  for (const file of files) {
    if (file.size > ATTACHMENT_MAX_BYTES)
      problems.push({ kind: 'too-large', name: file.name, maxMb: ATTACHMENT_MAX_MB });
  }
  return problems;
}
