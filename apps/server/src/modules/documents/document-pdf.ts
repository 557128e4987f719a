import PDFDocument from 'pdfkit';
import type { DocumentCard, Language } from '@soc/contracts';
import { dateLocale } from '../../lib/messages.ts';
import { registerPdfFonts } from '../../lib/pdf-fonts.ts';
import { markdownImageSources, writeMarkdown } from '../../lib/pdf-markdown.ts';

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
  new Date(iso).toLocaleString(dateLocale(lang), { timeZone: 'UTC' }) + ' UTC';

/** Reads the bytes of one of the document's own attachments by its link, or null. */
export type ImageLoader = (link: string) => Promise<Buffer | null>;

/** Image types pdfkit can embed. */
const EMBEDDABLE = /^(image\/png|image\/jpeg)$/;

/**
 * The document as a PDF (in its own language, product §B7): title, main info, the body with its
 * Markdown structure and its inline images (PNG, JPEG) in place. Everything is read before the
 * PDF is built.
 */
export async function documentPdf(
  card: DocumentCard,
  loadImage: ImageLoader,
  portalName: string,
): Promise<Buffer> {
  const lang = card.language;
  const t = L[lang];
  // the images the body shows: only the document's own PNG and JPEG attachments are read
  const images = new Map<string, Buffer | null>();
  for (const src of markdownImageSources(card.description)) {
    const attachment = card.attachments.find((a) => a.link === src);
    images.set(src, attachment && EMBEDDABLE.test(attachment.content_type) ? await loadImage(src) : null);
  }

  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: card.title, Author: card.author || portalName, Subject: t[card.kind] },
    lang,
  });
  registerPdfFonts(doc);
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
  if (card.description_html) writeMarkdown(doc, card.description, { x: 50, width: 495, images });
  else doc.text(t.none);
  doc.end();
  return done;
}
