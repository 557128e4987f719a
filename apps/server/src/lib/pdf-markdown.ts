import type { Token, Tokens } from 'marked';
import { decodeEntities, htmlToText, markdownTokens } from './markdown.ts';
import type { PdfFace } from './pdf-fonts.ts';

/**
 * Markdown written into a pdfkit document with its structure (issue 28): headings, numbered,
 * bulleted and task lists (nested), bold, italic, strikethrough, clickable links, inline code and
 * code blocks, block quotes, tables, rules and images. The tokens are those of the portal's own
 * Markdown rendering (`markdownTokens`); raw HTML in the text is written as its plain text.
 */

/** Images of a text by their source, read before writing; null: not embeddable (its alt is shown). */
export type PdfImages = ReadonlyMap<string, Buffer | null>;

export interface MarkdownPdfOptions {
  /** Left edge and width of the text column. */
  x: number;
  width: number;
  /** Body font size (points). */
  size?: number;
  images?: PdfImages;
}

interface Style {
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  strike?: boolean;
  link?: string;
}
type Run = Style & { text: string };
type Inline = Run | { image: string; alt: string };

const TEXT = '#262626';
const LINK = '#1668dc';
const RULE = '#d9d9d9';
const CODE_BACKGROUND = '#f5f5f5';
const HEADER_BACKGROUND = '#fafafa';
/** Heading sizes relative to the body size, by depth 1–6. */
const HEADING_SCALE = [1.6, 1.4, 1.25, 1.1, 1, 1];
/** Bullets by nesting depth. */
const BULLETS = ['•', '◦', '▪'];
const LIST_INDENT = 20;
const QUOTE_INDENT = 12;
const CELL_PADDING = 4;
const IMAGE_MAX_HEIGHT = 400;

/** Links that may leave the PDF (as in the HTML policy): http, https and mailto. */
const safeHref = (href: string): string | undefined =>
  /^(https?:|mailto:)/i.test(href.trim()) ? href.trim() : undefined;

const faceOf = (s: Style): PdfFace => {
  if (s.code) return s.bold ? 'mono-bold' : 'mono';
  if (s.bold) return s.italic ? 'bold-italic' : 'bold';
  return s.italic ? 'italic' : 'body';
};

/** The sources of the images a Markdown text shows, to read before `writeMarkdown`. */
export function markdownImageSources(markdown: string): string[] {
  const sources: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === 'image') sources.push((t as Tokens.Image).href);
      if (t.type === 'html') {
        for (const item of htmlInlines((t as Tokens.HTML).text, {}))
          if ('image' in item) sources.push(item.image);
      }
      if (t.type === 'list') for (const item of (t as Tokens.List).items) walk(item.tokens);
      if (t.type === 'table') {
        const table = t as Tokens.Table;
        for (const cell of [...table.header, ...table.rows.flat()]) walk(cell.tokens);
      }
      if ('tokens' in t && t.tokens) walk(t.tokens);
    }
  };
  walk(markdownTokens(markdown));
  return [...new Set(sources)];
}

const IMG_TAG = /<img\b[^>]*>/gi;
const attribute = (tag: string, name: string) =>
  decodeEntities(new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1] ?? '');

/** Raw HTML written in the Markdown → its plain text, with its `<img>` tags as images. */
function htmlInlines(html: string, style: Style): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const m of html.matchAll(IMG_TAG)) {
    out.push({ ...style, text: htmlToText(html.slice(last, m.index)) });
    out.push({ image: attribute(m[0], 'src'), alt: attribute(m[0], 'alt') });
    last = m.index + m[0].length;
  }
  out.push({ ...style, text: htmlToText(html.slice(last)) });
  return out;
}

/** Inline tokens → styled runs and images, in order. */
function inlines(tokens: Token[], style: Style, out: Inline[] = []): Inline[] {
  for (const t of tokens) {
    switch (t.type) {
      case 'strong':
        inlines(t.tokens ?? [], { ...style, bold: true }, out);
        break;
      case 'em':
        inlines(t.tokens ?? [], { ...style, italic: true }, out);
        break;
      case 'del':
        inlines(t.tokens ?? [], { ...style, strike: true }, out);
        break;
      case 'link': {
        const href = safeHref((t as Tokens.Link).href);
        inlines(t.tokens ?? [], href ? { ...style, link: href } : style, out);
        break;
      }
      case 'codespan':
        out.push({ ...style, code: true, text: decodeEntities((t as Tokens.Codespan).text) });
        break;
      case 'br':
        out.push({ ...style, text: '\n' });
        break;
      case 'image':
        out.push({ image: (t as Tokens.Image).href, alt: (t as Tokens.Image).text });
        break;
      case 'html':
        // inline tags come one by one; a line break, an image or text inside one survives
        if (/^<br\s*\/?>$/i.test((t as Tokens.HTML).text.trim())) out.push({ ...style, text: '\n' });
        else out.push(...htmlInlines((t as Tokens.HTML).text, style));
        break;
      case 'checkbox':
        break;
      default:
        if ('tokens' in t && t.tokens?.length) inlines(t.tokens, style, out);
        else if ('text' in t && typeof t.text === 'string')
          out.push({ ...style, text: decodeEntities(t.text) });
    }
  }
  return out;
}

