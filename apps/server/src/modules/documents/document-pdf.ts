import PDFDocument from 'pdfkit';
import type { DocumentCard, Language } from '@soc/contracts';
import { htmlToText } from '../../lib/markdown.ts';
import { FONT, FONT_BOLD } from '../../lib/pdf-fonts.ts';

const L = {
  ru: {
    instruction: 'Инструкция',
    response_instruction: 'Инструкция по реагированию',
    article: 'Статья',
    main: 'Основная информация',
    language: 'Язык',
    created: 'Создан',
    updated: 'Обновлён',
    author: 'Автор',
    tags: 'Теги',
    sensors: 'Сенсоры',
    attachments: 'Вложения',
    body: 'Описание',
    none: 'Нет описания',
  },
  en: {
    instruction: 'Instruction',
    response_instruction: 'Response instruction',
    article: 'Article',
    main: 'Main info',
    language: 'Language',
    created: 'Created',
    updated: 'Last update',
    author: 'Author',
    tags: 'Tags',
    sensors: 'Sensors',
    attachments: 'Attachments',
    body: 'Description',
    none: 'No description',
  },
} as const;

const when = (iso: string, lang: Language) =>
  new Date(iso).toLocaleString(lang === 'ru' ? 'ru-RU' : 'en-GB', { timeZone: 'UTC' }) + ' UTC';

/** Reads the bytes of one of the document's own attachments by its link, or null. */
export type ImageLoader = (link: string) => Promise<Buffer | null>;

/** Image types pdfkit can embed. */
const EMBEDDABLE = /^(image\/png|image\/jpeg)$/;

/**
 * The document as a PDF (in its own language, spec 001 §7): title, main info, the body as text with
 * its inline images (PNG, JPEG) in place. Everything is read before the PDF is built.
 */
export async function documentPdf(
  card: DocumentCard,
  loadImage: ImageLoader,
  portalName: string,
): Promise<Buffer> {
  const lang = card.language;
  const t = L[lang];
  // split the sanitised body into text and images, in order
  const blocks: ({ text: string } | { image: Buffer; alt: string } | { missing: string })[] = [];
  const html = card.description_html;
  const re = /<img\b[^>]*>/gi;
  let last = 0;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    blocks.push({ text: htmlToText(html.slice(last, m.index)) });
    const src = /\ssrc="([^"]*)"/i.exec(m[0])?.[1] ?? '';
    const alt = /\salt="([^"]*)"/i.exec(m[0])?.[1] ?? '';
    const attachment = card.attachments.find((a) => a.link === src);
    const bytes = attachment && EMBEDDABLE.test(attachment.content_type) ? await loadImage(src) : null;
    blocks.push(bytes ? { image: bytes, alt } : { missing: alt || attachment?.filename || '' });
    last = m.index + m[0].length;
  }
  blocks.push({ text: htmlToText(html.slice(last)) });

  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: card.title, Author: card.author || portalName, Subject: t[card.kind] },
    lang,
  });
  doc.registerFont('body', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('body').fontSize(9).fillColor('#8c8c8c').text(`${portalName} · ${t[card.kind]}`);
  doc.moveDown(0.5).font('bold').fontSize(18).fillColor('#1f1f1f').text(card.title);
  const heading = (text: string) => {
    doc.moveDown(0.8).font('bold').fontSize(13).fillColor('#1f1f1f').text(text).moveDown(0.3);
    doc.font('body').fontSize(10).fillColor('#262626');
  };
  heading(t.main);
  const rows: [string, string][] = [
    [t.language, card.language.toUpperCase()],
    [t.created, when(card.created, lang)],
    [t.updated, when(card.updated, lang)],
    [t.author, card.author || '—'],
    [t.tags, card.tags.join(', ') || '—'],
    ...(card.kind === 'instruction' ? [[t.sensors, card.sensors.join(', ') || '—'] as [string, string]] : []),
    [t.attachments, card.attachments.map((a) => a.filename).join(', ') || '—'],
  ];
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font('bold').fontSize(10).text(label, 50, y, { width: 140 });
    const afterLabel = doc.y;
    doc.font('body').text(value, 200, y, { width: 345 });
    doc.x = 50;
    doc.y = Math.max(afterLabel, doc.y) + 2;
  }

  heading(t.body);
  if (!html) doc.text(t.none);
  for (const block of blocks) {
    if ('text' in block) {
      if (block.text) doc.font('body').fontSize(10).text(block.text);
    } else if ('image' in block) {
      try {
        doc.moveDown(0.3).image(block.image, { fit: [495, 400] });
        doc.moveDown(0.3);
      } catch {
        doc.text(`[${block.alt}]`);
      }
    } else {
      doc.fillColor('#8c8c8c').text(`[${block.missing}]`).fillColor('#262626');
    }
  }
  doc.end();
  return done;
}
