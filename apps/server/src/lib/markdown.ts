import { Marked, type MarkedToken, type Token, type TokensList } from 'marked';
import sanitizeHtml from 'sanitize-html';
import TurndownService from 'turndown';

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

/** Markdown (which may embed raw HTML, e.g. an analyst's document) → safe HTML. */
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

const turndown = new TurndownService({
  headingStyle: 'atx',
  bulletListMarker: '-',
  codeBlockStyle: 'fenced',
  emDelimiter: '*',
});
// text that reads like a tag (`<b>` typed into a comment) stays text when the Markdown is parsed
const escapeMarkdown = turndown.escape.bind(turndown);
turndown.escape = (text) => escapeMarkdown(text).replace(/</g, '\\<');

/**
 * Sanitised HTML (a comment's body) → Markdown, so that a PDF keeps its lists, faces, links and
 * code (issue 28) through the one Markdown writer rather than a second HTML one.
 */
export function htmlToMarkdown(html: string): string {
  return turndown.turndown(sanitizeHtmlFragment(html)).trim();
}

/**
 * Markdown typed into a plain-text composer (comments): Markdown formats it, but HTML typed in it
 * is text, shown as typed (`<b>x</b>` reads `<b>x</b>`), because the author wrote characters,
 * not markup. Only a rich-text editor's output is taken as HTML.
 */
const typedMarked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  // without the HTML tokenizers, `<tag>` falls through to text, which marked escapes
  tokenizer: { html: () => undefined, tag: () => undefined },
});

/** Text typed into a comment composer (Markdown, no raw HTML) → safe HTML. */
export function renderTypedMarkdown(markdown: string): string {
  if (!markdown.trim()) return '';
  return sanitizeHtmlFragment(typedMarked.parse(markdown) as string).trim();
}

/** One line of plain text from inline Markdown tokens (formatting, links and inline HTML dropped). */
const inlineText = (tokens: Token[]): string =>
  htmlToText(sanitizeHtmlFragment(marked.Parser.parseInline(tokens, marked.defaults)))
    .replace(/\s+/g, ' ')
    .trim();

/** The lines of Markdown blocks: a line per paragraph, heading, list item, table row or code line. */
function blockLines(tokens: Token[]): string[] {
  return tokens.flatMap((token): string[] => {
    const t = token as MarkedToken;
    switch (t.type) {
      case 'paragraph':
      case 'heading':
        return [inlineText(t.tokens)];
      case 'text':
        return [t.tokens ? inlineText(t.tokens) : t.text];
      case 'list':
        return t.items.flatMap((item, index) => {
          const [first = '', ...rest] = blockLines(item.tokens);
          const marker = t.ordered ? `${Number(t.start === '' ? 1 : t.start) + index}.` : '•';
          return [`${marker} ${first}`, ...rest];
        });
      case 'blockquote':
        return blockLines(t.tokens);
      case 'code':
        return t.text.split('\n');
      case 'table':
        return [t.header, ...t.rows].map((row) => row.map((cell) => inlineText(cell.tokens)).join(' | '));
      case 'html':
        return htmlToText(t.text).split('\n');
      default:
        return [];
    }
  });
}

/**
 * Markdown → plain text that keeps its structure: one line per paragraph, heading, list item
 * (`•` or its number) and table row, for summaries shown as text (document cards).
 */
export function markdownToLines(markdown: string): string {
  return blockLines(marked.lexer(markdown))
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}