const plainText = (items: Inline[]) => items.map((i) => ('text' in i ? i.text : `[${i.alt}]`)).join('');

/** Writes Markdown at the document's current position, within `options.x` and `options.width`. */
export function writeMarkdown(doc: PDFKit.PDFDocument, markdown: string, options: MarkdownPdfOptions): void {
  const size = options.size ?? 10;
  const images = options.images ?? new Map<string, Buffer | null>();
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const contentHeight = () => bottom() - doc.page.margins.top;
  /** Starts a new page unless `height` fits on this one. */
  const ensure = (height: number) => {
    if (doc.y + height > bottom()) doc.addPage();
  };

  /** Styled runs as one paragraph from (x, current y); pdfkit wraps them within `width`. */
  const writeRuns = (
    runs: Run[],
    x: number,
    width: number,
    fontSize: number,
    align: 'left' | 'center' | 'right' = 'left',
  ) => {
    const parts = runs.filter((r) => r.text);
    if (!parts.length) return;
    parts.forEach((r, i) => {
      doc
        .font(faceOf(r))
        .fontSize(r.code ? fontSize * 0.9 : fontSize)
        .fillColor(r.link ? LINK : TEXT);
      // every option is given on every run: pdfkit carries a continued run's options over
      const o: PDFKit.Mixins.TextOptions = {
        width,
        align,
        continued: i < parts.length - 1,
        link: r.link ?? null,
        underline: Boolean(r.link),
        strike: Boolean(r.strike),
        lineGap: 1.5,
      };
      if (i === 0) doc.text(r.text, x, doc.y, o);
      else doc.text(r.text, o);
    });
    doc.fillColor(TEXT);
  };

  /** Text and images of a paragraph (or of a tight list item), images on their own lines. */
  const writeInlines = (items: Inline[], x: number, width: number, fontSize: number) => {
    let runs: Run[] = [];
    const flush = () => {
      // a paragraph does not start or end with the line break that surrounded an image
      while (runs[0]?.text === '\n') runs.shift();
      while (runs.at(-1)?.text === '\n') runs.pop();
      writeRuns(runs, x, width, fontSize);
      runs = [];
    };
    for (const item of items) {
      if ('text' in item) {
        runs.push(item);
        continue;
      }
      flush();
      const bytes = images.get(item.image);
      let drawn = false;
      if (bytes) {
        try {
          ensure(Math.min(IMAGE_MAX_HEIGHT, contentHeight()) / 2);
          doc.x = x;
          // in the flow (no y given): pdfkit moves the position below the image
          doc.image(bytes, { fit: [width, Math.min(IMAGE_MAX_HEIGHT, bottom() - doc.y)] });
          drawn = true;
        } catch {
          // an unreadable image is named, as a missing one is
        }
      }
      if (!drawn) writeRuns([{ text: `[${item.alt || item.image}]` }], x, width, fontSize);
      doc.moveDown(0.3);
    }
    flush();
  };

  const writeList = (list: Tokens.List, x: number, width: number, depth: number) => {
    const first = Number(list.start) || 1;
    list.items.forEach((item, i) => {
      const marker = item.task
        ? item.checked
          ? '☑'
          : '☐'
        : list.ordered
          ? `${first + i}.`
          : BULLETS[depth % BULLETS.length]!;
      ensure(size * 1.6);
      const y = doc.y;
      doc
        .font('body')
        .fontSize(size)
        .fillColor(TEXT)
        .text(marker, x, y, { width: LIST_INDENT - 4, lineBreak: false });
      doc.y = y;
      writeBlocks(item.tokens, x + LIST_INDENT, width - LIST_INDENT, depth + 1, !item.loose);
      if (item.loose) doc.moveDown(0.3);
    });
  };

  const writeCode = (code: string, x: number, width: number) => {
    doc.font('mono').fontSize(size * 0.9);
    const textOptions = { width: width - 2 * CELL_PADDING - 4, lineGap: 1 };
    const height = doc.heightOfString(code, textOptions) + 2 * CELL_PADDING;
    if (height <= contentHeight()) {
      ensure(height);
      doc.rect(x, doc.y, width, height).fill(CODE_BACKGROUND);
    }
    doc.fillColor(TEXT).text(code, x + CELL_PADDING + 2, doc.y + CELL_PADDING, textOptions);
    doc.y += CELL_PADDING;
    doc.x = x;
  };

  const writeTable = (table: Tokens.Table, x: number, width: number) => {
    const columnWidth = width / table.header.length;
    const textWidth = columnWidth - 2 * CELL_PADDING;
    const fontSize = size * 0.95;
    const writeRow = (cells: Tokens.TableCell[], header: boolean) => {
      const contents = cells.map((c) => inlines(c.tokens, header ? { bold: true } : {}));
      doc.font(header ? 'bold' : 'body').fontSize(fontSize);
      const height =
        Math.max(...contents.map((c) => doc.heightOfString(plainText(c) || ' ', { width: textWidth }))) +
        2 * CELL_PADDING;
      ensure(height);
      const y = doc.y;
      if (header) doc.rect(x, y, width, height).fill(HEADER_BACKGROUND);
      contents.forEach((content, i) => {
        const left = x + i * columnWidth;
        doc.rect(left, y, columnWidth, height).lineWidth(0.5).strokeColor(RULE).stroke();
        doc.y = y + CELL_PADDING;
        const runs = content.map((c) => ('text' in c ? c : { text: `[${c.alt}]` }));
        writeRuns(runs, left + CELL_PADDING, textWidth, fontSize, cells[i]?.align ?? 'left');
      });
      doc.x = x;
      doc.y = y + height;
    };
    writeRow(table.header, true);
    for (const row of table.rows) writeRow(row, false);
  };

  /** Block tokens; `tight` (a tight list item) keeps its paragraphs without space after them. */
  const writeBlocks = (tokens: Token[], x: number, width: number, depth: number, tight = false) => {
    const gap = () => doc.moveDown(tight ? 0.1 : 0.5);
    for (const t of tokens) {
      doc.x = x;
      switch (t.type) {
        case 'space':
        case 'checkbox':
          break;
        case 'heading': {
          const heading = t as Tokens.Heading;
          const fontSize = size * (HEADING_SCALE[heading.depth - 1] ?? 1);
          ensure(fontSize * 3);
          doc.moveDown(0.3);
          writeRuns(
            inlines(heading.tokens, { bold: true }).filter((i): i is Run => 'text' in i),
            x,
            width,
            fontSize,
          );
          doc.moveDown(0.3);
          break;
        }
        case 'paragraph':
        case 'text':
          writeInlines(inlines('tokens' in t && t.tokens ? t.tokens : [t], {}), x, width, size);
          gap();
          break;
        case 'list':
          writeList(t as Tokens.List, x, width, depth);
          if (depth === 0) gap();
          break;
        case 'code':
          writeCode((t as Tokens.Code).text, x, width);
          gap();
          break;
        case 'blockquote': {
          const page = doc.page;
          const top = doc.y;
          writeBlocks((t as Tokens.Blockquote).tokens, x + QUOTE_INDENT, width - QUOTE_INDENT, depth);
          if (doc.page === page) {
            doc
              .moveTo(x + 3, top)
              .lineTo(x + 3, doc.y - size * 0.5)
              .lineWidth(2)
              .strokeColor(RULE)
              .stroke();
          }
          doc.moveDown(0.3);
          break;
        }
        case 'table':
          writeTable(t as Tokens.Table, x, width);
          gap();
          break;
        case 'hr':
          ensure(size);
          doc
            .moveTo(x, doc.y + size / 2)
            .lineTo(x + width, doc.y + size / 2)
            .lineWidth(0.5)
            .strokeColor(RULE)
            .stroke();
          doc.y += size;
          break;
        case 'html': {
          const items = htmlInlines((t as Tokens.HTML).text, {});
          if (items.some((i) => !('text' in i) || i.text)) {
            writeInlines(items, x, width, size);
            gap();
          }
          break;
        }
        default:
          if ('text' in t && typeof t.text === 'string' && t.text.trim()) {
            writeRuns([{ text: decodeEntities(t.text) }], x, width, size);
            gap();
          }
      }
    }
  };

  writeBlocks(markdownTokens(markdown), options.x, options.width, 0);
  doc.x = options.x;
  doc.font('body').fontSize(size).fillColor(TEXT);
}
