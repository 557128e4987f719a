import type { TokensList } from 'marked';
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/**
 * What may survive in stored or rendered HTML: text formatting, lists, tables, code, links
 * (http, https, mailto only) and images from the portal itself (relative paths such as
 * `/api/v0/...`) or data URLs, so that no comment can load a tracking pixel. No scripts,
 * styles, event handlers, forms or frames.
 */
const POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'del',
    'blockquote',
    'code',
    'pre',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'span',
    'div',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title'],
    th: ['align'],
    td: ['align'],
    code: ['class'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['data'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // links leave the portal without giving it away
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }),
  },
};
POLICY.allowedAttributes = { ...POLICY.allowedAttributes, a: ['href', 'title', 'rel', 'target'] };

const marked = new Marked({ gfm: true, breaks: true, async: false });

/** Removes everything unsafe from HTML (scripts, event handlers, javascript: links, styles). */
export function sanitizeHtmlFragment(html: string): string {
  return sanitizeHtml(html, POLICY);
}

/** Markdown (which may embed raw HTML) → safe HTML. */
export function renderMarkdown(markdown: string): string {
  if (!markdown.trim()) return '';
  return sanitizeHtmlFragment(marked.parse(markdown) as string).trim();
}

/** The tokens of Markdown, with the options the HTML is rendered with (PDFs walk them). */
export function markdownTokens(markdown: string): TokensList {
  return marked.lexer(markdown);
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  reg: '®',
  laquo: '«',
  raquo: '»',
  mdash: '—',
  ndash: '–',
  hellip: '…',
};

/** Decodes the character references of HTML (named ones of the list above, and numeric ones). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** HTML → plain text (PDF, mail, search). */
export function htmlToText(html: string): string {
  const withBreaks = html.replace(/<\/(p|div|li|h[1-6]|tr|blockquote|pre)>|<br\s*\/?>/gi, '$&\n');
  return decodeEntities(sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} }))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
