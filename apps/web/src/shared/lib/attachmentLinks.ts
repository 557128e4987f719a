import { API_BASE, THUMBNAIL_CONTENT_TYPES } from '@soc/contracts';

/** The API path (under /api/v0) of an attachment's download link, which the server gives in full. */
export function apiPathOfLink(link: string): string {
  const path = link.startsWith('http') ? new URL(link).pathname : link;
  return path.startsWith(API_BASE) ? path.slice(API_BASE.length) : path;
}

/** Whether the chat shows a thumbnail for this content type (product §A3 Chat attachment). */
export function hasThumbnail(contentType: string): boolean {
  const base = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return (THUMBNAIL_CONTENT_TYPES as readonly string[]).includes(base);
}
