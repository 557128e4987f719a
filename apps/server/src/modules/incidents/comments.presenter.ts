import type { Comment } from '@soc/contracts';
import type { AuthContext } from '../../core/auth.ts';
import { presentAttachment } from './attachments.service.ts';
import type { AttachmentRow, CommentRow } from './comments.repository.ts';

/** A comment of the incident `key` as `auth` sees it; `centreName` stands for the national centre. */
export function presentComment(
  r: CommentRow,
  key: number,
  files: AttachmentRow[],
  auth: AuthContext,
  centreName: string,
): Comment {
  // decided when the mail arrived (authenticated by our gateway), never from the address alone
  const centre = r.fromNationalCentre;
  return {
    id: r.id,
    author: centre ? centreName : r.authorName,
    // which analyst wrote a reply shown as the SOC's stays with the staff
    author_id: r.asTeam && auth.role === 'customer' ? null : r.authorId,
    body: r.body,
    created: r.created.getTime(),
    attachments: files.map((f) => presentAttachment(key, f)),
    source: r.source,
    from_soc: r.fromSoc,
    from_national_centre: centre,
    issue_completed: r.issueCompleted,
    is_mine: r.authorId === auth.userId,
  };
}
