import { API_BASE } from '@soc/contracts';

/** Attribute that holds an inline image's API path until its object URL is ready. */
export const API_SRC_ATTRIBUTE = 'data-api-src';

/** The API path (under /api/v0) of an image source, or null when it is not an API address. */
export function apiPathOfImageSource(src: string, origin = window.location.origin): string | null {
  let url: URL;
  try {
    url = new URL(src, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || !url.pathname.startsWith(`${API_BASE}/`)) return null;
  return `${url.pathname.slice(API_BASE.length)}${url.search}`;
}

/**
 * Prepares server-sanitised HTML for display: images served by the API need the Authorization
 * header, so a plain `src` cannot load them (and would send an unauthorised request). Their
 * path moves to `data-api-src`; the component fetches them and sets object URLs.
 */
export function deferApiImages(html: string): string {
  if (!html.includes('<img')) return html;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const image of doc.querySelectorAll('img')) {
    const path = apiPathOfImageSource(image.getAttribute('src') ?? '');
    if (path === null) continue;
    image.removeAttribute('src');
    image.setAttribute(API_SRC_ATTRIBUTE, path);
  }
  return doc.body.innerHTML;
}
