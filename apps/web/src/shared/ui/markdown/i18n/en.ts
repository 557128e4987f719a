/** Texts of the staff's Markdown editor (write and preview). */
export const markdownEn = {
  write: 'Write',
  preview: 'Preview',
  previewLabel: 'Preview of {{field}}',
  previewLoading: 'Rendering the preview…',
  previewEmpty: 'Nothing to preview yet.',
  previewFailed: 'Could not render the preview.',
  hint: 'Markdown: **bold**, _italic_, lists, tables, `code` and links.',
  counter: '{{count, number}} of {{max, number}} characters',
};
