/**
 * The files-resource path of a viewer route (product §B2, §B8): `/files/download/<path>` maps to
 * `<path>`; anything else, an empty path, or a path that still holds `download` after mapping,
 * is null (not found). Segments are re-encoded for the API URL.
 */
export function fileResourcePath(splat: string | undefined): string | null {
  const prefix = 'download/';
  if (!splat?.startsWith(prefix)) return null;
  const rest = splat.slice(prefix.length).replace(/\/+$/, '');
  if (!rest || rest.includes('download')) return null;
  const segments = rest.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return null;
  return segments.map(encodeURIComponent).join('/');
}

export type PreviewKind =
  'image' | 'text' | 'json' | 'media-audio' | 'media-video' | 'media-pdf' | 'fallback';

/** How the viewer shows a file of this content type (product §B2 File viewer). */
export function previewKind(contentType: string): PreviewKind {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type.startsWith('text/')) return 'text';
  if (type.startsWith('audio/')) return 'media-audio';
  if (type.startsWith('video/')) return 'media-video';
  if (type === 'application/pdf') return 'media-pdf';
  return 'fallback';
}

/** JSON pretty-printed when it parses, else the text as it is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * The viewer route of a file the API links to: incident attachments
 * (`/api/v0/soc/incs/{key}/attachments/{id}/download/`) and document attachments
 * (`/api/v0/soc/{instructions|response_instructions|articles}/{id}/attachments/{id}/`);
 * null for other links.
 */
export function viewerRouteOfLink(link: string): string | null {
  const incident = /^\/api\/v0\/soc\/incs\/(\d+)\/attachments\/([0-9a-f-]{36})\/download\/$/i.exec(link);
  if (incident) return `/files/download/incidents/${incident[1]}/${incident[2]}`;
  const document =
    /^\/api\/v0\/soc\/(instructions|response_instructions|articles)\/(\d+)\/attachments\/(\d+)\/$/.exec(link);
  if (document) return `/files/download/${document[1]}/${document[2]}/${document[3]}`;
  return null;
}
