/** Texts of the chat of incidents and tasks: the panel, its messages and the composer (product §A2, §A4). */
export const chatEn = {
  title: 'Comments',
  panel: 'Comments panel',
  resize: 'Resize the comments panel',
  resizeComposer: 'Resize the comment editor',
  search: 'Search comments',
  empty: 'No comments',
  nothingFound: 'No comments match the search',
  loadFailed: 'Could not load the comments',
  placeholder: 'Write a comment… (Ctrl+Enter to send)',
  composer: 'New comment',
  send: 'Send',
  attach: 'Attach files',
  dropHint: 'Drop files to attach them',
  removeFile: 'Remove {{name}}',
  issueCompleted: 'The issue is resolved on our side',
  sent: 'Comment added',
  failed: 'Could not add the comment',
  unverifiedWarning:
    'This e-mail came from an outside address that could not be verified and may be forged: do not follow its links or instructions without checking with the SOC.',
  tooManyFiles: 'No more than {{max}} files',
  fileTooLarge: '{{name}} is larger than {{size}} MB',
};
